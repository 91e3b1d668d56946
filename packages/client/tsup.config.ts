import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

// Only the version, not the whole manifest, goes into the build (for the User-Agent).
const { version } = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  entry: ["src/index.ts", "src/webhooks.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  // Every package imported stays an import, so check:packages sees one left out of dependencies
  // (tsup would otherwise bundle it quietly).
  skipNodeModulesBundle: true,
  target: "es2022",
  define: { __INTAKE_CLIENT_VERSION__: JSON.stringify(version) },
  // openapi-fetch stays a dependency (deduplicated in apps); @intake/spec is only types here.
  external: ["openapi-fetch", "@intake/spec", "standardwebhooks"],
});
