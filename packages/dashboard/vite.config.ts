// The dashboard's build: one page, its script and style as hashed files under /__dashboard/assets/,
// nothing inline (the Content-Security-Policy allows only 'self'), nothing fetched from elsewhere.
// It goes to dist/, which the server's build copies into its own package.
import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/__dashboard/",
  logLevel: "warn",
  // @intake/server/admin-client from the server's TypeScript sources (as the tests and type-checks
  // resolve it): the dashboard builds without the server built first.
  resolve: { conditions: ["@intake/source", ...defaultClientConditions] },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("./dist", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    // The polyfill would be an inline script; every browser the dashboard supports has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
