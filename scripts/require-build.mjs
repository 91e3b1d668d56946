// A package's `prepack`: its `files` come from the build and are not committed, so packing a clean
// checkout would publish a package with no code in it. Refuse instead, and say what to run.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
// Plain paths in `files` (patterns are npm's to match), and every file the manifest points at.
const listed = (manifest.files ?? []).filter((path) => !/[*?[!]/.test(path));
const targets = [
  manifest.main,
  manifest.types,
  ...Object.values(typeof manifest.bin === "string" ? { bin: manifest.bin } : (manifest.bin ?? {})),
  ...leaves(manifest.exports),
];
const built = targets
  .filter((path) => typeof path === "string")
  .map((path) => path.replace(/^\.\//, ""))
  .filter((path) => path.startsWith("dist/"));
const missing = [
  ...new Set([
    ...listed.filter((path) => !existsSync(path) || (statSync(path).isDirectory() && readdirSync(path).length === 0)),
    ...built.filter((path) => !existsSync(path)),
  ]),
];
if (missing.length) {
  console.error(
    `${manifest.name}: ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} missing, so the package would be published without them. ` +
      "Run `npm run build` at the repository root first (`npm publish` and `changeset publish` run it themselves).",
  );
  process.exit(1);
}

/** The file paths an `exports` map names, whatever its conditions. */
function leaves(value) {
  if (typeof value === "string") return [value];
  if (!value || typeof value !== "object") return [];
  return Object.values(value).flatMap(leaves);
}
