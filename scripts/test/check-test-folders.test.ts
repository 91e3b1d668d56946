// scripts/check-test-folders.mjs: a server test directly in test/, in a folder named for no src
// folder, among the shared helpers or a level too deep is refused, saying where it goes; a layout
// of src folders' names and the extra folders passes.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../check-test-folders.mjs", import.meta.url));
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A repository with packages/server/src folders `src` and these files under packages/server/test; the script's exit code and output there. */
function check(src: string[], tests: string[]) {
  const root = mkdtempSync(join(tmpdir(), "intake-test-folders-"));
  folders.push(root);
  for (const folder of src) mkdirSync(join(root, "packages/server/src", folder), { recursive: true });
  writeFileSync(join(root, "packages/server/src/index.ts"), "");
  for (const file of tests) {
    const path = join(root, "packages/server/test", file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "");
  }
  const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: "utf8" });
  return { code: run.status, out: run.stdout.trim(), err: run.stderr.trim() };
}

describe("the test-folder check", () => {
  it("passes tests in src folders' names and the extra folders, with helpers beside them", () => {
    const run = check(
      ["http", "store"],
      [
        "http/compose.test.ts",
        "store/table.test.ts",
        "journeys/studio.test.ts",
        "dashboard/pages.test.ts",
        "entry-points/testing.test.ts",
        "support/seed.ts",
        "behaviour/cases.ts",
        "dashboard/browser.ts",
        "http/prism.contract.test.ts",
      ],
    );
    expect(run).toEqual({ code: 0, out: "packages/server/test: every test sits in its feature's folder.", err: "" });
  });

  it("refuses a test directly in test/, in a folder of no src folder's name, among the helpers or a level too deep, saying where it goes", () => {
    const run = check(
      ["http", "store"],
      ["configured.test.ts", "misc/odd.test.ts", "support/helper.test.ts", "http/steps/deep.test.ts", "http/fine.test.ts"],
    );
    expect(run.code).toBe(1);
    expect(run.out).toBe("");
    const lines = run.err.split("\n");
    const where =
      "test/<folder>/ named after the src folder whose code it mainly tests (http, store), or journeys/, dashboard/, entry-points/.";
    expect(lines.slice(0, 4)).toEqual([
      `packages/server/test/configured.test.ts: a test directly in test/. Move it (git mv) into ${where}`,
      "packages/server/test/http/steps/deep.test.ts: a test in a subfolder of test/http/. Move it up into test/http/ itself.",
      `packages/server/test/misc/odd.test.ts: test/misc/ is no src folder's name nor one of journeys, dashboard, entry-points. Move it into ${where}`,
      `packages/server/test/support/helper.test.ts: test/support/ holds shared code, not tests. Move it into ${where}`,
    ]);
    expect(run.err).toContain("4 server test file(s) out of place: the table of folders is in packages/server/docs/inside.md.");
    expect(run.err).not.toContain("fine.test.ts");
  });

  it("passes this repository", () => {
    expect(spawnSync(process.execPath, [SCRIPT], { encoding: "utf8" }).status).toBe(0);
  });
});
