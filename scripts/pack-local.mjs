// `npm run pack:local`: the three packages as the tarballs npm would publish, for installing them
// from this repository until they are on the registry. Packs @intake/spec, @intake/client and
// @intake/server, in that order (each depends on the one before), into a folder, and prints the
// `npm install` line that installs them together.
//
//   node scripts/pack-local.mjs [folder]     default: packed/ at the repository's root
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join, resolve } from "node:path";

export const PACKAGES = ["@intake/spec", "@intake/client", "@intake/server"];
/** A package's folder in this repository: `@intake/client` is `packages/client`. */
export const dirOf = (name) => `packages/${name.split("/")[1]}`;
const root = fileURLToPath(new URL("..", import.meta.url));

/** Packs the packages (already built) into `folder`; the tarballs' paths, in the packages' order. */
export function packLocal(folder) {
  mkdirSync(folder, { recursive: true });
  return PACKAGES.map((name) => {
    const out = execFileSync("npm", ["pack", "--silent", "--json", "--pack-destination", folder, "-w", name], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    return join(folder, JSON.parse(out)[0].filename);
  });
}

/**
 * The tarballs of the packages as built now, packed once a build: kept in .cache/packed/ with the
 * newest time among the builds' files, so the checks after one build (check:packages,
 * check:types-strict, the Node lines' tests) share one packing.
 */
export function packedBuild() {
  const folder = join(root, ".cache", "packed");
  const built = String(Math.max(...PACKAGES.map((name) => newest(join(root, dirOf(name), "dist")))));
  const record = join(folder, "packed.json");
  if (existsSync(record)) {
    const kept = JSON.parse(readFileSync(record, "utf8"));
    if (kept.built === built && kept.tarballs.every((tarball) => existsSync(tarball))) return kept.tarballs;
  }
  rmSync(folder, { recursive: true, force: true });
  const tarballs = packLocal(folder);
  writeFileSync(record, JSON.stringify({ built, tarballs }));
  return tarballs;
}

/** The newest modification time of a file under `folder`. */
function newest(folder) {
  return Math.max(0, ...readdirSync(folder, { recursive: true }).map((file) => statSync(join(folder, file)).mtimeMs));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // A folder given is taken from where the command was typed (npm run starts scripts at the root).
  const folder = process.argv[2] ? resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[2]) : join(root, "packed");
  let tarballs;
  try {
    tarballs = packLocal(folder);
  } catch (error) {
    process.stderr.write(`${error.stderr ?? ""}Packing failed: ${error.message.split("\n")[0]}\n`);
    process.exit(1);
  }
  const shell = (path) => (/[^\w@%+=:,./-]/.test(path) ? `"${path}"` : path);
  process.stdout.write(
    `Packed into ${folder}:\n${tarballs.map((t) => `  ${t}`).join("\n")}\n\n` +
      "Install them in your project, all three in one command (each finds the one it depends on among them):\n" +
      `  npm install ${tarballs.map(shell).join(" ")}\n`,
  );
}
