/**
 * The client's cost: per call against a raw `fetch` of the same request to the same server,
 * bundle size (min+gzip) and import time.
 *
 * - Per call: over plain HTTP to the server as it runs behind a TLS-terminating proxy (the
 *   shortest round trip, where the client's share shows at its largest) and over HTTPS, in their own
 *   processes on 127.0.0.1; calls one after another, the sides taking turns call by call; medians
 *   of the rounds' means. Beside
 *   the raw fetch, a raw fetch with a timeout (a per-call AbortSignal) shows what any call that
 *   can time out pays on Node 20. Reported, with no target.
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
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import { median, permuted, roundRatios } from "./support/load.js";
import { fmt, verdict } from "./support/figures.js";
import { runLine, writeReport } from "./support/report.js";
import { STORED } from "./support/routes.js";
import { BENCH_KEY, benchNewPhone, benchPhone } from "./support/seed.js";
import { startTarget, type Target } from "./support/targets.js";

const run = promisify(execFile);
// A multiple of the sides' six orders, so each comes as often.
const ROUNDS = Number(process.env.ROUNDS ?? 24);
const BATCH = Number(process.env.BATCH ?? 500);
const IMPORTS = Number(process.env.IMPORTS ?? 15);

type Call = () => Promise<unknown>;
type Side = "client" | "raw" | "rawTimeout";
const SIDES: Side[] = ["client", "raw", "rawTimeout"];
/** A value for each side. */
const bySide = <T>(value: (side: Side) => T) => Object.fromEntries(SIDES.map((side) => [side, value(side)])) as Record<Side, T>;
const json = async (response: Response) => {
  if (!response.ok) throw new Error(`raw fetch answered ${response.status}`);
  return response.json();
};
/** A raw fetch as careful code writes it: with a timeout, through a per-call AbortSignal. */
const withTimeout = (url: string, init: RequestInit = {}) => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  return fetch(url, { ...init, signal: controller.signal })
    .then(json)
    .finally(() => clearTimeout(timer));
};

function callsTo(target: Target): Record<string, Record<Side, Call>> {
  const headers = target.headers ?? {};
  const client = createIntakeClient({
    auth: "query",
    apiKey: BENCH_KEY,
    baseUrl: target.base,
    allowInsecureLoopback: true,
    maxRetries: 0,
    headers,
  });
  let sequence = 0;
  const lookupUrl = () => `${target.base}/contacts?apiKey=${BENCH_KEY}&phoneNumber=${encodeURIComponent(benchPhone(sequence++ % STORED))}`;
  const createInit = () => ({
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ phone: benchNewPhone(sequence++), firstName: "Lead" }),
  });
  return {
    "look up a contact": {
      client: () => client.contacts.find({ phoneNumber: benchPhone(sequence++ % STORED) }),
      raw: () => fetch(lookupUrl(), { headers }).then(json),
      rawTimeout: () => withTimeout(lookupUrl(), { headers }),
    },
    "create a contact": {
      client: () => client.contacts.create({ phone: benchNewPhone(sequence++), firstName: "Lead" }),
      raw: () => fetch(`${target.base}/contacts?apiKey=${BENCH_KEY}`, createInit()).then(json),
      rawTimeout: () => withTimeout(`${target.base}/contacts?apiKey=${BENCH_KEY}`, createInit()),
    },
  };
}

/**
 * One round: BATCH calls of each side, the sides taking turns call by call (in the round's order,
 * going through every order of the sides), so a burst of noise on the machine falls on all of them
 * alike, and so does what a call leaves for the next. The mean µs per call of each side.
 */
async function round(sides: Record<Side, Call>, index: number): Promise<Record<Side, number>> {
  const order = permuted(SIDES, index);
  const spent = bySide(() => 0);
  for (let i = 0; i < BATCH; i++) {
    for (const side of order) {
      const started = performance.now();
      await sides[side]();
      spent[side] += performance.now() - started;
    }
  }
  return bySide((side) => (spent[side] * 1000) / BATCH);
}

