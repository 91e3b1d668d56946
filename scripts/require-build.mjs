// A package's `prepack`: its `files` come from the build and are not committed, so packing a clean
// checkout would publish a package with no code in it. Refuse instead, and say what to run.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const missing = (manifest.files ?? []).filter((path) => !existsSync(path) || (statSync(path).isDirectory() && readdirSync(path).length === 0));
if (missing.length) {
  console.error(
    `${manifest.name}: ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} missing, so the package would be published without them. ` +
      "Run `npm run build` at the repository root first (`npm publish` and `changeset publish` run it themselves).",
  );
  process.exit(1);
}
