// @ts-check
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Only the domain operations write the server's state (packages/server/src/domain/): elsewhere
 * `writable` and `publish` cannot be imported. Inside domain/ they come from "./domain.js", which
 * this pattern does not name.
 */
const ONLY_DOMAIN_WRITES = {
  group: ["**/domain/domain.js"],
  importNames: ["writable", "publish"],
  message: "Only the domain operations write the state: call one of packages/server/src/domain/, or add one there.",
};

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "packages/spec/src/generated/**", "bench/results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": "off",
    },
  },
  {
    // Small modules and short functions, each read in one sitting. A function's length counts its
    // code, not its blank lines or the comments that say why.
    files: ["packages/*/src/**/*.{ts,tsx}"],
    ignores: ["**/generated/**"],
    rules: {
      "max-lines": ["error", { max: 400 }],
      "max-lines-per-function": ["error", { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ["packages/server/src/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [ONLY_DOMAIN_WRITES] }] },
  },
  {
    // The server core also runs as msw handlers in a browser: Node specifics live in adapters.
    files: ["packages/server/src/**/*.ts"],
    ignores: [
      "packages/server/src/adapters/**",
      "packages/server/src/cli.ts",
      "packages/server/src/cli-main.ts",
      "packages/server/src/cli/**",
      "packages/server/src/node.ts",
      "packages/server/src/testing.ts",
      "packages/server/src/connect.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["node:*"], message: "Node-only code belongs in packages/server/src/adapters/." }, ONLY_DOMAIN_WRITES],
          paths: [
            { name: "file-type", message: "Import file-type/core: the default entry needs Node streams." },
            { name: "selfsigned", message: "Certificates are the node adapter's business." },
          ],
        },
      ],
    },
  },
  {
    // The dashboard runs in a browser: of the server, it loads the public admin client and its types.
    files: ["packages/dashboard/src/**/*.{ts,tsx}"],
    languageOptions: { globals: globals.browser },
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^@intake/server(?!/admin-client$)",
              message: "Import the admin client from @intake/server/admin-client: the rest of the server is not for a browser.",
            },
            { group: ["**/server/src/**"], message: "Import the server's public @intake/server/admin-client, not its sources." },
            { group: ["node:*"], message: "The dashboard runs in a browser." },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: globals.node },
  },
  {
    // Test helpers read JSON answers whose shape each assertion states.
    files: ["**/test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["**/*.test-d.ts"],
    rules: { "@typescript-eslint/ban-ts-comment": "off" },
  },
);
