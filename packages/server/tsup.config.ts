import { defineConfig } from "tsup";

export default defineConfig({
  entry: [
    "src/index.ts",
    "src/node.ts",
    "src/msw.ts",
    "src/testing.ts",
    "src/connect.ts",
    "src/admin-client.ts",
    "src/hosting.ts",
    "src/cli.ts",
  ],
  format: ["esm"],
  dts: {
    entry: ["src/index.ts", "src/node.ts", "src/msw.ts", "src/testing.ts", "src/connect.ts", "src/admin-client.ts", "src/hosting.ts"],
  },
  external: ["msw"],
  clean: true,
  // Every package imported stays an import, so check:packages sees one left out of dependencies
  // (tsup would otherwise bundle it quietly).
  skipNodeModulesBundle: true,
  target: "node20",
});
