// What check-packages.mjs asks of each packed package.json, and the packages' prepack that keeps
// the development condition out of what npm publishes.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script, without declarations
import { packedManifestProblems } from "../packed-manifest.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const check = packedManifestProblems as (tarball: string) => string[];
const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

function folder() {
  const made = mkdtempSync(join(tmpdir(), "intake-packed-manifest-"));
  folders.push(made);
  return made;
}

/** A tarball laid out as npm packs one: this manifest and these files under package/. */
function tarball(manifest: object, files: string[]) {
  const dir = folder();
  mkdirSync(join(dir, "package"));
  writeFileSync(join(dir, "package", "package.json"), JSON.stringify({ name: "@intake/example", ...manifest }));
  for (const file of files) {
    mkdirSync(join(dir, "package", file, ".."), { recursive: true });
    writeFileSync(join(dir, "package", file), "");
  }
  execFileSync("tar", ["-czf", join(dir, "example.tgz"), "-C", dir, "package"]);
  return join(dir, "example.tgz");
}

const built = ["dist/index.js", "dist/index.cjs", "dist/index.d.ts"];

describe("a packed package.json", () => {
  it("passes when every entry point it names is in the tarball", () => {
    const manifest = {
      main: "./dist/index.cjs",
      types: "./dist/index.d.ts",
      exports: {
        ".": { types: "./dist/index.d.ts", import: "./dist/index.js", require: "./dist/index.cjs" },
        "./package.json": "./package.json",
      },
    };
    expect(check(tarball(manifest, built))).toEqual([]);
  });

  it("fails naming a development condition, and the source file it points at that the tarball lacks", () => {
    const manifest = { exports: { ".": { "@intake/source": "./src/index.ts", import: "./dist/index.js" } } };
    const problems = check(tarball(manifest, built));
    expect(problems.join("\n")).toMatch(/development condition @intake\/source/);
    expect(problems.join("\n")).toMatch(/names src\/index\.ts, which the tarball does not hold/);
  });

  it("fails naming a file of main, bin or typesVersions the tarball lacks", () => {
    const manifest = {
      main: "./dist/main.cjs",
      bin: { example: "dist/cli.js" },
      typesVersions: { "*": { webhooks: ["./dist/webhooks.d.ts"] } },
    };
    expect(check(tarball(manifest, built))).toEqual([
      expect.stringMatching(/dist\/main\.cjs, dist\/cli\.js, dist\/webhooks\.d\.ts, which the tarball does not hold/),
    ]);
  });
});

describe("npm pack of a workspace package", () => {
  it("publishes its exports without the development condition, and leaves the repository's package.json as it was", () => {
    const before = readFileSync(join(root, "packages/client/package.json"), "utf8");
    expect(before).toContain("@intake/source");
    const out = folder();
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--silent", "--json", "--pack-destination", out, "-w", "@intake/client"], {
        cwd: root,
        encoding: "utf8",
      }),
    ) as Array<{ filename: string }>;
    expect(check(join(out, packed!.filename))).toEqual([]);
    expect(readFileSync(join(root, "packages/client/package.json"), "utf8")).toBe(before);
  });
});
