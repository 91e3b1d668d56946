// `npm run version-packages`, the first step of a release: in a copy of the workspace's manifests,
// lockfile and pending changesets, it writes each published package's CHANGELOG.md from the
// changesets, bumps the versions (and the ranges that name them), updates the lockfile to match,
// and consumes the changesets. Offline: the lockfile already holds every dependency.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PUBLISHED = ["spec", "client", "server"] as const;
const ADDED = "A change made by the version-packages test, so there is always one to release.";
let copy: string;
let before: Record<string, string>;

const manifest = (at: string, pkg: string) =>
  JSON.parse(readFileSync(join(at, "packages", pkg, "package.json"), "utf8")) as { version: string; dependencies?: Record<string, string> };

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), "intake-release-"));
  for (const file of ["package.json", "package-lock.json", ".changeset"]) cpSync(join(ROOT, file), join(copy, file), { recursive: true });
  for (const parent of ["packages", "examples"]) {
    for (const name of readdirSync(join(ROOT, parent))) {
      const from = join(ROOT, parent, name, "package.json");
      if (!existsSync(from)) continue;
      mkdirSync(join(copy, parent, name), { recursive: true });
      cpSync(from, join(copy, parent, name, "package.json"));
    }
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  writeFileSync(join(copy, ".changeset", "version-packages-test.md"), `---\n"@intake/client": patch\n---\n\n${ADDED}\n`);
  before = Object.fromEntries(PUBLISHED.map((pkg) => [pkg, manifest(copy, pkg).version]));
  execFileSync("npm", ["run", "version-packages"], {
    cwd: copy,
    stdio: "pipe",
    env: { ...process.env, npm_config_offline: "true" },
    timeout: 120_000,
  });
}, 150_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("npm run version-packages", () => {
  it("writes each published package's CHANGELOG.md with the changesets that name it", () => {
    const changelog = (pkg: string) => readFileSync(join(copy, "packages", pkg, "CHANGELOG.md"), "utf8");
    for (const pkg of PUBLISHED)
      expect(changelog(pkg)).toMatch(new RegExp(`^# @intake/${pkg}\\n\\n## ${manifest(copy, pkg).version.replaceAll(".", "\\.")}\\n`));
    expect(changelog("client")).toContain(ADDED);
    expect(changelog("spec")).not.toContain(ADDED);
  });

  it("bumps the client, keeps the ranges that name a package equal to its new version, and updates the lockfile", () => {
    const client = manifest(copy, "client");
    expect(client.version).not.toBe(before.client);
    const lock = JSON.parse(readFileSync(join(copy, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
    for (const pkg of PUBLISHED) expect(lock.packages[`packages/${pkg}`]?.version).toBe(manifest(copy, pkg).version);
    expect(manifest(copy, "server").dependencies?.["@intake/spec"]).toBe(manifest(copy, "spec").version);
    expect(
      JSON.parse(readFileSync(join(copy, "examples", "client-quickstart", "package.json"), "utf8")).dependencies["@intake/client"],
    ).toBe(client.version);
  });

  it("consumes the changesets", () => {
    expect(readdirSync(join(copy, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md")).toEqual([]);
  });
});
