/**
 * Heap per stored contact and per stored message at 1,000,000 of each: one server at a time in
 * this process, the heap measured after full collections before and after each step.
 *
 * - Contacts: 1,000,000 seeded (the store's own create, as the API's), each with a phone, an
 *   email, a sender id and two names.
 * - Messages: 1,000,000 received through the API in-process (the core's `handle`, the whole
 *   pipeline), 100 each from the first 10,000 contacts, with the server's defaults (the journal
 *   keeps the last 1,000 requests).
 * - Then contacts again: 1,000,000 created through the API in-process into an empty store (no
 *   starting seed kept beside them), each with a phone, an email and two names.
 *
 * Target: under 1 KiB per contact. Run: npm run bench:memory (writes bench/results/memory.{md,json})
 */
import { createIntake, type Intake } from "@intake/server";
import { internals, type ApiRequest } from "@intake/server/hosting";
import { fmt, verdict } from "./support/figures.js";
import { heapAfterGc, runLine, writeReport } from "./support/report.js";
import { BENCH_KEY, benchEmail, benchPhone, benchSeed, benchSender } from "./support/seed.js";

const CONTACTS = Number(process.env.CONTACTS ?? 1_000_000);
const MESSAGES = Number(process.env.MESSAGES ?? 1_000_000);
const SENDERS = Math.min(10_000, CONTACTS);
const LIMIT = 1024;

const encoder = new TextEncoder();
/** A JSON POST through the whole pipeline in-process, keyed in the query. */
const post = (intake: Intake, path: string, json: string) => {
  const body = encoder.encode(json);
  const request: ApiRequest = {
    method: "POST",
    url: new URL(`https://bench.local/v1${path}?apiKey=${BENCH_KEY}`),
    headers: { get: (name) => (name === "content-type" ? "application/json" : null) },
    bytes: () => Promise.resolve(body),
  };
  return internals(intake).handle(request);
};
const receive = (intake: Intake, n: number) =>
  post(
    intake,
    "/incoming_custom_channel_message",
    `{"customData":{"messageSid":"SM${n}","fromId":"${benchSender(n % SENDERS)}","toId":"acme","body":"Hello, I would like to know more"}}`,
  );
const create = (intake: Intake, n: number) =>
  post(intake, "/contacts", `{"phone":"${benchPhone(n)}","email":"${benchEmail(n)}","firstName":"Lead","lastName":"Number ${n}"}`);

const start = heapAfterGc();
const probe = createIntake({ rateLimit: 0 });
const empty = heapAfterGc() - start;
await probe.close();

