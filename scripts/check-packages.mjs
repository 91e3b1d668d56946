// After `npm run build`: each published package passes publint, loads through both `import` and
// `require` from its dist (not the TypeScript sources), exposes the same names both ways, and
// works both ways (a build can load and still fail on its first call, as a CommonJS build once did).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dirOf, PACKAGES as packages, packedBuild } from "./pack-local.mjs";
import { packedManifestProblems } from "./packed-manifest.mjs";
import { writePackedProject } from "./packed-project.mjs";

const require = createRequire(import.meta.url);
let failed = false;

/** A first call through each package's main entry; throws when the package does not work. */
const works = {
  "@intake/spec": async ({ document }) => {
    if (!document?.paths?.["/contacts"]) throw new Error("document has no /contacts path");
  },
  "@intake/client": async ({ createIntakeClient }) => {
    const contact = {
      id: "ct_1",
      firstName: null,
      lastName: null,
      phone: "+14155550100",
      email: null,
      customFields: {},
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    const client = createIntakeClient({
      auth: "query",
      apiKey: "ik_check",
      baseUrl: "https://api.example.test/v1",
      fetch: async () => Response.json({ success: true, contactId: contact.id, contact }),
    });
    const found = await client.contacts.find({ phoneNumber: contact.phone });
    if (found?.id !== contact.id) throw new Error(`contacts.find answered ${JSON.stringify(found)}`);
    const raw = await client.raw.GET("/contacts", { params: { query: { phoneNumber: contact.phone } } });
    if (raw.data?.contactId !== contact.id) throw new Error(`raw.GET answered ${JSON.stringify(raw.data)}`);
  },
  "@intake/server": async ({ createIntake }) => {
    const intake = createIntake();
    try {
      const response = await intake.fetch(new Request("https://127.0.0.1/v1/contacts"));
      if (response.status !== 401) throw new Error(`a request without a key answered ${response.status}`);
    } finally {
      await intake.close();
    }
  },
};

for (const name of packages) {
  const dir = dirOf(name);
  try {
    execFileSync(process.execPath, ["node_modules/publint/src/cli.js", dir, "--strict"], { stdio: "pipe" });
  } catch (error) {
    failed = true;
    console.error(`${name}: publint failed\n${error.stdout}${error.stderr}`);
    continue;
  }
  const ways = { import: await import(name), require: require(name) };
  const esm = Object.keys(ways.import).sort();
  const cjs = Object.keys(ways.require)
    .filter((key) => key !== "__esModule")
    .sort();
  if (esm.length === 0 || JSON.stringify(esm) !== JSON.stringify(cjs)) {
    failed = true;
    console.error(`${name}: ESM exports [${esm}] differ from CJS exports [${cjs}]`);
    continue;
  }
  let working = true;
  for (const [way, module] of Object.entries(ways)) {
    try {
      await works[name](module);
    } catch (error) {
      working = false;
      console.error(`${name}: loads through ${way} but does not work: ${error?.message ?? error}`);
    }
  }
  if (working) console.log(`${name}: publint ok; ${esm.length} exports via import and require, a first call works both ways`);
  else failed = true;
}
// The types each entry point resolves to, for every way TypeScript resolves modules (node10,
// node16 from CommonJS and from ES modules, bundler), packed as npm would publish it. The YAML
// documents are data, not modules. The server is ES modules only: Node 20.19+ (its engines)
// requires it, and so does TypeScript in its nodenext (5.8+) and node20 (5.9+) modes; CommonJS code
// checked with module node16 or node18 must import() it (the server README says so).
const typesOptions = {
  "@intake/spec": ["--exclude-entrypoints", "./openapi.yaml"],
  "@intake/client": [],
  "@intake/server": ["--exclude-entrypoints", "./admin-openapi.yaml", "--ignore-rules", "cjs-resolves-to-esm"],
};
for (const name of packages) {
  const dir = dirOf(name);
  const options = typesOptions[name];
  try {
    execFileSync(
      process.execPath,
      [
        "node_modules/@arethetypeswrong/cli/dist/index.js",
        "--pack",
        dir,
        "--format",
        "table-flipped",
        "--no-emoji",
        "--no-color",
        ...options,
      ],
      { stdio: "pipe" },
    );
    console.log(
      `${name}: types resolve for its entry points in node10, node16 (CJS and ESM) and bundler resolution${options.length ? ` (${options.join(" ")})` : ""}`,
    );
  } catch (error) {
    failed = true;
    console.error(`${name}: arethetypeswrong found problems\n${error.stdout}${error.stderr}`);
  }
}
// Every package a build imports is one it declares (in the workspace, an undeclared one still
// resolves, hoisted beside another's, and only an integrator's fresh install would fail), and each
// package ships the license text.
const builtins = new Set(builtinModules);
const license = readFileSync("LICENSE", "utf8");
for (const name of packages) {
  const dir = dirOf(name);
  const manifest = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
  const declared = new Set([name, ...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
  const undeclared = new Set();
  for (const file of readdirSync(`${dir}/dist`, { recursive: true }).filter((f) => /\.(c|m)?js$/.test(f))) {
    // Doc comments dropped first: a bundled library's (graphql's, in the server's) show imports in their examples.
    const code = readFileSync(`${dir}/dist/${file}`, "utf8").replace(/\/\*\*[\s\S]*?\*\//g, "");
    // from "x", import "x", import("x"), require("x") and esbuild's __require("x"), where x is a
    // package name (relative paths, #imports and node: or data: URLs are not).
    for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|(?:\b|__)require\s*\(\s*)["']([\w@~][\w@~./-]*)["']/g)) {
      const pkg = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
      if (!builtins.has(specifier) && !builtins.has(pkg) && !declared.has(pkg)) undeclared.add(`${pkg} (${file})`);
    }
  }
  // npm packs a package's own LICENSE whatever `files` says; the MIT terms need the text shipped.
  let copy = "";
  try {
    copy = readFileSync(`${dir}/LICENSE`, "utf8");
  } catch {
    // reported below
  }
  if (copy !== license) {
    failed = true;
    console.error(`${name}: ${dir}/LICENSE is missing or differs from the repository's LICENSE: copy it there.`);
  }
  if (undeclared.size) {
    failed = true;
    console.error(
      `${name}: its build imports packages it does not declare in dependencies or peerDependencies: ${[...undeclared].join(", ")}`,
    );
  } else {
    console.log(`${name}: every package its build imports is declared`);
  }
}
// Subpath entries load from dist too, each with what it is for.
const subpaths = {
  "@intake/client/webhooks": ["verifyWebhook", "WebhookVerificationError"],
  "@intake/server/node": ["serve", "DEMO_SEED"],
  "@intake/server/msw": ["createIntakeHandlers"],
  "@intake/server/testing": ["startIntakeServer", "connectIntake"],
  "@intake/server/connect": ["connectIntake", "trustingFetch", "createAdminClient"],
  "@intake/server/admin-client": ["createAdminClient", "AdminApiError", "unwrap"],
};
for (const [name, expected] of Object.entries(subpaths)) {
  const loaded = await import(name);
  const missing = expected.filter((key) => !(key in loaded));
  if (missing.length) {
    failed = true;
    console.error(`${name}: missing ${missing.join(", ")}`);
  } else {
    console.log(`${name}: loads from dist with ${expected.join(", ")}`);
  }
}
// Each manifest points at the repository (its page on the registry links there), and each README's
// links are absolute: the registry shows the README without the repository around it.
for (const name of packages) {
  const dir = dirOf(name);
  const manifest = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
  const missing = ["repository", "homepage", "bugs"].filter((field) => !manifest[field]);
  const relative = [...readFileSync(`${dir}/README.md`, "utf8").matchAll(/\]\((?!https?:|mailto:|#)([^)]*)\)/g)].map((m) => m[1]);
  if (missing.length || relative.length) {
    failed = true;
    if (missing.length) console.error(`${name}: package.json has no ${missing.join(", ")}`);
    if (relative.length)
      console.error(`${name}: README links that do not work on the registry's page (make them absolute): ${relative.join(", ")}`);
  } else {
    console.log(`${name}: repository, homepage and bugs set; README links absolute`);
  }
}
// Installed as the README says (`npm run pack:local`, then `npm install` of the three tarballs and
// msw), into a project of its own, offline: each tarball's dependencies come from the npm cache,
// pinned to the versions this repository's lockfile has. better-sqlite3 and openai, optional peer
// dependencies, are not installed: lean-install-check.mjs checks what works without them. Install
// scripts are skipped (msw's copies its service worker script into a project that has none).
const project = mkdtempSync(join(tmpdir(), "intake-packed-"));
try {
  const started = performance.now();
  const tarballs = packedBuild();
  // What the tarballs' manifests name: files they hold, and no condition of this repository's own.
  for (const [index, name] of packages.entries()) {
    const problems = packedManifestProblems(tarballs[index]);
    if (problems.length) {
      failed = true;
      console.error(`${name}: packed, ${problems.join("; ")}`);
    } else {
      console.log(`${name}: packed, its package.json names only files the tarball holds and no development condition`);
    }
  }
  writeProject(project, tarballs);
  copyFileSync("scripts/lean-install-check.mjs", join(project, "lean-install.mjs"));
  execFileSync("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: project, stdio: "pipe" });
  const run = (script) =>
    execFileSync(process.execPath, [script], {
      cwd: project,
      encoding: "utf8",
      stdio: "pipe",
      env: { ...process.env, INTAKE_CERT_DIR: join(project, "certs") },
      timeout: 120_000,
    }).trim();
  const out = [run("smoke.mjs"), run("lean-install.mjs")];
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`packed tarballs: install offline into a new project; ${out.join("; ")} (${seconds} s, packing included)`);
} catch (error) {
  failed = true;
  console.error(
    `packed tarballs: not installable or not working when installed: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`,
  );
} finally {
  rmSync(project, { recursive: true, force: true });
}

process.exit(failed ? 1 : 0);

/**
 * A first use of each package in the project: the client and spec through import and require, the
 * CLI as `npx intake-server` starts it, its dashboard's page and script, and a client call to it
 * over HTTPS.
 */
function writeProject(folder, tarballs) {
  writePackedProject(folder, tarballs);
  writeFileSync(
    join(folder, "smoke.mjs"),
    `import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { createIntakeClient } from "@intake/client";
import { document } from "@intake/spec";
import { trustingFetch } from "@intake/server/connect";
const require = createRequire(import.meta.url);
if (typeof require("@intake/client").createIntakeClient !== "function") throw new Error("client: require has no createIntakeClient");
if (!document.paths["/contacts"] || !require("@intake/spec").document.paths["/contacts"]) throw new Error("spec: the document has no /contacts");
// Its own process group: npx does not pass a SIGTERM on to the server it started, the group gets it.
const cli = spawn("npx", ["--offline", "intake-server", "--demo", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"], detached: true });
let stderr = "";
cli.stderr.on("data", (chunk) => (stderr += chunk));
let contact;
try {
  let line = "";
  for await (const chunk of cli.stdout) {
    line += chunk;
    if (line.includes("\\n")) break;
  }
  if (!line.includes("\\n")) throw new Error("intake-server ended before it listened: " + stderr);
  const started = JSON.parse(line.split("\\n")[0]);
  const fetch = trustingFetch(readFileSync(started.certificate, "utf8"));
  const client = createIntakeClient({ auth: "query", apiKey: started.demoKeys.business, baseUrl: started.baseUrl, fetch });
  contact = await client.contacts.create({ phone: "+14155550123", firstName: "Ada" });
  // The dashboard is another workspace's build, copied into the server's: it must be in the tarball.
  const page = await fetch(started.dashboardUrl.split("#")[0]);
  const script = (await page.text()).match(/src="([^"]+[.]js)"/)?.[1];
  const asset = script ? await fetch(started.url + script) : undefined;
  if (page.status !== 200 || !asset?.ok) throw new Error("the dashboard is not served: its page answered " + page.status + (script ? ", its script " + asset.status : " with no script in it"));
  fetch.close();
} finally {
  // Never left running in a folder about to be removed; its output no longer read.
  process.kill(-cli.pid, "SIGTERM");
  cli.stdout.destroy();
  cli.stderr.destroy();
}
await once(cli, "exit");
console.log("npx intake-server --demo started from them, served its dashboard, and a client created contact " + contact.id + " over HTTPS");
`,
  );
}
