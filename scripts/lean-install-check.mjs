// Run by check-packages.mjs in a project that installed the packed tarballs and its own msw, and
// neither better-sqlite3 nor openai (optional peer dependencies of @intake/server): nothing native
// is installed, the one msw is the project's and recognises the handlers, an in-memory server runs,
// a data file says what to install, or to rebuild where better-sqlite3 is there but cannot load,
// and so does a model.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setupServer } from "msw/node";
import { createIntakeClient } from "@intake/client";
import { createIntakeHandlers } from "@intake/server/msw";
import { createIntake } from "@intake/server";
import { createModelBot, DEMO_KEYS, DEMO_SEED, openDataFile } from "@intake/server/node";
import { startIntakeServer } from "@intake/server/testing";

const INSTALL = "needs better-sqlite3, which is not installed: npm install better-sqlite3@^12";

/** Every installed package: its folder and manifest, nested node_modules included. */
function installed(folder = ".") {
  const found = [];
  const modules = join(folder, "node_modules");
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@") ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry];
    for (const name of names) {
      const dir = join(modules, name);
      if (!existsSync(join(dir, "package.json"))) continue;
      found.push({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) });
      found.push(...installed(dir));
    }
  }
  return found;
}

const tree = installed();
// A package npm would compile: a binding.gyp (npm runs node-gyp for it) or an install script that builds.
const native = tree.filter(
  ({ dir, manifest }) =>
    existsSync(join(dir, "binding.gyp")) ||
    manifest.gypfile ||
    /node-gyp|prebuild|cmake/.test(Object.values(manifest.scripts ?? {}).join(" ")),
);
if (native.length) throw new Error(`native modules installed: ${native.map(({ dir }) => dir).join(", ")}`);
const msws = tree.filter(({ manifest }) => manifest.name === "msw");
if (msws.length !== 1 || msws[0].dir !== join("node_modules", "msw"))
  throw new Error(`one msw, the project's, expected; found ${msws.map(({ dir }) => dir).join(", ") || "none"}`);

// The project's msw intercepts with the handlers.
const msw = createIntakeHandlers({ seed: DEMO_SEED });
const mocked = setupServer(...msw.handlers);
mocked.listen({ onUnhandledRequest: "error" });
let answered;
try {
  const client = createIntakeClient({ auth: "query", apiKey: DEMO_KEYS.business, baseUrl: msw.baseUrl });
  answered = await client.contacts.create({ phone: "+14155550124", firstName: "Grace" });
} finally {
  mocked.close();
  await msw.intake.close();
}

// The in-memory HTTPS server.
const server = await startIntakeServer({ seed: DEMO_SEED });
let served;
try {
  const client = createIntakeClient({ auth: "query", apiKey: DEMO_KEYS.business, baseUrl: server.baseUrl, fetch: server.fetch });
  served = await client.contacts.create({ phone: "+14155550125", firstName: "Alan" });
} finally {
  await server.stop();
}

// A data file: in code a thrown error, from the CLI exit code 2; neither creates the file.
let thrown;
try {
  openDataFile("in-code.db");
} catch (error) {
  thrown = error;
}
if (!thrown?.message.startsWith(`openDataFile ${INSTALL}`) || existsSync("in-code.db"))
  throw new Error(`openDataFile without better-sqlite3: ${thrown?.message ?? "no error"}`);
const cli = spawnSync("npx", ["--offline", "intake-server", "--data-file", "from-cli.db"], { encoding: "utf8", timeout: 60_000 });
if (cli.status !== 2 || !cli.stderr.startsWith(`intake-server: --data-file ${INSTALL}`) || existsSync("from-cli.db")) {
  throw new Error(`intake-server --data-file without better-sqlite3 exited ${cli.status}: ${cli.stderr}`);
}
// A model without openai: the CLI exits 2 at start saying what to install; in code, the message's
// bot outcome says it, and nothing is asked.
if (tree.some(({ manifest }) => manifest.name === "openai"))
  throw new Error("openai is installed: an optional peer dependency, it should not be");