const TRANSPORTS = [
  { kind: "intake-proxied", transport: "plain HTTP" },
  { kind: "intake-https", transport: "HTTPS" },
] as const;
type Samples = Record<Side, number[]>;
const samples: Record<string, Record<string, Samples>> = {};
const defaultDispatcher = getGlobalDispatcher();
for (const { kind, transport } of TRANSPORTS) {
  const target = await startTarget(kind, { contacts: STORED });
  // Both sides use the global fetch, so both trust the HTTPS target's certificate the same way.
  const agent = target.certificate ? new Agent({ connect: { ca: target.certificate } }) : undefined;
  if (agent) setGlobalDispatcher(agent);
  samples[transport] = {};
  try {
    for (const [name, sides] of Object.entries(callsTo(target))) {
      await round(sides, 0);
      const got = (samples[transport]![name] = bySide((): number[] => []));
      for (let r = 0; r < ROUNDS; r++) {
        const means = await round(sides, r);
        for (const side of SIDES) got[side].push(means[side]);
      }
      console.log(
        `${transport}, ${name}: client ${fmt(median(got.client), 1)} µs, raw fetch ${fmt(median(got.raw), 1)} µs, with a timeout ${fmt(median(got.rawTimeout), 1)} µs`,
      );
    }
  } finally {
    setGlobalDispatcher(defaultDispatcher);
    await agent?.close();
    await target.stop();
  }
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

const size = JSON.parse((await run(process.execPath, ["packages/client/scripts/size.mjs", "--json"])).stdout) as {
  gzipBytes: number;
  budgetBytes: number;
  line: string;
};
const bundleMet = size.gzipBytes < size.budgetBytes;
const budget = `${size.budgetBytes / 1000} kB`;

const percentOf = (share: number) => `${fmt(share * 100, 1)}%`;
const rows = Object.entries(samples).flatMap(([transport, calls]) =>
  Object.entries(calls).map(([name, got]) => {
    const [client, raw, rawTimeout] = [median(got.client), median(got.raw), median(got.rawTimeout)];
    const overhead = client / raw - 1;
    const rounds = roundRatios(got.client, got.raw).map((ratio) => ratio - 1);
    return {
      transport,
      what: name,
      clientMicroseconds: client,
      rawMicroseconds: raw,
      rawTimeoutMicroseconds: rawTimeout,
      overhead,
      overheadOverTimeout: client / rawTimeout - 1,
      rounds: `${percentOf(Math.min(...rounds))} to ${percentOf(Math.max(...rounds))}`,
    };
  }),
);
const importMs = Object.fromEntries(Object.entries(imports).map(([k, v]) => [k, median(v)]));
const checks = [
  {
    what: "client bundle, min+gzip with openapi-fetch",
    value: `${fmt(size.gzipBytes)} B`,
    target: `< ${fmt(size.budgetBytes)} B`,
    met: bundleMet,
  },
];
const markdown = `# The client: per-call overhead, bundle size, import time

${runLine()}.

## Per call, against a raw fetch

Each side makes the same request to the same server, ${fmt(STORED)} contacts stored: the client through
\`contacts.find\` / \`contacts.create\` (auth "query", retries off, no middleware), the raw side with
\`fetch\` and \`response.json()\`, and for reference the raw side again with a 30 s timeout through a
per-call AbortController, as code that must not hang writes it. Plain HTTP goes to the Intake server
as it runs behind a TLS-terminating proxy (\`--trust-proxy\`, X-Forwarded-Proto: https; the shortest
round trip, where the client's share is largest); HTTPS to the Intake server as the CLI runs it. ${ROUNDS} rounds of ${fmt(BATCH)} calls per side, one after
another, the sides taking turns call by call in every order in turn (so noise on the shared machine
falls on all alike, as does what one call leaves for the next: each side follows each other side
as often); the median of the rounds' means per side.

| Transport | Call | Client, µs | Raw fetch, µs | Overhead | Each round | Raw fetch with a timeout, µs |
|---|---|---:|---:|---:|---|---:|
${rows.map((r) => `| ${r.transport} | ${r.what} | ${fmt(r.clientMicroseconds, 1)} | ${fmt(r.rawMicroseconds, 1)} | ${percentOf(r.overhead)} | ${r.rounds} | ${fmt(r.rawTimeoutMicroseconds, 1)} |`).join("\n")}

"Each round" is the overhead of each round's means, the lowest and the highest: how far the noise on
this shared machine carries the figure. There is no target on it: most of a call's time beside the
raw fetch is openapi-fetch's own Request and Response objects.

What the client adds per call: openapi-fetch's Request (URL, headers, body) and the Response it
parses, placing the key, one AbortController and timer per attempt for the timeout, reading the
body whole within it. Part of that is the AbortSignal handed to fetch for the timeout, which the
raw fetch with a timeout pays too.

## Bundle

@intake/client: ${size.line}; ${fmt(size.gzipBytes)} bytes. Target: under ${budget} (${verdict(bundleMet)}).

## Import time

A fresh node process per sample, \`await import()\` timed inside it; ${IMPORTS} samples each, taking turns; medians.

| Module | ms to import |
|---|---:|
${Object.entries(importMs)
  .map(([k, v]) => `| ${k} (dist) | ${fmt(v, 1)} |`)
  .join("\n")}

The client's own modules cost the difference between the two rows (its webhook verifier, on its own
entry point \`@intake/client/webhooks\`, is not loaded).

Reproduce: \`npm run bench:client\` (raw figures in client.json).
`;
await writeReport("client", markdown, { rounds: ROUNDS, batch: BATCH, rows, bundle: size, importMs, imports, checks, samples });
