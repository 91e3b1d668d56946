import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/webhooks.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  // Every package imported stays an import, so check:packages sees one left out of dependencies
  // (tsup would otherwise bundle it quietly).
  skipNodeModulesBundle: true,
  target: "es2022",
  // openapi-fetch stays a dependency (deduplicated in apps); @intake/spec is only types here.
  external: ["openapi-fetch", "@intake/spec", "standardwebhooks"],
});
