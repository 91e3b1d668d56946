import { defineConfig } from "tsup";

/**
 * The store library, @mswjs/data, and what it loads, bundled into the build: published as some 600
 * CommonJS files (all of date-fns, lodash's modules, graphql), it took most of a start finding them,
 * and on Node 22.12 and later each of date-fns' files re-reads @babel/runtime's large `exports` map.
 * msw stays the user's (a peer). @mswjs/data stays in dependencies: its types describe the records
 * in the published .d.ts. scripts/third-party-notices.mjs writes their licences beside the build.
 */
const STORE_LIBRARY = [
  "@mswjs/data",
  "@babel/runtime",
  "charenc",
  "crypt",
  "date-fns",
  "debug",
  "graphql",
  "has-flag",
  "is-buffer",
  "lodash",
  "md5",
  "ms",
  "outvariant",
  "pluralize",
  "strict-event-emitter",
  "supports-color",
];

export default defineConfig({
  entry: ["src/index.ts", "src/node.ts", "src/msw.ts", "src/testing.ts", "src/connect.ts", "src/admin-client.ts", "src/hosting.ts", "src/cli.ts"],
  format: ["esm"],
  dts: { entry: ["src/index.ts", "src/node.ts", "src/msw.ts", "src/testing.ts", "src/connect.ts", "src/admin-client.ts", "src/hosting.ts"] },
  external: ["msw"],
  noExternal: STORE_LIBRARY,
  // The bundled CommonJS requires node's modules (and msw) at run time: an ES module has no `require` of its own.
  banner: { js: 'import { createRequire as __intakeCreateRequire } from "node:module"; const require = __intakeCreateRequire(import.meta.url);' },
  clean: true,
  // Every package imported stays an import, so check:packages sees one left out of dependencies
  // (tsup would otherwise bundle it quietly).
  skipNodeModulesBundle: true,
  target: "node20",
});
