// `npm test`'s check that the interface-coverage page names tests that exist.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../check-interface-coverage.mjs", import.meta.url));
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

const TESTS = `
describe("a suite", () => {
  it("creates a contact (201)", async () => {});
  direct('a title with \\'quotes\\' and a | pipe', async () => {});
  it.each([
    ["a", 1],
  ])("%s is %i", async () => {});
  const note = "only a string, not a test";
});
`;

/** The check run in a folder holding `test/a.test.ts` and a page with these rows; its exit code and output. */
function check(rows: string[]) {
  const folder = mkdtempSync(join(tmpdir(), "intake-coverage-"));
  folders.push(folder);
  mkdirSync(join(folder, "test"));
  writeFileSync(join(folder, "test/a.test.ts"), TESTS);
  const page = [
    "# Coverage",
    "",
    "| # | Says | Server | Decision | Test |",
    "|---|---|---|---|---|",
    ...rows.map((row, i) => `| ${i + 1} | a rule | does it | — | ${row} |`),
  ].join("\n");
  writeFileSync(join(folder, "page.md"), page);
  const run = spawnSync(process.execPath, [SCRIPT, "page.md"], { cwd: folder, encoding: "utf8" });
  return { code: run.status, output: (run.stdout + run.stderr).trim() };
}

describe("the interface-coverage check", () => {
  it("passes a page whose every row names tests that exist, in it, direct or it.each form, with quotes and pipes in titles", () => {
    const a = "`test/a.test.ts`";
    expect(check([`${a} › "creates a contact (201)"; ${a} › "a title with 'quotes' and a \\| pipe"`, `${a} › "%s is %i"`])).toEqual({
      code: 0,
      output: "page.md: the 2 rows name tests that exist.",
    });
  });

  it("fails naming each row whose test is missing, misnamed, only a string, unnamed or marked LEAD", () => {
    const result = check([
      '`test/b.test.ts` › "creates a contact (201)"',
      '`test/a.test.ts` › "creates a contact"',
      '`test/a.test.ts` › "only a string, not a test"',
      "",
      "LEAD",
      'a.test.ts "creates a contact (201)"',
    ]);
    expect(result).toEqual({
      code: 1,
      output: [
        "page.md: 6 problems:",
        "  row 1: test/b.test.ts does not exist.",
        '  row 2: test/a.test.ts has no test titled "creates a contact".',
        '  row 3: test/a.test.ts has no test titled "only a string, not a test".',
        "  row 4: no test named.",
        "  row 5: marked LEAD; the lead names its test.",
        '  row 6: no test named (the Test cell reads "a.test.ts \\"creates a contact (201)\\""; write `path/to/file.ts` › "test title").',
      ].join("\n"),
    });
  });
});
