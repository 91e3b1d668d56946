/**
 * Long lists of bad entries against the same lists of good ones: `PUT /__admin/snapshot` with
 * RECORDS (200,000) contact records, once all valid (the load) and once each `{}` (refused,
 * 400), and `POST /__admin/seed` with as many contacts, each refused for its firstName. Each is
 * sent ROUNDS (3) times to a server in this process (createIntake, its body limit raised for the
 * valid snapshot's size), the kinds taking turns; the figure is the median time to the answer.
 * The target (issue 50): the bad records refused within the time the good ones take to load.
 *
 * Run: npm run bench:lists   (writes bench/results/long-lists.{md,json}; RECORDS, ROUNDS to change)
 */
import { createIntake, type Snapshot } from "@intake/server";
import { fmt, verdict } from "./support/figures.js";
import { median } from "./support/load.js";
import { runLine, writeReport } from "./support/report.js";

const RECORDS = Number(process.env.RECORDS ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TOKEN = "adm_bench_long_lists_0000001";
const log = (line: string) => console.log(line);

const intake = createIntake({
  adminToken: TOKEN,
  rateLimit: 0,
  maxBodyBytes: 1024 * 2 ** 20,
  seed: { accounts: [{ id: "acc_bench", name: "Bench", apiKey: "ik_test_bench_0000000000001" }] },
});
const admin = async (method: string, path: string, body: string) => {
  const started = performance.now();
  const response = await intake.fetch(
    new Request(`https://127.0.0.1/__admin${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body,
    }),
  );
  const answer = (await response.json()) as { error?: { message: string } };
  return { status: response.status, ms: performance.now() - started, message: answer.error?.message ?? "" };
};

const empty = (await (
  await intake.fetch(new Request("https://127.0.0.1/__admin/snapshot", { headers: { authorization: `Bearer ${TOKEN}` } }))
).json()) as Snapshot;
const at = empty.savedAt;
const contact = (i: number) => ({
  ...{
    id: `ct_${i}`,
    accountId: "acc_bench",
    phone: `+1415${String(i).padStart(7, "0")}`,
    email: null,
    firstName: `Lead ${i}`,
    lastName: null,
    customFields: "{}",
  },
  ...{ fromId: null, customChannel: null, botPaused: false, campaignId: null, createdAt: at },
});
const bodies = {
  "snapshot, valid records (loaded)": JSON.stringify({
    ...empty,
    records: { ...empty.records, contact: Array.from({ length: RECORDS }, (_, i) => contact(i)) },
  }),
  "snapshot, records `{}` (refused)": JSON.stringify({
    ...empty,
    records: { ...empty.records, contact: Array.from({ length: RECORDS }, () => ({})) },
  }),
  "seed, contacts with a number for firstName (refused)": JSON.stringify({
    accounts: [
      {
        id: "acc_many",
        name: "Many",
        apiKey: "ik_test_many_000000000001",
        contacts: Array.from({ length: RECORDS }, () => ({ firstName: 5 })),
      },
    ],
  }),
};
const sends: Record<keyof typeof bodies, [string, string, number]> = {
  "snapshot, valid records (loaded)": ["PUT", "/snapshot", 200],
  "snapshot, records `{}` (refused)": ["PUT", "/snapshot", 400],
  "seed, contacts with a number for firstName (refused)": ["POST", "/seed", 400],
};
const times = Object.fromEntries(Object.keys(bodies).map((kind) => [kind, [] as number[]])) as Record<keyof typeof bodies, number[]>;
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of Object.keys(bodies) as (keyof typeof bodies)[]) {
    const [method, path, status] = sends[kind];
    const answer = await admin(method, path, bodies[kind]);
    if (answer.status !== status) throw new Error(`${kind}: answered ${answer.status}, not ${status}: ${answer.message}`);
    times[kind].push(answer.ms);
    log(`${kind}: ${fmt(answer.ms)} ms${answer.message ? ` (${answer.message.slice(0, 80)})` : ""}`);
  }
}
const loaded = median(times["snapshot, valid records (loaded)"]);
const refusedWithin = Object.entries(times).every(([kind, ms]) => kind.includes("loaded") || median(ms) <= loaded);
const markdown = `# Long lists of bad entries

${runLine()}. ${fmt(RECORDS)} contact records in each body, sent ${ROUNDS} times to createIntake in this process
(\`npm run bench:lists\`), the kinds taking turns; the figure is the median time from the request to its answer, read whole.
Target: the bad records refused within the time the good ones take to load: **${verdict(refusedWithin)}**.

| Body | Answer | Median, ms | Each, ms |
|---|---|---:|---|
${(Object.keys(bodies) as (keyof typeof bodies)[]).map((kind) => `| ${kind} | ${sends[kind][2]} | ${fmt(median(times[kind]))} | ${times[kind].map((t) => fmt(t)).join(", ")} |`).join("\n")}
`;
const refused = median(times["snapshot, records `{}` (refused)"]);
const checks = [
  {
    what: `${fmt(RECORDS)} snapshot records \`{}\` refused, against ${fmt(RECORDS)} valid ones loaded (median)`,
    value: `${fmt(refused)} ms against ${fmt(loaded)} ms`,
    target: "refused within the load's time",
    met: refusedWithin,
  },
];
await writeReport("long-lists", markdown, { records: RECORDS, rounds: ROUNDS, times, checks });
process.exit(0);
