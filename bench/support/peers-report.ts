/** bench/peers.ts's report: the method, the targets, the chart, the figures, and what each peer does not do. */
import { fmt, fmtOrNa, verdict } from "./figures.js";
import { CONNECTIONS, median, serverCpuMicros, type Samples } from "./load.js";
import { runLine } from "./report.js";
import { STORED } from "./routes.js";
import type { Peer } from "./peers.js";
import type { Check } from "./summary-page.js";
import type { StartPart } from "./start-profile.js";

/** One server's run: its starts (ms), their median, resident memory (bytes) and reset (ms). */
export interface ServerRun {
  starts: number[];
  startMs: number;
  rssAtRest?: number;
  rssAfter?: number;
  resetMs?: number;
}

/** What support/msw-peer.ts prints. */
export interface MswFigures {
  startMs: Record<string, number>;
  rssAtRest: number;
  rssAfter: number;
  samples: Record<string, Record<string, Array<{ requestsPerSecond: number; p50: number; p99: number }>>>;
}

/** What each server does with a request, beside its speed: a fast stateless answer is not the same work. */
export const DOES: Array<{ server: string; state: string; validates: string; key: string; webhooks: string; more: string }> = [
  {
    server: "Intake",
    state: "stateful: a created contact is found, a list holds its members, messages make conversations",
    validates: "every request against the contract, 400 naming the field",
    key: "the account's key, in each of three forms (query, header, bearer)",
    webhooks: "signed reply webhooks, retried, with a delivery log",
    more: "HTTPS; bot replies, campaigns, faults, a journal, live events, a dashboard; reset `POST /__admin/reset`",
  },
  {
    server: "prism mock",
    state: "stateless: the contract's example for the operation, whatever was sent before",
    validates: "requests against the contract (an invalid body is answered 400)",
    key: "that a key is present (401 without one), not which",
    webhooks: "none",
    more: "plain HTTP; nothing to reset",
  },
  {
    server: "Mockoon CLI",
    state: "stateless as imported from openapi.yaml: each route answers its example (data buckets and CRUD routes are set up by hand)",
    validates: "no",
    key: "no",
    webhooks: "none from openapi.yaml (its callbacks are set up by hand, unsigned)",
    more: "plain HTTP here; logs every request to stdout; admin API purge (`POST /mockoon-admin/state/purge`)",
  },
  {
    server: "WireMock",
    state: "stateless stubs: the fixed answer each stub was written with (scenarios are written by hand)",
    validates: "only what a stub matches on (here: path, method, that the key and phone are there); anything else is a 404",
    key: "only as a stub matches it",
    webhooks: "by its webhooks extension, unsigned unless templated by hand",
    more: "plain HTTP here; a JVM (its default heap); reset `POST /__admin/reset`",
  },
  {
    server: "json-server 0.17",
    state: "stateful CRUD of its db.json, written whole on every change",
    validates: "no: stores whatever JSON it is sent",
    key: "no (the routes file drops it)",
    webhooks: "none",
    more: "plain HTTP; its own shapes (a lookup answers an array, a create echoes the body), not the contract's; no reset but a restart",
  },
];

const mib = (bytes: number | undefined) => (bytes === undefined ? "n/a" : `${fmt(bytes / 2 ** 20)} MiB`);

