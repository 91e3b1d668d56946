// The packages' `prepack`: a package whose build is missing, whole or in part, is not packed.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../require-build.mjs", import.meta.url));
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A package folder with this manifest and these files; the script's exit code and message there. */
function prepack(manifest: object, files: string[]) {
  const folder = mkdtempSync(join(tmpdir(), "intake-prepack-"));
  folders.push(folder);
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "@intake/example", ...manifest }));
  for (const file of files) {
    mkdirSync(join(folder, file, ".."), { recursive: true });
    writeFileSync(join(folder, file), "");
  }
  const run = spawnSync(process.execPath, [SCRIPT], { cwd: folder, encoding: "utf8" });
  return { code: run.status, message: run.stderr.trim() };
}

const manifest = {
  files: ["dist", "openapi.yaml", "dist/**/*.map", "!dist/**/*.test.js"],
  main: "./dist/index.cjs",
  bin: { example: "dist/cli.js" },
  exports: { ".": { "@intake/source": "./src/index.ts", import: "./dist/index.js", require: "./dist/index.cjs" } },
};

describe("the prepack check", () => {
  it("passes a package with its whole build (patterns in files are npm's to match; sources are not the build)", () => {
    expect(prepack(manifest, ["dist/index.js", "dist/index.cjs", "dist/cli.js", "openapi.yaml"])).toEqual({ code: 0, message: "" });
  });

  it("refuses a package without its build, naming what is missing and what to run", () => {
    expect(prepack(manifest, [])).toEqual({
      code: 1,
      message:
        "@intake/example: dist, openapi.yaml, dist/index.cjs, dist/cli.js, dist/index.js are missing, so the package would be published without them. Run `npm run build` at the repository root first (`npm publish` and `changeset publish` run it themselves).",
    });
  });

  it("refuses a partial build: a file the manifest points at is missing", () => {
    expect(prepack(manifest, ["dist/index.js", "dist/index.cjs", "openapi.yaml"])).toMatchObject({
      code: 1,
      message: expect.stringMatching(/^@intake\/example: dist\/cli\.js is missing/),
    });
  });
});
