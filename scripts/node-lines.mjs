// The Node lines tested besides the machine's own, installed from the npm registry (the node
// binaries npm publishes as node-<platform>-<arch>), each into a folder of its own under
// .cache/node-lines/ (gitignored), kept there for the next run.
//
//   node scripts/node-lines.mjs            installs the lines missing; prints each line's binary
//   import { nodeLines } from "./node-lines.mjs"   the same, for a script
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The lines tested besides the machine's: every line in its support window (bench/start.ts and scripts/test-node-lines.mjs). */
export const LINES = [22, 24, 26];

const cache = fileURLToPath(new URL("../.cache/node-lines/", import.meta.url));
const binaryPackage = `node-${process.platform}-${process.arch}`;

/** The node binary of `line` (a major version), installed first when it is not in the cache. */
export function nodeLine(line) {
  const dir = `${cache}${line}/`;
  const binary = `${dir}node_modules/${binaryPackage}/bin/node`;
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(
      npm,
      ["install", "--prefix", dir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", `${binaryPackage}@${line}`],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (!existsSync(binary)) throw new Error(`${binaryPackage}@${line} installed no ${binary}`);
  }
  return binary;
}

/** Each line's binary and exact version, the machine's own first. */
export function nodeLines(lines = LINES) {
  const own = { line: Number(process.versions.node.split(".")[0]), node: process.execPath, version: process.version };
  return [
    own,
    ...lines
      .filter((line) => line !== own.line)
      .map((line) => {
        const node = nodeLine(line);
        return { line, node, version: execFileSync(node, ["--version"], { encoding: "utf8" }).trim() };
      }),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { line, node, version } of nodeLines()) console.log(`${line}\t${version}\t${node}`);
}
