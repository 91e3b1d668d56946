/**
 * How soon a live event reaches a subscriber after the request that caused it: `intake-server`
 * as users run it (the built CLI, HTTPS, --log quiet), one subscriber to GET /__admin/events through
 * the typed admin client (what a dashboard or a test holds open), and POST /v1/contacts sent over
 * HTTPS, first one at a time, then CONCURRENCY at a time. For each request: from its answer's
 * arrival to the arrival of its `request.answered` event (matched by request id), negative when
 * the event came first. Target: p99 under 100 ms.
 *
 * Run: npm run bench:events   (writes bench/results/events.{md,json}; REQUESTS, CONCURRENCY to change)
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdminClient } from "@intake/server";
import { Agent } from "undici";
import { fmt, verdict } from "./support/figures.js";
import { runLine, writeReport } from "./support/report.js";
import { BENCH_KEY, benchNewPhone, benchSeed } from "./support/seed.js";
import { startCli } from "./support/targets.js";

const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const TARGET_MS = 100;

const dir = mkdtempSync(join(tmpdir(), "intake-bench-events-"));
writeFileSync(join(dir, "seed.json"), JSON.stringify(benchSeed(0)));
const server = await startCli("events", ["--seed", join(dir, "seed.json")]);
const dispatcher = new Agent({ connect: { ca: server.certificate } });
const fetch = (request: Request) => globalThis.fetch(request, { dispatcher } as RequestInit);

try {
  const admin = createAdminClient({ adminUrl: server.listening.adminUrl, token: server.listening.adminToken, fetch });
  const subscription = await admin.events({ accountId: undefined });
  /** When each request's event arrived, by request id; and who waits for one. */
  const arrived = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const reading = (async () => {
    for await (const { event } of subscription) {
      if (event.type !== "request.answered") continue;
      const at = performance.now();
      const wake = waiting.get(event.requestId);
      if (wake) wake(at);
      else arrived.set(event.requestId, at);
    }
  })();
  const eventOf = (requestId: string) =>
    arrived.has(requestId) ? Promise.resolve(arrived.get(requestId)!) : new Promise<number>((resolve) => waiting.set(requestId, resolve));

  let sent = 0;
  /** One request: its answer's arrival to its event's arrival, in ms. */
  const one = async () => {
    const n = sent++;
    const response = await fetch(
      new Request(`${server.base}/contacts`, {
        method: "POST",
        headers: { authorization: `Bearer ${BENCH_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ phone_number: benchNewPhone(n) }),
      }),
    );
    await response.arrayBuffer();
    const answered = performance.now();
    const requestId = response.headers.get("x-request-id")!;
    const event = await eventOf(requestId);
    arrived.delete(requestId);
    waiting.delete(requestId);
    return event - answered;
  };

  const runs: Record<string, number[]> = {};
  for (const [name, concurrency] of [
    ["one at a time", 1],
    [`${CONCURRENCY} at a time`, CONCURRENCY],
  ] as const) {
    // A warm-up the figures leave out.
    for (let i = 0; i < 200; i++) await one();
    const delays: number[] = [];
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (delays.length < REQUESTS) delays.push(await one());
      }),
    );
    runs[name] = delays;
    console.log(`${name}: p50 ${percentile(delays, 0.5).toFixed(2)} ms, p99 ${percentile(delays, 0.99).toFixed(2)} ms`);
  }
  subscription.close();
  await reading;

  const rows = Object.entries(runs).map(([name, delays]) => {
    const p99 = percentile(delays, 0.99);
    return `| ${name} | ${fmt(delays.length)} | ${percentile(delays, 0.5).toFixed(2)} | ${percentile(delays, 0.95).toFixed(2)} | ${p99.toFixed(2)} | ${Math.max(...delays).toFixed(2)} | ${verdict(p99 < TARGET_MS)} |`;
  });
  await writeReport(
    "events",
    `# Live events: request to event

${runLine()}. \`intake-server\` (dist/cli.js, HTTPS, \`--log quiet\`), one subscriber to \`GET /__admin/events\` through the typed admin client, \`POST /v1/contacts\` over HTTPS. The delay is from a request's answer arriving to its \`request.answered\` event arriving (negative: the event came first). Target: p99 under ${TARGET_MS} ms.

| requests | measured | p50 ms | p95 ms | p99 ms | max ms | target |
|---|---:|---:|---:|---:|---:|---|
${rows.join("\n")}
`,
    {
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      targetMs: TARGET_MS,
      checks: Object.entries(runs).map(([name, delays]) => {
        const p99 = percentile(delays, 0.99);
        return {
          what: `request answered to its event arriving, p99, ${name}`,
          value: `${p99.toFixed(1)} ms`,
          target: `< ${TARGET_MS} ms`,
          met: p99 < TARGET_MS,
        };
      }),
      runs: Object.fromEntries(Object.entries(runs).map(([name, delays]) => [name, summary(delays)])),
    },
  );
} finally {
  await server.stop();
  await dispatcher.close();
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function summary(delays: number[]) {
  return { p50: percentile(delays, 0.5), p95: percentile(delays, 0.95), p99: percentile(delays, 0.99), max: Math.max(...delays) };
}