const OPENAI = "--model needs openai, which is not installed: npm install openai@^6";
const model = spawnSync("npx", ["--offline", "intake-server", "--port", "0", "--model", "gpt-4o-mini", "--model-key", "sk-none"], {
  encoding: "utf8",
  timeout: 60_000,
});
if (model.status !== 2 || !model.stderr.startsWith(`intake-server: ${OPENAI}`))
  throw new Error(`intake-server --model without openai exited ${model.status}: ${model.stderr}`);
const modelled = createIntake({
  seed: DEMO_SEED,
  bot: createModelBot({ model: "gpt-4o-mini", apiKey: "sk-none", baseUrl: "http://127.0.0.1:9/v1" }),
});
let botError;
try {
  const received = await modelled.fetch(
    new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${DEMO_KEYS.business}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customData: { messageSid: "SM-lean", fromId: "lean.user", toId: "acme", body: "Hello" } }),
    }),
  );
  const { messageId } = await received.json();
  await modelled.admin.settle();
  const message = await modelled.admin.message(messageId);
  botError = message.bot?.error;
  if (
    message.botOutcome !== "bot_unconfigured" ||
    !botError?.startsWith("The model bot needs openai, which is not installed: npm install openai@^6")
  ) {
    throw new Error(`a model bot without openai: ${message.botOutcome}, ${botError}`);
  }
} finally {
  await modelled.close();
}

// npm's own view of the tree: no missing or invalid dependency, the optional peers left out.
const ls = spawnSync("npm", ["ls", "--all", "--offline"], { encoding: "utf8" });
if (ls.status !== 0) throw new Error(`npm ls finds the tree wrong: ${ls.stdout}${ls.stderr}`);

// better-sqlite3 installed but its native module unloadable, as its constructor then throws:
// installed with --ignore-scripts (no binary), or built for another Node version (its first line said).
const unloadable = [
  {
    thrown: "Could not locate the bindings file. Tried:\n → /project/node_modules/better-sqlite3/build/better_sqlite3.node",
    reason: "its binary is missing",
  },
  {
    thrown: "The module '/project/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127.",
    reason: "The module '/project/better_sqlite3.node'",
  },
];
mkdirSync(join("node_modules", "better-sqlite3"));
writeFileSync(
  join("node_modules", "better-sqlite3", "package.json"),
  JSON.stringify({ name: "better-sqlite3", version: "12.0.0", main: "index.js" }),
);
for (const { thrown, reason } of unloadable) {
  writeFileSync(
    join("node_modules", "better-sqlite3", "index.js"),
    `module.exports = class { constructor() { throw new Error(${JSON.stringify(thrown)}); } };`,
  );
  const run = spawnSync("npx", ["--offline", "intake-server", "--data-file", "unloadable.db"], { encoding: "utf8", timeout: 60_000 });
  const said = `intake-server: --data-file needs better-sqlite3, which is installed but cannot load its native module (${reason}): npm rebuild better-sqlite3`;
  if (run.status !== 2 || !run.stderr.startsWith(said) || existsSync("unloadable.db"))
    throw new Error(`intake-server --data-file with an unloadable better-sqlite3 (${reason}) exited ${run.status}: ${run.stderr}`);
}
rmSync(join("node_modules", "better-sqlite3"), { recursive: true });

console.log(
  `without better-sqlite3 (${tree.length} packages, none native): msw ${msws[0].manifest.version} (the project's, the only copy) ran the handlers (contact ${answered.id}), startIntakeServer served a client (contact ${served.id}), and --data-file exits 2 with "${cli.stderr.trim()}", or, with a better-sqlite3 that cannot load, says to rebuild it; without openai, --model exits 2 with "${model.stderr.trim()}" and a model bot in code answers "${botError}"`,
);