export function peersMarkdown(input: {
  servers: Array<ServerRun & { peer: Peer }>;
  samples: Samples;
  msw: MswFigures;
  checks: Check[];
  settings: { rounds: number; seconds: number; warmupSeconds: number; starts: number; resets: number; quick: boolean };
  /** @mswjs/data loaded alone in a node process, beside node loading nothing. */
  store: { importMs: number; rss: number; bareRss: number };
  /** One more start of the CLI under node's CPU profiler, and where its time went (start-profile.ts). */
  startProfile: { startMs: number; parts: StartPart[] };
  javaNote?: string;
}): string {
  const { servers, samples, msw, checks, settings, store, startProfile } = input;
  const cli = servers.find((s) => s.peer.intake)!;
  const profiled = startProfile.parts.reduce((total, p) => total + p.ms, 0);
  const largest = startProfile.parts[0]!;
  // The start and memory checks are the ones named after the CLI; the routes' are named after the route.
  const footprintMissed = checks.some((c) => !c.met && c.what.startsWith(`${cli.peer.name}: `));
  const names = servers.map((s) => s.peer.name);
  const perRoute = Object.keys(samples).map((route) => {
    const rows = names.map((name) => {
      const all = samples[route]![name]!;
      const med = (figure: (s: (typeof all)[number]) => number | undefined) => median(all.map((s) => figure(s) ?? NaN));
      const failed = all.reduce((t, s) => t + s.non2xx + s.errors, 0);
      return `| ${name} | ${fmt(med((s) => s.requestsPerSecond))} | ${fmt(med((s) => s.p50))} | ${fmt(med((s) => s.p99))} | ${fmtOrNa(med(serverCpuMicros), 1)} | ${fmt(failed)} |`;
    });
    return [
      `### ${route}`,
      "",
      "| Server | req/s (median) | p50 ms | p99 ms | server CPU µs a request | non-2xx + errors |",
      "|---|---:|---:|---:|---:|---:|",
      ...rows,
      "",
    ].join("\n");
  });
  const mswRows = Object.entries(msw.samples).flatMap(([route, sides]) =>
    Object.entries(sides).map(
      ([side, all]) =>
        `| ${route} | ${side} | ${fmt(median(all.map((s) => s.requestsPerSecond)))} | ${fmt(median(all.map((s) => s.p50)), 2)} | ${fmt(median(all.map((s) => s.p99)), 2)} |`,
    ),
  );
  return `# Intake against its peers: Prism, Mockoon, WireMock and json-server
${settings.quick ? "\n**A smoke run (`--quick`): one round, one start each. Not a measurement: run `npm run bench:peers` on a calm machine.**\n" : ""}
${runLine()}. Each server in its own process on 127.0.0.1, loaded by autocannon (${CONNECTIONS} connections) from the
benchmark's process: ${settings.rounds} round(s) of ${settings.seconds} s per server and route, the servers taking turns within a
round and the routes taking turns from round to round, after a warm-up of ${settings.warmupSeconds} s of each server on each route (a JVM's
JIT compiles WireMock's hot paths over its first seconds; a cold start is timed on its own); the tables give medians.
Intake runs over HTTPS as users run it; the peers serve plain HTTP, as they do by default.${input.javaNote ? `\n\n**${input.javaNote}**` : ""}

## Targets

| Check | Measured | Target | |
|---|---:|---:|---|
${checks.map((c) => `| ${c.what} | ${c.value} | ${c.target} | ${verdict(c.met)} |`).join("\n")}

![Requests a second per server and route, and start to first answer per server](peers.svg)

## Where Intake's start goes

One more start of \`${cli.peer.command}\` under node's CPU profiler (\`--cpu-prof\`, which slows it:
${fmt(startProfile.startMs)} ms to its first answer, against the median ${fmt(cli.startMs)} ms above; the profile
begins once node has booted). Each sample until the first answer is charged to one part: a package with
everything it loads, split into loading it and Intake's calls into it; node's own work apart.

| Part | ms | share |
|---|---:|---:|
${startProfile.parts.map((p) => `| ${p.part} | ${fmt(p.ms)} | ${fmt((100 * p.ms) / profiled)}% |`).join("\n")}

The largest part is "${largest.part}" (${fmt((100 * largest.ms) / profiled)}% of the profiled start). The store library the
house plan builds on, \`@mswjs/data\` 0.16, is published as some 600 CommonJS files (graphql, the whole of date-fns,
lodash's modules) and requires msw's core for its \`toHandlers\`, whatever a program uses of it: loaded alone, as
published, in a node process here, it took ${fmt(store.importMs)} ms and left the process ${mib(store.rss)} resident, against
${mib(store.bareRss)} for node loading nothing. What the store gets from it is small: the models' \`create\` (a primary key
kept unique, nullable fields defaulted) and \`drop\`. On Node 22 and later a start
costs more, as node's package.json reader parses @babel/runtime's 41 KB \`exports\` map again for each date-fns file
(\`npm run bench:start\` compares the lines: bench/results/start.md), a regression of node's own since 21.5
(nodejs/node#58126, #60397: its package.json cache moved to C++, and the \`exports\` it holds is parsed again at each lookup). Bundling the library into the server's build
cut that (below), but the bundled CommonJS needs a \`require\`, which the server's build then has to make from
\`node:module\`, and browsers (the msw handlers under \`setupWorker\`) and workerd (the hosted sandboxes) have neither:
the build does not bundle it. A second build for node alone (bundled, under a \`node\` export condition) would
ship every entry point twice, each to be tested on every line, and still miss the target: bundled, as tried, no line started under 400 ms; it was not made. Even bundled, most of what the library costs is msw's core, for the handlers it can
generate and Intake never asks for; leaving that out would mean changing the library's code in Intake's build, so it stays${footprintMissed ? "; the start and memory targets missed above are missed with it" : ""}.
Other remedies kept: the validators are compiled when the package is built, the CLI turns on node's compile cache
(Node 22.1 and later), and file-type loads with the first upload.

## The servers

| Server | Started as | Start to first answer, ms (median; each) | Resident at rest | Resident after the load | Reset, ms |
|---|---|---:|---:|---:|---:|
${servers.map((s) => `| ${s.peer.name} | \`${s.peer.command}\` | ${fmt(s.startMs)} (${s.starts.map((t) => fmt(t)).join(", ")}) | ${mib(s.rssAtRest)} | ${mib(s.rssAfter)} | ${s.resetMs === undefined ? "none" : fmt(s.resetMs, 1)} |`).join("\n")}

