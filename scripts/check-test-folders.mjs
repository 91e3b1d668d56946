#!/usr/bin/env node
// The server's tests are found by feature: each packages/server/test/**/*.test.ts sits in a folder
// named after the packages/server/src folder whose code it mainly tests (test/http/ for
// src/http/), or in one of the few folders for what no one src folder holds (a journey across the
// house, the served dashboard, the package's entry points). In one flat folder mixing features and
// concerns, a maintainer cannot find a feature's tests; this keeps a new test from landing there.
// packages/server/docs/inside.md has the table of folders.
//
//   node scripts/check-test-folders.mjs [root]     root: the repository (default: this one)
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Folders for tests that no one src folder holds, and what each holds. */
export const EXTRA = {
  journeys: "a whole journey across the house (studio, model, conversation rehearsal)",
  dashboard: "the served dashboard's pages, in a browser, and its files",
  "entry-points": "the package's public entry points (src/testing.ts, admin-client.ts, index.ts, ...)",
};
/** Folders of shared code the tests import: no test sits in them. */
export const HELPERS = ["support", "behaviour", "browser"];

/** The problems with the server's test layout under `root`: one line each, saying what to do. */
export function problems(root) {
  const server = join(root, "packages/server");
  const srcFolders = readdirSync(join(server, "src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const allowed = new Set([...srcFolders, ...Object.keys(EXTRA)]);
  const where = `test/<folder>/ named after the src folder whose code it mainly tests (${srcFolders.join(", ")}), or ${Object.keys(EXTRA)
    .map((name) => `${name}/`)
    .join(", ")}`;
  const found = [];
  const testRoot = join(server, "test");
  if (!existsSync(testRoot)) return found;
  for (const file of readdirSync(testRoot, { recursive: true, withFileTypes: true })) {
    if (!file.isFile() || !file.name.endsWith(".test.ts")) continue;
    const path = relative(testRoot, join(file.parentPath ?? file.path, file.name))
      .split("\\")
      .join("/");
    const folders = path.split("/").slice(0, -1);
    const shown = `packages/server/test/${path}`;
    if (folders.length === 0) found.push(`${shown}: a test directly in test/. Move it (git mv) into ${where}.`);
    else if (HELPERS.includes(folders[0])) found.push(`${shown}: test/${folders[0]}/ holds shared code, not tests. Move it into ${where}.`);
    else if (!allowed.has(folders[0]))
      found.push(
        `${shown}: test/${folders[0]}/ is no src folder's name nor one of ${Object.keys(EXTRA).join(", ")}. Move it into ${where}.`,
      );
    else if (folders.length > 1)
      found.push(`${shown}: a test in a subfolder of test/${folders[0]}/. Move it up into test/${folders[0]}/ itself.`);
  }
  return found.sort();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url));
  const found = problems(root);
  if (found.length) {
    console.error(
      `${found.join("\n")}\n\n${found.length} server test file(s) out of place: the table of folders is in packages/server/docs/inside.md.`,
    );
    process.exit(1);
  }
  console.log("packages/server/test: every test sits in its feature's folder.");
}
