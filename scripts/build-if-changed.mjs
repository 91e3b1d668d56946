// `npm start`'s build step: builds (quietly) only when the build's inputs changed since the last
// build, or a package's dist is missing. The inputs are hashed, content not times, so a checkout
// that leaves files as they were does not rebuild; the hash of the last good build is the stamp.
//
//   node scripts/build-if-changed.mjs           build when needed, then write the stamp
//   node scripts/build-if-changed.mjs --stamp   only write the stamp (the root `build` ends with it)
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * What the packages' builds read besides their src/: tsup's configuration, or Vite's and the page
 * for the dashboard; the server's build also copies the dashboard's with a script.
 */
const ROOT_INPUTS = ["openapi.yaml", "package-lock.json", "tsconfig.base.json"];
const PACKAGE_INPUTS = [
  "package.json",
  "tsup.config.ts",
  "vite.config.ts",
  "index.html",
  "tsconfig.json",
  "admin-openapi.yaml",
  "scripts/copy-dashboard.mjs",
  "scripts/third-party-notices.mjs",
];
const STAMP = join("node_modules", ".cache", "intake", "build-stamp");

const packages = existsSync("packages")
  ? readdirSync("packages")
      .map((name) => join("packages", name))
      .filter(
        (folder) =>
          existsSync(join(folder, "package.json")) && JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).scripts?.build,
      )
  : [];

const hash = inputsHash();
if (process.argv.includes("--stamp")) {
  writeStamp(hash);
} else if (!upToDate(hash)) {
  const why = existsSync(STAMP) ? "the sources changed since the last build" : "there is no build yet";
  process.stderr.write(`Building the packages (${why})…\n`);
  const started = Date.now();
  const { code, output } = await run("npm", ["run", "build", "--silent"]);
  if (code !== 0) {
    process.stderr.write(output);
    process.stderr.write(`\nThe build failed (exit code ${code}); its output is above.\n`);
    process.exit(code ?? 1);
  }
  writeStamp(hash);
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}

function upToDate(current) {
  if (!existsSync(STAMP) || readFileSync(STAMP, "utf8").trim() !== current) return false;
  return packages.every((folder) => existsSync(join(folder, "dist")) && readdirSync(join(folder, "dist")).length > 0);
}

function writeStamp(value) {
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(STAMP, `${value}\n`);
}

/** One digest of every input's path and content, in a stable order. */
function inputsHash() {
  const digest = createHash("sha256");
  const files = [
    ...ROOT_INPUTS,
    ...packages.flatMap((folder) => [...PACKAGE_INPUTS.map((name) => join(folder, name)), ...walk(join(folder, "src"))]),
  ].filter((path) => existsSync(path) && statSync(path).isFile());
  for (const path of files.sort()) digest.update(`${path}\0`).update(readFileSync(path)).update("\0");
  return digest.digest("hex");
}

function walk(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

/** Runs a command with its output held back, to show only if it fails. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code) => resolve({ code, output }));
  });
}