- **Each peer twice**: as its docs start it by default, and with its fastest documented settings:
  Prism \`-v silent\` (no log; \`-m\` only moves the logging to a process of its own, and one process keeps
  its memory readable); Mockoon \`--disable-log-to-file\` (by default it logs each transaction to a file
  under the home folder, here the run's own folder; it still writes a line per request to stdout, read and
  dropped here); WireMock \`--no-request-journal --disable-request-logging\` (by default it keeps every
  request in its journal; \`--async-response-enabled\` only serves delayed answers, of which there are none);
  json-server \`--quiet\` (by default a log line per request). Intake runs \`--log quiet\` (its default log
  writes a line per failed request only, and none fails here) with its rate limit off.
- **Start to first answer**: from spawning the command to the first 2xx answer to a lookup, asked every
  10 ms (one new connection each); ${settings.starts} start(s) each, the servers taking turns, after one start each not
  counted (it fills the disk's cache, and makes Intake's certificate on a fresh machine).
- **Resident memory**: the server process's VmRSS (/proc/<pid>/status), a second after its first answer and
  again after all the rounds. WireMock runs in a JVM with its default heap (a quarter of the machine's memory).
- **Reset**: one request, ${settings.resets} times after the load, median: \`POST /__admin/reset\` (Intake, WireMock),
  \`POST /mockoon-admin/state/purge\` (Mockoon). Prism has no state; json-server has no reset but a restart.
- **The work**: Intake, startIntakeServer and json-server hold ${fmt(STORED)} contacts and ${fmt(STORED)} lists at the start;
  creates use a new phone number each time, adds a new (list, contact) pair, received messages come from
  ${fmt(STORED)} senders; lookups go round the stored contacts. Prism and Mockoon answer from \`openapi.yaml\`,
  WireMock from four stubs (bench/support/wiremock/mappings), json-server from a \`db.json\` and a routes file
  mapping the contract's paths onto its resources.

## What each server does with a request

| Server | State | Validates requests | Checks the API key | Webhooks | Besides |
|---|---|---|---|---|---|
${DOES.map((d) => `| ${d.server} | ${d.state} | ${d.validates} | ${d.key} | ${d.webhooks} | ${d.more} |`).join("\n")}

## Figures per route

A server's CPU is its process's user and system time (from /proc) over a round, per request answered:
what it spent, whichever side set the pace. The load generator shares the machine's two cores: over
HTTPS its own TLS work can set the pace of Intake's rounds, and WireMock (a JVM) serves on several
threads, so it can take more of the machine than a node server's one thread of JavaScript.

${perRoute.join("\n")}
## In process: Intake's msw handlers and msw with a fixed handler

One process, one \`setupServer\` holding Intake's handlers (\`createIntakeHandlers\`, the same seed) and a handler
answering a fixed JSON on each route; \`fetch\` in that process, ${CONNECTIONS} calls in flight, ${settings.rounds} round(s) of ${settings.seconds} s per side
and route, the sides taking turns. From importing msw and the handlers to Intake's first answer: ${fmt(msw.startMs["Intake msw handlers"] ?? NaN)} ms.
The process's resident memory (process.memoryUsage().rss, both sides in it): ${mib(msw.rssAtRest)} at rest, ${mib(msw.rssAfter)} after.
Most of the growth is msw's own: it keeps each intercepted request's emitter until \`server.close()\`
([mswjs/msw#2735](https://github.com/mswjs/msw/issues/2735)); in msw 2.15 a fixed handler alone, tried apart from this
benchmark, grew the heap by about 10 kB a call. A suite that closes its \`setupServer\` after each test file frees it.

| Route | Side | calls/s (median) | p50 ms | p99 ms |
|---|---|---:|---:|---:|
${mswRows.join("\n")}

Reproduce: \`npm run bench:peers\` (raw figures in peers.json, the chart in peers.svg).
`;
}
