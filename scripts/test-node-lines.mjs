// `npm test`'s run on the Node lines besides the machine's (scripts/node-lines.mjs installs them
// from the npm registry). After `npm run build`, on each line: the client's suite in Node, the
// server's HTTPS and msw suites, the built CLI's `--demo` start, and the packed tarballs installed
// into a new project (packed once a build, shared with check:packages) with better-sqlite3 built
// from source for that line (g++ and the headers the node package ships), where `--data-file`
// keeps the demo's accounts across a restart. Where msw 3 runs (Node 22.12+), the server's msw suites
// and the ci-suite example again with msw 3 as the peer (installed from the registry into
// .cache/msw3/, the workspace's msw 2 left as it is; scripts/msw3.vitest.config.ts).
// The packed installs (better-sqlite3's build keeps one core busy) run beside the suites rather than after them.
//
//   node scripts/test-node-lines.mjs [line...]     default: every line in node-lines.mjs
import { execFile as execFileCallback, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { LINES, nodeLines } from "./node-lines.mjs";
import { packedBuild } from "./pack-local.mjs";
import { writePackedProject } from "./packed-project.mjs";
import semver from "semver";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The suites run on each line, with a test-name filter where a file holds more than Node's part. */
const SUITES = [
  ["packages/client/test/runtimes.test.ts", "-t", "^Node "],
  ["packages/server/test/adapters/https.test.ts"],
  ["packages/server/test/adapters/msw.test.ts", "packages/server/test/adapters/msw-engine.test.ts"],
];

/** msw 3, in a folder of its own; the Node it needs (its engines) and the suites run with it. */
const MSW3 = { spec: "msw@3", node: ">=22.12.0", dir: join(root, ".cache/msw3/") };
const MSW3_SUITES = [
  ["--project", "unit", "packages/server/test/adapters/msw.test.ts", "packages/server/test/adapters/msw-engine.test.ts"],
  ["--project", "example-ci-suite"],
];

const execFile = promisify(execFileCallback);
const asked = process.argv.slice(2).map(Number);
const lines = nodeLines(asked.length ? asked : LINES).filter(({ node }) => node !== process.execPath);
const failures = [];
const tarballs = packedBuild();

/** Runs `work` (async), then says how long it took, or records it as failed with its output. */
async function step(version, what, work) {
  const started = performance.now();
  try {
    await work();
    console.log(`Node ${version}: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failures.push(`Node ${version}: ${what}`);
    console.error(`Node ${version}: ${what} FAILED\n${error.stdout ?? ""}${error.stderr ?? ""}${error.message}`);
  }
}

// The packed installs all at once, beside the suites below: a build of better-sqlite3 keeps one core busy for a minute or more.
const installed = lines.map(({ line, node, version }) =>
  step(
    version,
    "the packed tarballs install; better-sqlite3 built from source; --data-file keeps the demo's accounts across a restart",
    () => packedInstall(line, node),
  ),
);

for (const [i, { node, version }] of lines.entries()) {
  for (const suite of SUITES) {
    await step(version, `vitest ${suite.filter((a) => a.endsWith(".ts")).join(", ")}`, () =>
      execFile(node, ["node_modules/vitest/vitest.mjs", "run", "--project", "unit", ...suite], { cwd: root, maxBuffer: 64 << 20 }),
    );
  }
  if (semver.satisfies(version, MSW3.node)) {
    for (const suite of MSW3_SUITES) {
      await step(version, `with msw 3: vitest ${suite.filter((a) => !a.startsWith("--")).join(", ")}`, () =>
        execFile(node, ["node_modules/vitest/vitest.mjs", "run", "--config", "scripts/msw3.vitest.config.ts", ...suite], {
          cwd: root,
          maxBuffer: 64 << 20,
          env: { ...process.env, MSW_DIR: msw3() },
        }),
      );
    }
  }
  await step(version, "the built CLI starts with --demo", () =>
    readyLine(node, [join(root, "packages/server/dist/cli.js"), "--demo", "--port", "0"], root),
  );
  await installed[i];
}

if (failures.length) {
  console.error(`\nFailed on the Node lines:\n${failures.map((f) => `  ${f}`).join("\n")}`);
  process.exit(1);
}

/** The folder of msw 3's package, installed into .cache/msw3/ on first use. */
function msw3() {
  const dir = join(MSW3.dir, "node_modules/msw");
  if (!existsSync(join(dir, "package.json"))) {
    mkdirSync(MSW3.dir, { recursive: true });
    execFileSync(
      "npm",
      ["install", "--prefix", MSW3.dir, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts", MSW3.spec],
      { stdio: "pipe" },
    );
  }
  return dir;
}

/**
 * Spawns node with `args` in `cwd` until it writes its JSON listening line, asks it for its
 * accounts (GET /__admin/accounts), then stops it with SIGTERM (so a data file is saved); the
 * listening line, parsed, with `accounts`: how many it listed. Throws with stderr if it exits first.
 */
async function readyLine(node, args, cwd, env = {}) {
  const script = `
    const { spawn } = require("node:child_process");
    const child = spawn(${JSON.stringify(node)}, ${JSON.stringify(args)}, { cwd: ${JSON.stringify(cwd)}, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...${JSON.stringify(env)} } });
    let out = "", err = "", listening;
    child.stderr.on("data", (c) => (err += c));
    child.stdout.on("data", (c) => {
      out += c;
      if (listening || !out.includes("\\n")) return;
      listening = JSON.parse(out.split("\\n")[0]);
      const headers = { authorization: "Bearer " + listening.adminToken };
      require("node:https").get(listening.adminUrl + "/accounts", { headers, rejectUnauthorized: false }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => { listening.accounts = JSON.parse(body).length; child.kill("SIGTERM"); });
      }).on("error", (e) => { err += e.message; child.kill("SIGKILL"); });
    });
    child.on("exit", (code, signal) => {
      if (listening?.accounts === undefined) { process.stderr.write("exited " + (code ?? signal) + " before it listened and answered:\\n" + err); process.exit(1); }
      process.stdout.write(JSON.stringify(listening));
    });
    setTimeout(() => { process.stderr.write("no answer within 120 s:\\n" + err); child.kill("SIGKILL"); process.exit(1); }, 120000).unref();
  `;
  const { stdout } = await execFile(process.execPath, ["-e", script]);
  return JSON.parse(stdout);
}

/** The packed project, installed offline; better-sqlite3 built for `node`; the demo's accounts, saved by one start, found by the next. */
async function packedInstall(line, node) {
  const project = mkdtempSync(join(tmpdir(), `intake-node${line}-`));
  try {
    writePackedProject(project, tarballs, { devDependencies: ["better-sqlite3"] });
    await execFile("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: project });
    // node-gyp builds against the line's own headers (the node package ships them), never a download.
    const env = {
      ...process.env,
      PATH: `${dirname(node)}:${process.env.PATH}`,
      npm_config_nodedir: dirname(dirname(node)),
      npm_config_build_from_source: "true",
    };
    await execFile("npm", ["rebuild", "better-sqlite3", "--offline", "--foreground-scripts"], { cwd: project, env, maxBuffer: 64 << 20 });
    const cli = join(project, "node_modules/@intake/server/dist/cli.js");
    const data = join(project, "intake.db");
    const certs = { INTAKE_CERT_DIR: join(project, "certs") };
    const first = await readyLine(node, [cli, "--demo", "--port", "0", "--data-file", data], project, certs);
    if (first.dataFile !== data) throw new Error(`the listening line names data file ${first.dataFile}`);
    // Started without --demo, the server holds the demo's accounts only if the file kept them.
    const second = await readyLine(node, [cli, "--port", "0", "--data-file", data], project, certs);
    if (first.accounts === 0 || second.accounts !== first.accounts)
      throw new Error(`the demo's ${first.accounts} account(s) came back as ${second.accounts} after a restart from ${data}`);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