/** Seconds `count` calls take one after another, each expected to answer `status`. */
async function secondsFor(
  count: number,
  call: (n: number) => Promise<{ status: number; body: string | null }>,
  status: number,
  what: string,
) {
  const started = performance.now();
  for (let n = 0; n < count; n++) {
    const response = await call(n);
    if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${response.body}`);
  }
  return (performance.now() - started) / 1000;
}

/** Seeded contacts, then messages received from them: the server is dropped after, so the next step starts clean. */
async function seededThenReceived() {
  const started = performance.now();
  // Built inline and dropped, so nothing but the server holds the contacts afterwards.
  const intake = createIntake({ rateLimit: 0, seed: benchSeed(CONTACTS, 1, { senders: true }) });
  const seedSeconds = (performance.now() - started) / 1000;
  const withContacts = heapAfterGc();
  const perContact = (withContacts - start - empty) / CONTACTS;
  console.log(`${fmt(CONTACTS)} contacts: ${Math.round(perContact)} bytes each (seeded in ${seedSeconds.toFixed(1)} s)`);

  const receiveSeconds = await secondsFor(MESSAGES, (n) => receive(intake, n), 200, "receive");
  const perMessage = (heapAfterGc() - withContacts) / MESSAGES;
  console.log(`${fmt(MESSAGES)} messages: ${Math.round(perMessage)} bytes each (received in ${receiveSeconds.toFixed(1)} s)`);
  await intake.close();
  return { perContact, perMessage, seedSeconds, receiveSeconds };
}

/** Contacts created through the API into an empty store: no starting seed kept beside them. */
async function createdThroughApi() {
  const intake = createIntake({ rateLimit: 0, seed: benchSeed(0, 0) });
  // Counted from the empty server itself: what the first server set up once (code, compiled
  // validators) is still in the heap, so subtracting `empty` again would take it off twice. The
  // closed server is let go a turn or two of the event loop later, not at once (seen: still there
  // after one timer, gone after two); counted before that, its contacts would come off these.
  let before = Infinity;
  for (let turn = 0; turn < 3 || (turn < 50 && before - start > 2 * empty); turn++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    before = heapAfterGc();
  }
  if (before - start > 2 * empty)
    throw new Error(`The seeded server is still in the heap (${fmt((before - start) / 2 ** 20, 1)} MiB): the figure would be wrong.`);
  const createSeconds = await secondsFor(CONTACTS, (n) => create(intake, n), 201, "create");
  const perCreated = (heapAfterGc() - before) / CONTACTS;
  console.log(`${fmt(CONTACTS)} contacts created: ${Math.round(perCreated)} bytes each (created in ${createSeconds.toFixed(1)} s)`);
  await intake.close();
  return { perCreated, createSeconds };
}

const { perContact, perMessage, seedSeconds, receiveSeconds } = await seededThenReceived();
const { perCreated, createSeconds } = await createdThroughApi();

const checks = [
  { what: "heap per stored contact at 1M", value: `${Math.round(perContact)} B`, target: "< 1,024 B", met: perContact < LIMIT },
];
const markdown = `# Memory: heap per stored contact and per stored message

${runLine()}. One server at a time in the benchmark's process; the heap is measured with \`process.memoryUsage().heapUsed\`
after two full collections (\`--expose-gc\`) before and after each step.

| Stored | Count | Heap each | Target | |
|---|---:|---:|---:|---|
| Contact, seeded (phone, email, sender id, two names) | ${fmt(CONTACTS)} | ${fmt(perContact)} B | < 1,024 B | ${verdict(perContact < LIMIT)} |
| Contact, created through the API (phone, email, two names) | ${fmt(CONTACTS)} | ${fmt(perCreated)} B | | |
| Received message (100 per sender, 10,000 senders) | ${fmt(MESSAGES)} | ${fmt(perMessage)} B | | |

- The first server in a process takes ${fmt(empty / 1024 / 1024, 1)} MiB of heap with nothing stored, most of it set up once
  (code, compiled validators) and kept for any server after it. Neither contact figure counts it: the
  seeded one subtracts it, the created one counts from the empty server it creates into.
- A contact's figure covers its @mswjs/data record, the strings it holds, and its entries in the
  indexes beside @mswjs/data (by id, phone, email and sender id, and the account's contact list).
  A seeded contact's figure also holds the seed's own object for it: the server keeps its starting
  seed, to load again on a reset without one. A contact created through the API has no sender id and
  no seed beside it.
- A message's figure covers its record (19 fields, a plain object in the store's table of messages
  beside @mswjs/data) and its entries in the indexes (by message sid, the contact's conversation).
- Seeding ${fmt(CONTACTS)} contacts took ${seedSeconds.toFixed(1)} s; receiving ${fmt(MESSAGES)} messages through the whole
  pipeline in-process took ${receiveSeconds.toFixed(1)} s (${fmt((receiveSeconds * 1e6) / MESSAGES, 1)} µs each); creating
  ${fmt(CONTACTS)} contacts the same way took ${createSeconds.toFixed(1)} s (${fmt((createSeconds * 1e6) / CONTACTS, 1)} µs each).

Reproduce: \`npm run bench:memory\` (raw figures in memory.json; CONTACTS, MESSAGES to change the counts).
`;
await writeReport("memory", markdown, {
  contacts: CONTACTS,
  messages: MESSAGES,
  emptyServerBytes: empty,
  bytesPerContact: perContact,
  bytesPerMessage: perMessage,
  bytesPerCreatedContact: perCreated,
  seedSeconds,
  receiveSeconds,
  createSeconds,
  checks,
});
