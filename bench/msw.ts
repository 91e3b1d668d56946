/**
 * msw mode: what a client call costs through Intake's msw handlers, against the same call
 * answered by a plain msw handler returning a fixed JSON (the least any msw mock costs). Both in
 * one `setupServer`, in this process, through @intake/client; alternating batches, medians.
 * Target: Intake's handlers within 2x of the fixed handler.
 *
 * Run: npm run bench:msw   (writes bench/results/msw.{md,json}; ROUNDS, BATCH to change)
 */
import { createIntakeClient } from "@intake/client";
import { createIntakeHandlers } from "@intake/server/msw";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { median, rotated } from "./support/load.js";
import { figure, fmt, verdict } from "./support/figures.js";
import { runLine, writeReport } from "./support/report.js";
import { STORED } from "./support/routes.js";
import { BENCH_KEY, FIXED_LOOKUP, benchNewPhone, benchPhone, benchSeed } from "./support/seed.js";

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const BATCH = Number(process.env.BATCH ?? 1_000);
const FIXED_ORIGIN = "https://fixed.intake.test";

const intake = createIntakeHandlers({ seed: benchSeed(STORED), rateLimit: 0 });
const created = { ...FIXED_LOOKUP, contactId: "ct_new", contact: { ...FIXED_LOOKUP.contact, id: "ct_new" } };
// The fixed handlers first, so msw matches them before it looks at Intake's.
const server = setupServer(
  http.get(`${FIXED_ORIGIN}/v1/contacts`, () => HttpResponse.json(FIXED_LOOKUP)),
  http.post(`${FIXED_ORIGIN}/v1/contacts`, () => HttpResponse.json(created)),
  ...intake.handlers,
);
server.listen({ onUnhandledRequest: "error" });

const clientFor = (baseUrl: string) => createIntakeClient({ auth: "query", apiKey: BENCH_KEY, baseUrl, maxRetries: 0 });
const sides = { "Intake handlers": clientFor(intake.baseUrl), "fixed-JSON handler": clientFor(`${FIXED_ORIGIN}/v1`) } as const;
type Side = keyof typeof sides;

let sequence = 0;
const calls: Record<string, (client: (typeof sides)[Side]) => Promise<unknown>> = {
  "look up a contact (contacts.find)": (client) => client.contacts.find({ phoneNumber: benchPhone(sequence++ % STORED) }),
  "create a contact (contacts.create)": (client) => client.contacts.create({ phone: benchNewPhone(sequence++), firstName: "Lead" }),
};

async function batch(call: (typeof calls)[string], client: (typeof sides)[Side]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < BATCH; i++) await call(client);
  return ((performance.now() - started) * 1000) / BATCH;
}

const samples: Record<string, Record<Side, number[]>> = {};
try {
  for (const [name, call] of Object.entries(calls)) {
    // Both sides answer as they should before anything is timed.
    const answers = await Promise.all(Object.values(sides).map((client) => call(client)));
    if (answers.some((answer) => !answer)) throw new Error(`${name}: a side answered nothing`);
    for (const client of Object.values(sides)) await batch(call, client);
    samples[name] = { "Intake handlers": [], "fixed-JSON handler": [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of rotated(Object.keys(sides) as Side[], round)) samples[name]![side].push(await batch(call, sides[side]));
    }
    console.log(
      `${name}: Intake ${fmt(median(samples[name]!["Intake handlers"]), 1)} µs, fixed ${fmt(median(samples[name]!["fixed-JSON handler"]), 1)} µs`,
    );
  }
} finally {
  server.close();
  await intake.intake.close();
}

/** The target, on the ratio as the report shows it. */
const withinTarget = (ratio: number) => ratio <= 2;
const rows = Object.entries(samples).map(([name, bySide]) => {
  const ours = median(bySide["Intake handlers"]);
  const fixed = median(bySide["fixed-JSON handler"]);
  return { what: name, intakeMicroseconds: ours, fixedMicroseconds: fixed, ratio: ours / fixed, met: withinTarget(ours / fixed) };
});
const checks = rows.map((r) => ({
  what: `msw mode, ${r.what}: Intake / fixed-JSON handler`,
  value: figure(r.ratio, withinTarget),
  target: "≤ 2",
  met: r.met,
}));
const markdown = `# msw mode: Intake's handlers against a fixed-JSON msw handler

${runLine()}; msw ${(await import("msw/package.json", { with: { type: "json" } })).default.version}. One \`setupServer\` holding Intake's handlers (\`createIntakeHandlers\`, ${fmt(STORED)}
contacts stored) and a plain handler answering a fixed JSON (\`HttpResponse.json\`), called through
@intake/client (auth "query", retries off) in this process. ${ROUNDS} rounds of ${fmt(BATCH)} calls one after another
per side, the sides taking turns; medians of the per-call time. Creates use a new phone number each time.

| Call | Intake handlers, µs per call | Fixed-JSON handler, µs per call | Ratio | Target | |
|---|---:|---:|---:|---:|---|
${rows.map((r) => `| ${r.what} | ${fmt(r.intakeMicroseconds, 1)} | ${fmt(r.fixedMicroseconds, 1)} | ${figure(r.ratio, withinTarget)} | ≤ 2 | ${verdict(r.met)} |`).join("\n")}

Both sides pay for the client, msw's interception and matching, and a Request and a Response; the
difference is the service itself (routing, auth, validation, the operation, storage, journal) and
its Response. Intake's core answers through its own request/response shapes and meets the Fetch
API only at this adapter's edge, once per call.

Reproduce: \`npm run bench:msw\` (raw figures in msw.json).
`;
await writeReport("msw", markdown, { rounds: ROUNDS, batch: BATCH, rows, checks, samples });
