/**
 * Heap per stored contact and per stored message at 1,000,000 of each: one server in this
 * process, the heap measured after full collections before and after each step.
 *
 * - Contacts: 1,000,000 seeded (the store's own create, as the API's), each with a phone, an
 *   email, a sender id and two names.
 * - Messages: 1,000,000 received through the API in-process (`intake.handle`, the whole
 *   pipeline), 100 each from the first 10,000 contacts, with the server's defaults (the journal
 *   of the last 1,000 requests is outside the heap, so not counted).
 *
 * Target: under 1 KiB per contact. Run: npm run bench:memory (writes bench/results/memory.{md,json})
 */
import { createIntake, type ApiRequest, type Intake } from "@intake/server";
import { fmt, verdict } from "./support/figures.js";
import { heapAfterGc, runLine, writeReport } from "./support/report.js";
import { BENCH_KEY, benchSeed, benchSender } from "./support/seed.js";

const CONTACTS = Number(process.env.CONTACTS ?? 1_000_000);
const MESSAGES = Number(process.env.MESSAGES ?? 1_000_000);
const SENDERS = Math.min(10_000, CONTACTS);
const LIMIT = 1024;

const encoder = new TextEncoder();
const receive = (intake: Intake, n: number) => {
  const body = encoder.encode(`{"customData":{"messageSid":"SM${n}","fromId":"${benchSender(n % SENDERS)}","toId":"acme","body":"Hello, I would like to know more"}}`);
  const request: ApiRequest = {
    method: "POST",
    url: new URL(`https://bench.local/v1/incoming_custom_channel_message?apiKey=${BENCH_KEY}`),
    headers: { get: (name) => (name === "content-type" ? "application/json" : null) },
    bytes: () => Promise.resolve(body),
  };
  return intake.handle(request);
};

const start = heapAfterGc();
const probe = createIntake({ rateLimit: 0 });
const empty = heapAfterGc() - start;
await probe.close();

let started = performance.now();
// Built inline and dropped, so nothing but the server holds the contacts afterwards.
const intake = createIntake({ rateLimit: 0, seed: benchSeed(CONTACTS, 1, { senders: true }) });
const seedSeconds = (performance.now() - started) / 1000;
const withContacts = heapAfterGc();
const perContact = (withContacts - start - empty) / CONTACTS;
console.log(`${fmt(CONTACTS)} contacts: ${Math.round(perContact)} bytes each (seeded in ${seedSeconds.toFixed(1)} s)`);

started = performance.now();
for (let n = 0; n < MESSAGES; n++) {
  const response = await receive(intake, n);
  if (response.status !== 200) throw new Error(`receive answered ${response.status}: ${response.body}`);
}
const receiveSeconds = (performance.now() - started) / 1000;
const perMessage = (heapAfterGc() - withContacts) / MESSAGES;
console.log(`${fmt(MESSAGES)} messages: ${Math.round(perMessage)} bytes each (received in ${receiveSeconds.toFixed(1)} s)`);
await intake.close();

const checks = [{ what: "heap per stored contact at 1M", value: `${Math.round(perContact)} B`, target: "< 1,024 B", met: perContact < LIMIT }];
const markdown = `# Memory: heap per stored contact and per stored message

${runLine()}. One server in the benchmark's process; the heap is measured with \`process.memoryUsage().heapUsed\`
after two full collections (\`--expose-gc\`) before and after each step.

| Stored | Count | Heap each | Target | |
|---|---:|---:|---:|---|
| Contact (phone, email, sender id, two names) | ${fmt(CONTACTS)} | ${fmt(perContact)} B | < 1,024 B | ${verdict(perContact < LIMIT)} |
| Received message (100 per sender, 10,000 senders) | ${fmt(MESSAGES)} | ${fmt(perMessage)} B | | |

- A server with nothing stored takes ${fmt(empty / 1024 / 1024, 1)} MiB of heap; the per-contact figure excludes it.
- A contact's figure covers its @mswjs/data record, the strings it holds, and its entries in the
  indexes beside @mswjs/data (by phone, email and sender id, and the account's contact list); @mswjs/data's
  own map of the model's records is the index by id.
- A message's figure covers its record (19 fields), its entry in @mswjs/data's map, and its
  entries in the indexes (by message sid, the contact's conversation); the journal of the last 1,000 requests is kept as bytes outside
  the heap and is not in it.
- Seeding ${fmt(CONTACTS)} contacts took ${seedSeconds.toFixed(1)} s; receiving ${fmt(MESSAGES)} messages through the whole
  pipeline in-process took ${receiveSeconds.toFixed(1)} s (${fmt((receiveSeconds * 1e6) / MESSAGES, 1)} µs each).

Why a record is this small: @mswjs/data's own \`create\` builds a record field by field and leaves
a message as a V8 dictionary of about 1.1 KB; the store builds records in the model's exact shape
with every field in place from the start, so V8 keeps them as compact objects (a test holds them
identical to the model's own; see packages/server/src/store/models.ts).

Reproduce: \`npm run bench:memory\` (raw figures in memory.json; CONTACTS, MESSAGES to change the counts).
`;
await writeReport("memory", markdown, {
  contacts: CONTACTS,
  messages: MESSAGES,
  emptyServerBytes: empty,
  bytesPerContact: perContact,
  bytesPerMessage: perMessage,
  seedSeconds,
  receiveSeconds,
  checks,
});
