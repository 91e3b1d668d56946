// A package's `prepack` and `postpack`: the exports conditions this repository uses in
// development (`@intake/source`, which points at TypeScript sources the tarball does not hold)
// are taken out of package.json while npm packs it, and put back afterwards.
//
//   node ../../scripts/publish-manifest.mjs strip      (prepack; run in the package's folder)
//   node ../../scripts/publish-manifest.mjs restore    (postpack)
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Export conditions only this repository's tools set; no installer or bundler of a user's does. */
export const DEVELOPMENT_CONDITIONS = new Set(["@intake/source"]);

const MANIFEST = "package.json";
const KEPT = "package.json.development";

/** The exports map without the development conditions. */
export function withoutDevelopmentConditions(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !DEVELOPMENT_CONDITIONS.has(key))
      .map(([key, inner]) => [key, withoutDevelopmentConditions(inner)]),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === "strip") {
    // A strip left behind by a pack that failed is undone first, so the development manifest is never lost.
    if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
    const text = readFileSync(MANIFEST, "utf8");
    const manifest = JSON.parse(text);
    writeFileSync(KEPT, text);
    writeFileSync(MANIFEST, `${JSON.stringify({ ...manifest, exports: withoutDevelopmentConditions(manifest.exports) }, null, 2)}\n`);
  } else if (command === "restore") {
    if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
  } else {
    console.error("Usage: publish-manifest.mjs strip|restore");
    process.exit(1);
  }
}
