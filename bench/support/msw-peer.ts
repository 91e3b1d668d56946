/**
 * Intake's msw handlers in a process of their own, beside msw with a fixed handler (a fixed JSON
 * per route, the least any msw mock costs): `fetch` in this process, intercepted by one
 * setupServer. For each route, `rounds` rounds of `seconds` per side, the sides taking turns; 10
 * calls in flight. Prints one JSON line: per side, the start (from importing the handlers to their
 * first answer), each round's calls a second and p50/p99 in ms, and this process's resident memory
 * (process.memoryUsage().rss) at rest and after the load.
 *
 * `node --import tsx bench/support/msw-peer.ts <rounds> <seconds>`
 */
import { STORED, routes } from "./routes.js";
import { FIXED_LOOKUP, benchSeed } from "./seed.js";

const [rounds, seconds] = process.argv.slice(2).map(Number) as [number, number];
const FIXED_ORIGIN = "https://fixed.intake.test/v1";
const IN_FLIGHT = 10;

const started = performance.now();
const [{ createIntakeHandlers }, { http, HttpResponse }, { setupServer }] = await Promise.all([
  import("@intake/server/msw"),
  import("msw"),
  import("msw/node"),
]);
const intake = createIntakeHandlers({ seed: benchSeed(STORED, STORED), rateLimit: 0 });
const fixed = HttpResponse.json(FIXED_LOOKUP);
const answer = () => fixed.clone();
const server = setupServer(
  http.get(`${FIXED_ORIGIN}/contacts`, answer),
  http.post(`${FIXED_ORIGIN}/contacts`, answer),
  http.post(`${FIXED_ORIGIN}/lists/:listId/contacts`, answer),
  http.post(`${FIXED_ORIGIN}/incoming_custom_channel_message`, answer),
  ...intake.handlers,
);
server.listen({ onUnhandledRequest: "error" });

const sides = { "Intake msw handlers": intake.baseUrl, "msw, fixed handler": FIXED_ORIGIN } as const;
type Side = keyof typeof sides;
const made = new Map<string, number>();

async function call(side: Side, route: (typeof routes)[number]): Promise<void> {
  const key = `${side}\n${route.name}`;
  const n = made.get(key) ?? 0;
  made.set(key, n + 1);
  const { method, path, body } = route.call(n, { name: side, base: sides[side], stop: async () => {} });
  const response = await fetch(`${sides[side]}${path}`, {
    method,
    body,
    headers: body === undefined ? {} : { "content-type": "application/json" },
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${side}, ${route.name}: ${response.status}`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function round(side: Side, route: (typeof routes)[number], ms: number) {
  const latencies: number[] = [];
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        const at = performance.now();
        await call(side, route);
        latencies.push(performance.now() - at);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { requestsPerSecond: latencies.length / (ms / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

const startMs: Partial<Record<Side, number>> = {};
for (const side of Object.keys(sides) as Side[]) {
  await call(
    side,
    routes.find((r) => r.name.startsWith("look up"))!,
  );
  startMs[side] = performance.now() - started;
}
await new Promise((resolve) => setTimeout(resolve, 1_000));
const rssAtRest = process.memoryUsage().rss;
const samples: Record<string, Record<Side, Array<Awaited<ReturnType<typeof round>>>>> = {};
for (const route of routes) {
  samples[route.name] = { "Intake msw handlers": [], "msw, fixed handler": [] };
  for (const side of Object.keys(sides) as Side[]) await round(side, route, 500);
  for (let r = 0; r < rounds; r++) {
    const order = (Object.keys(sides) as Side[])[r % 2 ? "reverse" : "slice"]();
    for (const side of order) samples[route.name]![side].push(await round(side, route, seconds * 1000));
  }
}
const rssAfter = process.memoryUsage().rss;
server.close();
await intake.intake.close();
process.stdout.write(`${JSON.stringify({ startMs, rssAtRest, rssAfter, samples })}\n`);
