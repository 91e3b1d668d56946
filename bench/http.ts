/**
 * HTTP throughput and latency of the reference server on its four busiest routes, side by side
 * with a bare node server answering a fixed JSON (the ceiling here) and with `prism mock` (what
 * a user would pick instead). autocannon, 10 connections; every target in every round, in
 * turn; medians and ratios of medians, with no targets (bench/peers.ts has Intake's against its
 * peers).
 *
 * Run: npm run bench:http   (writes bench/results/http.{md,json}; ROUNDS, SECONDS to change;
 * ONLY=<part of a route's name> to measure some routes while profiling)
 */
import { alternate, CONNECTIONS, mediansOf, rateRatio, serverCpuMicros, type Samples } from "./support/load.js";
import { routes as allRoutes, STORED } from "./support/routes.js";
import { fmt, fmtOrNa } from "./support/figures.js";
import { runLine, writeReport } from "./support/report.js";
import { startPrismTarget, startTarget, type Target } from "./support/targets.js";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 2);
const PROXIED = "Intake behind a TLS proxy (plain HTTP)";

const log = (line: string) => console.log(line);
// ONLY=receive (say) measures the routes whose name contains it: for profiling, not for the report.
const only = process.env.ONLY;
const routes = only ? allRoutes.filter((r) => r.name.includes(only)) : allRoutes;
const targets: Target[] = [];
try {
  targets.push(await startTarget("bare-http", { name: "bare node:http" }));
  targets.push(await startTarget("intake-proxied", { name: PROXIED, contacts: STORED, lists: STORED }));
  targets.push(await startPrismTarget(true));
  targets.push(await startPrismTarget(false));
  targets.push(await startTarget("bare-https", { name: "bare node:https" }));
  targets.push(await startTarget("intake-https", { name: "Intake server (HTTPS)", contacts: STORED, lists: STORED }));
  const samples = await alternate(targets, routes, { rounds: ROUNDS, seconds: SECONDS, warmupSeconds: 1, log });
  await report(samples);
} finally {
  await Promise.all(targets.map((t) => t.stop()));
}

async function report(samples: Samples) {
  const med = mediansOf(samples);
  const cpu = (route: string, target: string) => fmtOrNa(med(route, target, serverCpuMicros), 1);
  const rps = (route: string, target: string) => med(route, target, (s) => s.requestsPerSecond);
  const lines: string[] = [];
  const ratios: Array<{ what: string; ratio: number; rounds: string }> = [];
  for (const { name: route } of routes) {
    lines.push(
      `### ${route}`,
      "",
      "| Server | req/s (median) | p50 ms | p99 ms | server CPU µs a request | non-2xx | errors |",
      "|---|---:|---:|---:|---:|---:|---:|",
    );
    for (const target of targets) {
      const all = samples[route]![target.name]!;
      const sum = (key: "non2xx" | "errors") => all.reduce((total, s) => total + s[key], 0);
      lines.push(
        `| ${target.name} | ${fmt(rps(route, target.name))} | ${med(route, target.name, (s) => s.p50)} | ${med(route, target.name, (s) => s.p99)} | ${cpu(route, target.name)} | ${sum("non2xx")} | ${sum("errors")} |`,
      );
    }
    lines.push("");
    for (const [comparison, intake, other] of [
      ["Intake behind a proxy / prism mock -v silent", PROXIED, "prism mock -v silent"],
      ["Intake behind a proxy / bare node:http", PROXIED, "bare node:http"],
      ["Intake server / bare node:https", "Intake server (HTTPS)", "bare node:https"],
    ] as const) {
      const { ratio, rounds } = rateRatio(samples, route, intake, other);
      const sorted = [...rounds].sort((a, b) => a - b);
      ratios.push({ what: `${route}: ${comparison}`, ratio, rounds: `${fmt(sorted[0]!, 2)} to ${fmt(sorted.at(-1)!, 2)}` });
    }
  }
  const summary = [
    "| Route: comparison | Ratio | Each round, lowest to highest |",
    "|---|---:|---|",
    ...ratios.map((r) => `| ${r.what} | ${fmt(r.ratio, 2)} | ${r.rounds} |`),
  ];
  const markdown = `# HTTP throughput: Intake against bare node and prism mock

${runLine()}. autocannon, ${CONNECTIONS} connections, from the benchmark's process; each server in its own process
(so the load and the server each have a core). ${ROUNDS} rounds of ${SECONDS} s per server and route, the servers
taking turns within a round, after a 1 s warm-up each; the tables give medians, and beside each ratio the
lowest and highest of the rounds' own ratios and how many rounds met its target. Throughput is the figure that
counts; the machine is shared, so compare ratios within this run. Latency is autocannon's, in whole
milliseconds. A server's CPU is its process's user and system time (from /proc, Linux) over a round, per
request answered: what it spent, whichever side set the pace.

- **bare node:http / node:https**: answer a fixed JSON the size of a lookup's answer, after reading the
  request: the ceiling of node on this machine with this load generator.
- **Intake behind a TLS proxy (plain HTTP)**: the same server as it runs behind a TLS-terminating proxy
  (\`trustForwardedProto\`, \`--trust-proxy\`): plain HTTP on its port, each request with \`X-Forwarded-Proto:
  https\`, so it compares with the plain-HTTP servers. Rate limit off.
- **Intake server (HTTPS)**: \`intake-server\` as users run it (\`serve\`, TLS, the build in dist). Rate limit off.
- **prism mock**: \`prism mock openapi.yaml\` (@stoplight/prism-cli 5.14), with its default logging and with
  \`-v silent\`.

Intake holds ${fmt(STORED)} contacts and ${fmt(STORED)} lists at the start. Creates use a new phone number each
time; adds a new (list, contact) pair each time; received messages come from ${fmt(STORED)} senders and are all
stored; lookups go round the stored contacts.

## Ratios

No targets: these ratios moved with the machine and measure nothing a user feels. Intake's targets
against the servers users choose among are in [peers.md](peers.md).

${summary.join("\n")}

## Figures

${lines.join("\n")}
Reproduce: \`npm run bench:http\` (raw figures in http.json).
`;
  await writeReport("http", markdown, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, ratios, samples });
  console.log(summary.join("\n"));
}
