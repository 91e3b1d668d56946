#!/usr/bin/env node
/**
 * The Worker's bundle (dist/worker.js, `npm run build`) in workerd through Miniflare, as
 * wrangler.toml configures it: its Durable Objects on SQLite, persisted to a folder, on 127.0.0.1
 * over HTTPS. For the tests and bench:workers, which start it as a child process (so a test can
 * kill workerd as a crash would). Prints one JSON line once it serves: `{ "url": "https://..." }`.
 *
 *   node scripts/serve-local.mjs --cert FILE --key FILE --operator-token TOKEN [--persist DIR] [--port N]
 *     [--var NAME=VALUE ...] [--inspector-port N]
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { values } = parseArgs({
  options: {
    cert: { type: "string" },
    key: { type: "string" },
    "operator-token": { type: "string" },
    persist: { type: "string" },
    port: { type: "string", default: "0" },
    "inspector-port": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
  },
});
const bundle = here("../dist/worker.js");
if (!existsSync(bundle)) throw new Error("No dist/worker.js: build it first (npm run build -w @intake/worker).");
if (!values.cert || !values.key || !values["operator-token"]) throw new Error("Give --cert, --key and --operator-token.");

const { workerOptions } = unstable_getMiniflareWorkerOptions(here("../wrangler.toml"));
const worker = new Miniflare({
  ...workerOptions,
  modules: [{ type: "ESModule", path: bundle }],
  modulesRoot: here("../dist"),
  bindings: {
    ...workerOptions.bindings,
    ...Object.fromEntries(values.var.map((pair) => pair.split(/=(.*)/s).slice(0, 2))),
    OPERATOR_TOKEN: values["operator-token"],
  },
  ...(values.persist ? { durableObjectsPersist: values.persist } : {}),
  host: "127.0.0.1",
  port: Number(values.port),
  https: true,
  httpsCert: readFileSync(values.cert, "utf8"),
  httpsKey: readFileSync(values.key, "utf8"),
  ...(values["inspector-port"] ? { inspectorPort: Number(values["inspector-port"]) } : {}),
});
const url = await worker.ready;
process.stdout.write(`${JSON.stringify({ url: url.origin })}\n`);
const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
