import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  // Every package imported stays an import, so check:packages sees one left out of dependencies
  // (tsup would otherwise bundle it quietly).
  skipNodeModulesBundle: true,
  target: "node20",
});
