/**
 * Lookups by phone, email, id and fromId with 1,000 and with 1,000,000 contacts stored, and the
 * memory each stored contact takes. Both stores live in one process and are measured in
 * alternating rounds, so machine noise hits both sides alike; the report gives medians and the
 * 1M/1k ratio (target: within 2x).
 *
 * Run: npm run bench:lookups   (writes bench/results/lookups.{md,json})
 */
import { writeFile } from "node:fs/promises";
import { createIntake, type Intake, type Seed } from "@intake/server";

const SIZES = [1_000, 1_000_000];
const ROUNDS = 15;
const BATCH = 2_000;
const KEY = "ik_bench_lookups_000000001";
const ADMIN = "adm_bench";

declare const gc: (() => void) | undefined;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};

const phone = (i: number) => `+1${String(2_000_000_000 + i)}`;
const email = (i: number) => `lead${i}@example.com`;
const fromId = (i: number) => `user-${i}`;

function seedOf(n: number): Seed {
  const contacts = Array.from({ length: n }, (_, i) => ({
    id: `ct_b${i}`,
    phone: phone(i),
    email: email(i),
    fromId: fromId(i),
    firstName: "Lead",
    lastName: `Number ${i}`,
  }));
  return { accounts: [{ id: "acc_bench", name: "Bench", apiKey: KEY, contacts }] };
}

/** The heap a server takes with no contacts, measured once, so per-contact figures exclude it. */
let fixedBytes = 0;

async function build(n: number) {
  const before = heap();
  const started = performance.now();
  // The seed is built inline so nothing keeps it alive after the server took it in.
  const intake = createIntake({ seed: seedOf(n), rateLimit: 0, journalSize: 0, adminToken: ADMIN });
  const seconds = (performance.now() - started) / 1000;
  const bytes = heap() - before - fixedBytes;
  return { n, intake, seedSeconds: seconds, bytesPerContact: bytes / n };
}

type Lookup = (intake: Intake, i: number) => Promise<Response>;
const base = "https://bench.local";
const LOOKUPS: Record<string, Lookup> = {
  "phone (GET /v1/contacts?phoneNumber)": (intake, i) => intake.fetch(new Request(`${base}/v1/contacts?apiKey=${KEY}&phoneNumber=${encodeURIComponent(phone(i))}`)),
  "email (GET /v1/contacts?email)": (intake, i) => intake.fetch(new Request(`${base}/v1/contacts?apiKey=${KEY}&email=${email(i)}`)),
  "id (GET /__admin/contacts/{id})": (intake, i) => intake.fetch(new Request(`${base}/__admin/contacts/ct_b${i}`, { headers: { authorization: `Bearer ${ADMIN}` } })),
  "fromId (POST /v1/incoming_custom_channel_message, storing the message)": (intake, i) =>
    intake.fetch(
      new Request(`${base}/v1/incoming_custom_channel_message?apiKey=${KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"customData":{"messageSid":"b${sequence++}","fromId":"${fromId(i)}","toId":"t","body":"x"}}`,
      }),
    ),
};
const EXPECTED: Record<string, number> = { phone: 200, email: 200, id: 200, fromId: 200 };
let sequence = 0;

/**
 * The fromId lookup stores a message per request; it uses the upper half of the contacts, so
 * the others' conversations (which the id lookup returns) stay empty at both sizes.
 */
async function time(name: string, lookup: Lookup, intake: Intake, n: number): Promise<number> {
  const offset = name.startsWith("fromId") ? n / 2 : 0;
  const started = performance.now();
  for (let k = 0; k < BATCH; k++) {
    const response = await lookup(intake, offset + Math.floor(Math.random() * (n / 2)));
    await response.arrayBuffer();
  }
  return ((performance.now() - started) * 1000) / BATCH;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const before = heap();
  const empty = createIntake({ rateLimit: 0, journalSize: 0, adminToken: ADMIN });
  fixedBytes = heap() - before;
  void empty;
  console.log(`a server with no contacts: ${(fixedBytes / 1024 / 1024).toFixed(1)} MiB of heap`);
  const stores = [];
  for (const n of SIZES) {
    const store = await build(n);
    console.log(`${n} contacts: seeded in ${store.seedSeconds.toFixed(1)} s, ${Math.round(store.bytesPerContact)} bytes per contact`);
    stores.push(store);
  }
  for (const [name, lookup] of Object.entries(LOOKUPS)) {
    const response = await lookup(stores[1]!.intake, 42);
    const expected = EXPECTED[name.split(" ")[0]!];
    if (response.status !== expected) throw new Error(`${name} answered ${response.status}: ${await response.text()}`);
  }
  const samples: Record<string, Record<number, number[]>> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, lookup] of Object.entries(LOOKUPS)) {
      // Alternate which size goes first, so neither always runs on a warmer machine.
      const order = round % 2 ? [...stores].reverse() : stores;
      for (const store of order) ((samples[name] ??= {})[store.n] ??= []).push(await time(name, lookup, store.intake, store.n));
    }
  }
  const rows = Object.entries(samples).map(([name, bySize]) => {
    const small = median(bySize[SIZES[0]!]!);
    const large = median(bySize[SIZES[1]!]!);
    return { lookup: name, microsecondsAt1k: small, microsecondsAt1M: large, ratio: large / small };
  });
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    rounds: ROUNDS,
    batch: BATCH,
    sizes: SIZES,
    fixedHeapBytes: fixedBytes,
    seeding: stores.map((s) => ({ contacts: s.n, seconds: s.seedSeconds, bytesPerContact: s.bytesPerContact })),
    lookups: rows,
    raw: samples,
  };
  const md = [
    "# Lookups at 1,000 and 1,000,000 contacts",
    "",
    `Node ${process.version}; ${ROUNDS} alternating rounds of ${BATCH} lookups per size, each through the whole request pipeline in-process (\`intake.fetch\`: routing, auth, validation, operation, JSON response). Medians; the machine is shared, so the ratio is the figure that counts. Target: 1M within 2x of 1k. The fromId lookup has no read-only operation, so it is measured through the receive endpoint, which also stores each message (the same work at both sizes).`,
    "",
    "| Lookup | µs per request, 1k | µs per request, 1M | 1M / 1k |",
    "|---|---:|---:|---:|",
    ...rows.map((r) => `| ${r.lookup} | ${r.microsecondsAt1k.toFixed(1)} | ${r.microsecondsAt1M.toFixed(1)} | ${r.ratio.toFixed(2)} |`),
    "",
    "| Contacts stored | Seeded in | Heap per contact |",
    "|---:|---:|---:|",
    ...stores.map((s) => `| ${s.n.toLocaleString("en")} | ${s.seedSeconds.toFixed(1)} s | ${s.n >= 100_000 ? `${Math.round(s.bytesPerContact)} bytes` : "(too small to measure)"} |`),
    "",
    `Heap per contact is the heap growth from seeding (after GC), less the ${(fixedBytes / 1024 / 1024).toFixed(1)} MiB a server takes with no contacts, divided by the contacts: the @mswjs/data record, the indexes by id, phone, email and fromId, and the account's contact list. Each contact here has a phone, an email, a fromId and two names. At 1,000 contacts the growth is within the heap's noise.`,
    "",
    "Reproduce: `npm run bench:lookups` (raw figures in lookups.json).",
    "",
  ].join("\n");
  await writeFile(new URL("results/lookups.md", import.meta.url), md);
  await writeFile(new URL("results/lookups.json", import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  console.log(md);
}

await main();
