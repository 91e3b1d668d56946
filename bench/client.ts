/**
 * The client's cost: per call against a raw `fetch` of the same request to the same server,
 * bundle size (min+gzip) and import time.
 *
 * - Per call: the Intake core behind node:http in its own process (plain HTTP on 127.0.0.1,
 *   so the round trip is as short as it gets and the client's share shows at its largest);
 *   calls one after another, in alternating batches; medians. Target: under 10% over raw fetch.
 * - Bundle: packages/client/scripts/size.mjs (esbuild, minified, gzip -9, openapi-fetch
 *   included). Target: under 12 kB.
 * - Import time: a fresh node process per sample, `await import()` timed inside it, the
 *   client and openapi-fetch alone taking turns.
 *
 * Run: npm run bench:client   (writes bench/results/client.{md,json}; ROUNDS, BATCH to change)
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createIntakeClient } from "@intake/client";
import { median } from "./support/load.js";
import { fmt, machine, verdict, writeReport } from "./support/report.js";
import { BENCH_KEY, benchPhone } from "./support/seed.js";
import { startTarget } from "./support/targets.js";

const run = promisify(execFile);
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const BATCH = Number(process.env.BATCH ?? 500);
const IMPORTS = Number(process.env.IMPORTS ?? 15);
const STORED = 1_000;

const target = await startTarget("core-http", { contacts: STORED });
const client = createIntakeClient({ auth: "query", apiKey: BENCH_KEY, baseUrl: target.base, allowInsecureLoopback: true, maxRetries: 0 });
let sequence = 0;

type Call = () => Promise<unknown>;
const json = async (response: Response) => {
  if (!response.ok) throw new Error(`raw fetch answered ${response.status}`);
  return response.json();
};
const calls: Record<string, { client: Call; raw: Call }> = {
  "look up a contact": {
    client: () => client.contacts.find({ phoneNumber: benchPhone(sequence++ % STORED) }),
    raw: () => fetch(`${target.base}/contacts?apiKey=${BENCH_KEY}&phoneNumber=${encodeURIComponent(benchPhone(sequence++ % STORED))}`).then(json),
  },
  "create a contact": {
    client: () => client.contacts.create({ phone: `+1${3_000_000_000 + sequence++}`, firstName: "Lead" }),
    raw: () =>
      fetch(`${target.base}/contacts?apiKey=${BENCH_KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone: `+1${3_000_000_000 + sequence++}`, firstName: "Lead" }),
      }).then(json),
  },
};

async function batch(call: Call): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < BATCH; i++) await call();
  return ((performance.now() - started) * 1000) / BATCH;
}

const samples: Record<string, { client: number[]; raw: number[] }> = {};
try {
  for (const [name, sides] of Object.entries(calls)) {
    await batch(sides.client);
    await batch(sides.raw);
    samples[name] = { client: [], raw: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 ? (["raw", "client"] as const) : (["client", "raw"] as const)) samples[name]![side].push(await batch(sides[side]));
    }
    console.log(`${name}: client ${fmt(median(samples[name]!.client), 1)} µs, raw fetch ${fmt(median(samples[name]!.raw), 1)} µs`);
  }
} finally {
  await target.stop();
}

/** Milliseconds `await import(specifier)` takes in a fresh process. */
async function importTime(specifier: string): Promise<number> {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code]);
  return Number(stdout);
}
const imports: Record<string, number[]> = { "@intake/client": [], "openapi-fetch": [] };
for (let round = 0; round < IMPORTS; round++) {
  for (const specifier of Object.keys(imports)) imports[specifier]!.push(await importTime(specifier));
}

const sizeLine = (await run(process.execPath, ["packages/client/scripts/size.mjs"])).stdout.trim();
const bundleKb = Number(/([\d.]+) kB min\+gzip/.exec(sizeLine)?.[1]);

const rows = Object.entries(samples).map(([name, { client: ours, raw }]) => {
  const overhead = median(ours) / median(raw) - 1;
  return { what: name, clientMicroseconds: median(ours), rawMicroseconds: median(raw), overhead, met: overhead < 0.1 };
});
const importMs = Object.fromEntries(Object.entries(imports).map(([k, v]) => [k, median(v)]));
const checks = [
  ...rows.map((r) => ({ what: `client, ${r.what}: overhead over raw fetch`, value: `${(r.overhead * 100).toFixed(1)}%`, target: "< 10%", met: r.met })),
  { what: "client bundle, min+gzip with openapi-fetch", value: `${bundleKb} kB`, target: "< 12 kB", met: bundleKb < 12 },
];
const markdown = `# The client: per-call overhead, bundle size, import time

${machine()}.

## Per call, against a raw fetch

The Intake core behind node:http in its own process (plain HTTP on 127.0.0.1: the shortest round trip,
where the client's share is largest), ${fmt(STORED)} contacts stored. Each side makes the same request: the
client through \`contacts.find\` / \`contacts.create\` (auth "query", retries off), the raw side with
\`fetch\` and \`response.json()\`. ${ROUNDS} rounds of ${fmt(BATCH)} calls one after another per side, taking turns;
medians.

| Call | Client, µs | Raw fetch, µs | Overhead | Target | |
|---|---:|---:|---:|---:|---|
${rows.map((r) => `| ${r.what} | ${fmt(r.clientMicroseconds, 1)} | ${fmt(r.rawMicroseconds, 1)} | ${(r.overhead * 100).toFixed(1)}% | < 10% | ${verdict(r.met)} |`).join("\n")}

What the client adds per call: openapi-fetch building its Request and reading the response, the
transport placing the key and sending the attempt with its own AbortController and timer, and the
body buffered into a new Response so the timeout covers it. On Node 20 every Request and
AbortSignal costs the caller tens of microseconds (undici's, \`makeTransferable\`), and a raw fetch
round trip itself costs the calling process about 260 µs of CPU: see bench/README.md for the
profile and what was changed.

## Bundle

${sizeLine}. Target: under 12 kB (${verdict(bundleKb < 12)}).

## Import time

A fresh node process per sample, \`await import()\` timed inside it; ${IMPORTS} samples each, taking turns; medians.

| Module | ms to import |
|---|---:|
${Object.entries(importMs).map(([k, v]) => `| ${k} (dist) | ${fmt(v, 1)} |`).join("\n")}

The client's own modules cost the difference between the two rows; it has no other runtime
dependency.

Reproduce: \`npm run bench:client\` (raw figures in client.json).
`;
await writeReport("client", markdown, { machine: machine(), rounds: ROUNDS, batch: BATCH, rows, bundle: sizeLine, importMs, imports, checks, samples });
