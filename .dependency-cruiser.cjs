/**
 * The architecture check `npm run lint:deps` runs over every workspace's sources (each package's
 * src/, the dashboard's .tsx included, and each example's): no import cycles between source
 * folders (nor between modules), and the modules directly in a package's src/ (its entry points)
 * on top. A folder is a room of the house (packages/server/src/http, .../store, ...): when two
 * rooms import each other, neither can be understood, tested or moved without the other.
 * Type-only imports count too: they couple the rooms just the same. Workspace packages resolve to
 * their sources (the `@intake/source` condition), so a cycle through another workspace is found.
 */
const SOURCES = "^(packages|examples)/[^/]+/src";

module.exports = {
  forbidden: [
    {
      name: "no-folder-cycles",
      comment: "Two source folders import each other (perhaps through others). Move what both need to a folder of its own.",
      severity: "error",
      scope: "folder",
      from: { path: SOURCES },
      to: { circular: true },
    },
    {
      name: "entry-points-on-top",
      comment:
        "The modules directly in src/ are the package's entry points and the composition root (app.ts): they import the folders, never the other way round. Move what a folder needs from one into a folder.",
      severity: "error",
      from: { path: `(${SOURCES})/[^/]+/` },
      to: { path: "^$1/[^/]+$" },
    },
    {
      name: "operations-below-the-door",
      comment:
        "The server's operation folders (api/, admin/) are what the front door (http/) runs: they read requests, answers and their contract through contract/, never through the door or its steps.",
      severity: "error",
      from: { path: "^packages/server/src/(api|admin)/" },
      to: { path: "^packages/server/src/http/" },
    },
    {
      name: "no-module-cycles",
      comment: "Two modules import each other (perhaps through others).",
      severity: "error",
      from: { path: SOURCES },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "generated" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@intake/source", "import", "default"],
      mainFields: ["module", "main", "types"],
    },
  },
};
