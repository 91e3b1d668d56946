// `npm start`'s build step, in a repository of its own: it builds when the build's inputs changed
// or a dist is missing, quietly, and shows the build's output only when the build fails.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../build-if-changed.mjs", import.meta.url));
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/**
 * A repository with one package whose build writes dist/index.js, prints 60 lines, counts its runs
 * in builds.log, and fails while FAIL exists.
 */
function repository() {
  const root = mkdtempSync(join(tmpdir(), "intake-start-"));
  folders.push(root);
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write("package.json", JSON.stringify({ name: "repo", private: true, scripts: { build: "node build.mjs" } }));
  write(
    "build.mjs",
    `import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
appendFileSync("builds.log", "built\\n");
for (let i = 0; i < 60; i++) console.log("build output line " + i);
if (existsSync("FAIL")) { console.error("src/index.ts(1,1): error TS1005: ';' expected."); process.exit(2); }
mkdirSync("packages/a/dist", { recursive: true });
writeFileSync("packages/a/dist/index.js", "export {};\\n");
`,
  );
  write("openapi.yaml", "openapi: 3.1.0\n");
  write("packages/a/package.json", JSON.stringify({ name: "a", scripts: { build: "tsup" } }));
  write("packages/a/src/index.ts", "export const a = 1;\n");
  const start = () => {
    const run = spawnSync(process.execPath, [SCRIPT], { cwd: root, encoding: "utf8" });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const builds = () => readFileSync(join(root, "builds.log"), "utf8").split("\n").filter(Boolean).length;
  return { root, write, start, builds };
}

describe("build-if-changed (npm start's build)", () => {
  it("builds the first time, quietly, and not again while nothing changed", () => {
    const repo = repository();
    const first = repo.start();
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("");
    expect(first.stderr).toMatch(/^Building the packages \(there is no build yet\)…\nBuilt in \d+\.\d s\.\n$/);
    expect(repo.builds()).toBe(1);
    const second = repo.start();
    expect(second).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(repo.builds()).toBe(1);
  });

  it("builds again when a source, a package's manifest or the contract changed, not when a file was only touched", () => {
    const repo = repository();
    repo.start();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(repo.root, "packages/a/src/index.ts"), later, later);
    repo.start();
    expect(repo.builds()).toBe(1);
    let expected = 1;
    for (const [path, text] of [
      ["packages/a/src/index.ts", "export const a = 2;\n"],
      ["packages/a/src/deeper/new.ts", "export const b = 1;\n"],
      ["packages/a/package.json", JSON.stringify({ name: "a", version: "2.0.0", scripts: { build: "tsup" } })],
      ["openapi.yaml", "openapi: 3.1.1\n"],
    ]) {
      repo.write(path!, text!);
      expect(repo.start().stderr, path).toMatch(/^Building the packages \(the sources changed since the last build\)…\n/);
      expect(repo.builds(), path).toBe(++expected);
      repo.start();
      expect(repo.builds(), path).toBe(expected);
    }
  });

  it("builds again when the dashboard's page, Vite configuration or sources changed, or the server's copy of it", () => {
    const repo = repository();
    repo.write("packages/dashboard/package.json", JSON.stringify({ name: "dashboard", private: true, scripts: { build: "vite build" } }));
    repo.write("packages/dashboard/dist/index.html", "<!doctype html>\n");
    repo.write("packages/a/scripts/copy-dashboard.mjs", "// copies\n");
    repo.start();
    let expected = 1;
    for (const path of [
      "packages/dashboard/index.html",
      "packages/dashboard/vite.config.ts",
      "packages/dashboard/src/pages/contacts.tsx",
      "packages/a/scripts/copy-dashboard.mjs",
    ]) {
      repo.write(path, `// ${path}, changed\n`);
      expect(repo.start().stderr, path).toMatch(/^Building the packages \(the sources changed since the last build\)…\n/);
      expect(repo.builds(), path).toBe(++expected);
    }
  });

  it("builds again when a package's dist is gone", () => {
    const repo = repository();
    repo.start();
    rmSync(join(repo.root, "packages/a/dist"), { recursive: true });
    repo.start();
    expect(repo.builds()).toBe(2);
  });

  it("shows the build's output when it fails, exits with its code, and tries again on the next start", () => {
    const repo = repository();
    repo.write("FAIL", "");
    const failed = repo.start();
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("build output line 59");
    expect(failed.stderr).toContain("error TS1005: ';' expected.");
    expect(failed.stderr).toMatch(/The build failed \(exit code 2\); its output is above\.\n$/);
    rmSync(join(repo.root, "FAIL"));
    expect(repo.start().code).toBe(0);
    expect(repo.builds()).toBe(2);
  });

  it("--stamp (the end of the root build) records the build, so the next start does not repeat it", () => {
    const repo = repository();
    spawnSync("npm", ["run", "build", "--silent"], { cwd: repo.root });
    expect(spawnSync(process.execPath, [SCRIPT, "--stamp"], { cwd: repo.root }).status).toBe(0);
    expect(repo.start()).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(repo.builds()).toBe(1);
  });
});
