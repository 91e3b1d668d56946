/**
 * What the data file (--data-file, SQLite written through before each answer) costs
 * `intake-server` as users run it (the built CLI, HTTPS), against the same server in memory:
 *
 * 1. creates answered per second (POST /contacts, a new phone each time; autocannon, 10
 *    connections, as bench/http.ts) with a data file at the default durability (full) and at
 *    `--durability normal`, and in memory, the three taking turns round by round;
 * 2. while creating contacts into a data file that already holds CONTACTS contacts, the p99 answer
 *    time (the target), and the longest gap between two answers and the longest answer, reported
 *    (beside the in-memory server holding as many);
 * 3. the time from spawning the CLI to its "listening" line, with a data file holding CONTACTS
 *    contacts and MESSAGES messages in their conversations; and PRAGMA quick_check's on that file.
 *
 * The large files are written with the server's own data-file module (bench/support/data-file.ts).
 *
 * Run: npm run bench:durability   (writes bench/results/durability.{md,json}; ROUNDS, SECONDS for
 * throughput, PAUSE_SECONDS for the gaps, STARTS; CONTACTS and MESSAGES to try it at a smaller size)
 */
import { execFileSync } from "node:child_process";
import { closeSync, copyFileSync, fsyncSync, openSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Agent, fetch } from "undici";
import { processMemory } from "./support/cpu.js";
import { buildDataFile, type BuiltDataFile, type Message } from "./support/data-file.js";
import { figure, fmt, fmtOrNa, percent, roundsAbout, verdict } from "./support/figures.js";
import {
  alternate,
  answerTimes,
  CONNECTIONS,
  load,
  median,
  mediansOf,
  rateRatio,
  schedule,
  serverCpuMicros,
  type Samples,
} from "./support/load.js";
import { runLine, writeReport } from "./support/report.js";
import { routes, STORED } from "./support/routes.js";
import { benchSeed } from "./support/seed.js";
import { startCli, startTarget, type CliTarget, type Target } from "./support/targets.js";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 3);
const PAUSE_ROUNDS = Number(process.env.PAUSE_ROUNDS ?? 3);
const PAUSE_SECONDS = Number(process.env.PAUSE_SECONDS ?? 10);
const STARTS = Number(process.env.STARTS ?? 3);
const FULL = { contacts: 200_000, messages: 1_000_000 };
const CONTACTS = Number(process.env.CONTACTS ?? FULL.contacts);
const MESSAGES = Number(process.env.MESSAGES ?? FULL.messages);
const reduced = CONTACTS < FULL.contacts || MESSAGES < FULL.messages;

/** The targets (issue 26). */
const TARGET = { ratio: 0.5, p99Ms: 20, startS: 10 };

const create = routes.find((r) => r.name.startsWith("create contact"))!;
const IN_MEMORY = "in memory";
const FULL_FILE = "data file, --durability full (the default)";
const NORMAL_FILE = "data file, --durability normal";
const log = (line: string) => console.log(line);

const dir = await mkdtemp(join(tmpdir(), "intake-bench-durability-"));
const running: Target[] = [];
const started = async <T extends Target>(target: Promise<T>) => {
  const t = await target;
  running.push(t);
  return t;
};
const stopAll = async () => void (await Promise.all(running.splice(0).map((t) => t.stop())));
try {
  const throughput = await measureThroughput();
  await stopAll();
  const pauses = await measurePauses();
  await stopAll();
  const start = await measureStart();
  await stopAll();
  await report(throughput, pauses, start);
} finally {
  await stopAll();
  await rm(dir, { recursive: true, force: true });
}

// 1. Creates per second -------------------------------------------------------------------------

async function measureThroughput(): Promise<Samples> {
  // The servers of bench/http.ts: 1,000 contacts and 1,000 lists at the start.
  const seed = join(dir, "seed.json");
  await writeFile(seed, JSON.stringify(benchSeed(STORED, STORED)));
  const targets = [
    await started(startCli(IN_MEMORY, ["--seed", seed])),
    await started(startCli(FULL_FILE, ["--seed", seed, "--data-file", join(dir, "full.db")])),
    await started(startCli(NORMAL_FILE, ["--seed", seed, "--data-file", join(dir, "normal.db"), "--durability", "normal"])),
  ];
  return alternate(targets, [create], { rounds: ROUNDS, seconds: SECONDS, warmupSeconds: 1, log });
}

// 2. Gaps between answers ---------------------------------------------------------------------

interface PauseSample {
  answers: number;
  requestsPerSecond: number;
  /** The longest time between two answers (to any connection), in ms. */
  longestGapMs: number;
  /** The longest answer, in ms. */
  maxLatencyMs: number;
  p99: number;
  non2xx: number;
  errors: number;
  stolen?: number;
}

/** `seconds` of creates, timing each answer as it arrives (answerTimes in bench/support/load.ts). */
async function answersWhileCreating(target: Target, seconds: number): Promise<PauseSample> {
  const times = answerTimes();
  const { requests, requestsPerSecond, p99, non2xx, errors, stolen } = await load(target, create, seconds, { onAnswer: times.onAnswer });
  const { longestGapMs, maxLatencyMs } = times;
  return {
    answers: requests,
    requestsPerSecond,
    longestGapMs,
    maxLatencyMs,
    p99,
    non2xx,
    errors,
    ...(stolen === undefined ? {} : { stolen }),
  };
}

interface Pauses {
  file: BuiltDataFile;
  samples: Record<string, PauseSample[]>;
  names: { file: string; normal: string; memory: string };
}

async function measurePauses(): Promise<Pauses> {
  const path = join(dir, "contacts.db");
  const file = await buildDataFile(path, CONTACTS, 0);
  log(`a data file of ${fmt(CONTACTS)} contacts built in ${fmt(file.buildMs / 1000, 1)} s (${fmt(file.bytes / 2 ** 20)} MiB)`);
  const normalPath = join(dir, "contacts-normal.db");
  copyFileSync(path, normalPath);
  // On the disk, as a file a server restarts on is: else the first checkpoint's flush writes out
  // the whole file just built, a pause no user sees.
  for (const built of [path, normalPath]) flushToDisk(built);
  const names = {
    file: `data file of ${fmt(CONTACTS)} contacts`,
    normal: `data file of ${fmt(CONTACTS)} contacts, --durability normal`,
    memory: `in memory, ${fmt(CONTACTS)} contacts seeded`,
  };
  const targets = [
    await started(startCli(names.file, ["--data-file", path])),
    await started(startCli(names.normal, ["--data-file", normalPath, "--durability", "normal"])),
    // No CLI --seed: it reads JSON with the YAML parser, which takes long at this size.
    await started(startTarget("intake-https", { name: names.memory, contacts: CONTACTS })),
  ];
  const samples: Record<string, PauseSample[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (const target of targets) await load(target, create, 1);
  for (const { target, round } of schedule([create], targets, PAUSE_ROUNDS)) {
    const sample = await answersWhileCreating(target, PAUSE_SECONDS);
    samples[target.name]!.push(sample);
    log(
      `${target.name} | round ${round + 1}: ${fmt(sample.answers)} answers, longest gap ${fmt(sample.longestGapMs, 1)} ms, longest answer ${fmt(sample.maxLatencyMs, 1)} ms${sample.stolen === undefined ? "" : `, host took ${percent(sample.stolen)}`}`,
    );
  }
  return { file, samples, names };
}

// 3. Start ----------------------------------------------------------------------------------

interface StartRun {
  ms: number;
  /** The same CLI's start with no data file and nothing stored, just before. */
  emptyMs: number;
  /** The server's resident memory once listening, and its peak until then (bytes). */
  rss?: number;
  peakRss?: number;
  /** Milliseconds from SIGTERM to its exit. */
  stopMs: number;
}

interface Start {
  file: BuiltDataFile;
  quickCheck: { result: string; coldMs?: number; warmMs: number };
  runs: StartRun[];
  conversation: { contactId: string; expected: number; loaded: number; same: boolean };
}

async function measureStart(): Promise<Start> {
  const path = join(dir, "conversations.db");
  const file = await buildDataFile(path, CONTACTS, MESSAGES);
  log(
    `a data file of ${fmt(CONTACTS)} contacts and ${fmt(MESSAGES)} messages built in ${fmt(file.buildMs / 1000, 1)} s (${fmt(file.bytes / 2 ** 20)} MiB)`,
  );
  const quickCheck = timeQuickCheck(path);
  log(
    `PRAGMA quick_check: ${quickCheck.result}, ${quickCheck.coldMs === undefined ? "" : `${fmt(quickCheck.coldMs)} ms from the disk, `}${fmt(quickCheck.warmMs)} ms from the page cache`,
  );
  const runs: StartRun[] = [];
  let conversation: Start["conversation"] | undefined;
  for (let i = 0; i < STARTS; i++) {
    const empty = await started(startCli(`start ${i + 1}, nothing stored`, []));
    await empty.stop();
    running.splice(running.indexOf(empty), 1);
    const server = await started(startCli(`start ${i + 1}`, ["--data-file", path]));
    const memory = await processMemory(server.pid!);
    conversation ??= await loadedConversation(server, file.sample);
    const stopping = performance.now();
    await server.stop();
    running.splice(running.indexOf(server), 1);
    runs.push({
      ms: server.startMs,
      emptyMs: empty.startMs,
      ...(memory ? { rss: memory.rss, peakRss: memory.peak } : {}),
      stopMs: performance.now() - stopping,
    });
    log(
      `start ${i + 1}: listening after ${fmt(server.startMs / 1000, 2)} s (${fmt(empty.startMs / 1000, 2)} s with nothing stored)${memory ? `, ${fmt(memory.rss / 2 ** 20)} MiB resident (peak ${fmt(memory.peak / 2 ** 20)} MiB)` : ""}`,
    );
  }
  return { file, quickCheck, runs, conversation: conversation! };
}

/** PRAGMA quick_check on the file, read from the disk (where the file can be dropped from the page cache) and from the cache. */
function timeQuickCheck(path: string): Start["quickCheck"] {
  const check = () => {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const before = performance.now();
      const result = (db.pragma("quick_check", { simple: true }) as string) ?? "";
      return { result, ms: performance.now() - before };
    } finally {
      db.close();
    }
  };
  let coldMs: number | undefined;
  try {
    // Written pages reach the disk, then GNU dd drops the file from the page cache.
    flushToDisk(path);
    execFileSync("dd", [`if=${path}`, "iflag=nocache", "count=0", "status=none"]);
    coldMs = check().ms;
  } catch {
    coldMs = undefined;
  }
  const warm = check();
  return { result: warm.result, ...(coldMs === undefined ? {} : { coldMs }), warmMs: warm.ms };
}

/** The sample contact's conversation as the started server serves it (GET /__admin/contacts/{id}), against what the file holds. */
async function loadedConversation(server: CliTarget, sample: BuiltDataFile["sample"]): Promise<Start["conversation"]> {
  const dispatcher = new Agent({ connect: { ca: server.certificate } });
  try {
    const response = await fetch(`${server.listening.adminUrl}/contacts/${sample.contactId}`, {
      headers: { authorization: `Bearer ${server.listening.adminToken}` },
      dispatcher,
    });
    if (!response.ok) throw new Error(`GET /__admin/contacts/${sample.contactId} answered ${response.status}: ${await response.text()}`);
    const { messages } = (await response.json()) as { messages: Message[] };
    return {
      contactId: sample.contactId,
      expected: sample.messages.length,
      loaded: messages.length,
      same: JSON.stringify(messages) === JSON.stringify(sample.messages),
    };
  } finally {
    await dispatcher.close();
  }
}

// Report ------------------------------------------------------------------------------------

async function report(samples: Samples, pauses: Pauses, start: Start) {
  const route = create.name;
  const med = mediansOf(samples);
  const ratioOf = (name: string) => rateRatio(samples, route, name, IN_MEMORY);
  const meetsRatio = (ratio: number) => ratio >= TARGET.ratio;
  const meetsP99 = (ms: number) => ms <= TARGET.p99Ms;
  const meetsStart = (s: number) => s <= TARGET.startS;
  const full = ratioOf(FULL_FILE);
  const normal = ratioOf(NORMAL_FILE);
  const filePauses = pauses.samples[pauses.names.file]!;
  const memoryPauses = pauses.samples[pauses.names.memory]!;
  const gaps = (all: PauseSample[]) => all.map((s) => s.longestGapMs);
  const longest = (all: PauseSample[]) => all.map((s) => s.maxLatencyMs);
  const p99s = (all: PauseSample[]) => all.map((s) => s.p99);
  const ms = (value: number) => `${figure(value, meetsP99, 1)} ms`;
  const startS = median(start.runs.map((r) => r.ms / 1000));
  const sizes = `${fmt(CONTACTS)} contacts and ${fmt(MESSAGES)} messages`;

  const checks = [
    {
      what: "creates a second: data file (durability full) / in memory",
      value: figure(full.ratio, meetsRatio),
      target: `≥ ${TARGET.ratio}`,
      met: meetsRatio(full.ratio),
      ratio: full.ratio,
      rounds: roundsAbout(full.rounds, meetsRatio, (v) => figure(v, meetsRatio)),
    },
    {
      what: `p99 answer time, creating into a data file of ${fmt(CONTACTS)} contacts`,
      value: ms(median(p99s(filePauses))),
      target: `≤ ${TARGET.p99Ms} ms`,
      met: meetsP99(median(p99s(filePauses))),
      rounds: roundsAbout(p99s(filePauses), meetsP99, ms),
    },
    {
      what: `start with a data file of ${sizes}`,
      value: `${figure(startS, meetsStart, 1)} s`,
      target: `≤ ${TARGET.startS} s`,
      met: meetsStart(startS),
      rounds: roundsAbout(
        start.runs.map((r) => r.ms / 1000),
        meetsStart,
        (s) => `${figure(s, meetsStart, 1)} s`,
      ),
    },
  ];

  const throughputRows = [IN_MEMORY, FULL_FILE, NORMAL_FILE].map((name) => {
    const all = samples[route]![name]!;
    const errors = all.reduce((total, s) => total + s.non2xx + s.errors, 0);
    const ratio = name === IN_MEMORY ? "1" : fmt(ratioOf(name).ratio, 2);
    return `| ${name} | ${fmt(med(route, name, (s) => s.requestsPerSecond))} | ${ratio} | ${med(route, name, (s) => s.p50)} | ${med(route, name, (s) => s.p99)} | ${fmtOrNa(med(route, name, serverCpuMicros), 1)} | ${errors} |`;
  });
  const pauseRows = [pauses.names.file, pauses.names.normal, pauses.names.memory].map((name) => {
    const all = pauses.samples[name]!;
    const each = (values: number[]) => values.map((v) => fmt(v, 1)).join(", ");
    return `| ${name} | ${each(p99s(all))} | ${each(gaps(all))} | ${each(longest(all))} | ${fmt(median(all.map((s) => s.requestsPerSecond)))} | ${all.reduce((t, s) => t + s.non2xx + s.errors, 0)} |`;
  });
  const mib = (bytes: number | undefined) => (bytes === undefined ? "n/a" : `${fmt(bytes / 2 ** 20)} MiB`);
  const startRows = start.runs.map(
    (r, i) =>
      `| ${i + 1} | ${fmt(r.ms / 1000, 2)} | ${fmt(r.emptyMs / 1000, 2)} | ${mib(r.rss)} | ${mib(r.peakRss)} | ${fmt(r.stopMs / 1000, 2)} |`,
  );
  const { quickCheck, conversation } = start;

  const markdown = `# The data file: throughput, pauses and start${reduced ? ` (reduced: ${sizes}, not ${fmt(FULL.contacts)} and ${fmt(FULL.messages)})` : ""}

${runLine()}. \`intake-server\` as users run it: the built CLI (\`packages/server/dist/cli.js\`, HTTPS, rate
limit off), each server in its own process, with a data file (\`--data-file\`, SQLite in WAL mode, each
turn's changes committed before its answers) or without one (in memory). Loads are autocannon's, ${CONNECTIONS}
connections, from the benchmark's process; creates are POST /contacts with a new phone number each time.

## Targets

| Check | Measured | Each round | Target | |
|---|---:|---|---:|---|
${checks.map((c) => `| ${c.what} | ${c.value} | ${c.rounds} | ${c.target} | ${verdict(c.met)} |`).join("\n")}

## Creates a second, with a data file and in memory

Three servers holding ${fmt(STORED)} contacts and ${fmt(STORED)} lists at the start (the seed of http.md), taking
turns: ${ROUNDS} rounds of ${SECONDS} s each, after a 1 s warm-up; medians. \`--durability full\` (the default) has
SQLite flush each commit to the disk (\`PRAGMA synchronous = FULL\`), \`normal\` leaves that to the
operating system (a commit survives the server's crash, not the machine's).

| Server | creates/s (median) | / in memory | p50 ms | p99 ms | server CPU µs a create | non-2xx + errors |
|---|---:|---:|---:|---:|---:|---:|
${throughputRows.join("\n")}

Each round's ratio to the server in memory: full ${full.rounds.map((r) => fmt(r, 2)).join(", ")}; normal ${normal.rounds.map((r) => fmt(r, 2)).join(", ")}.

## Pauses while writing at ${fmt(CONTACTS)} contacts

A server started on a data file already holding ${fmt(CONTACTS)} contacts (built in ${fmt(pauses.file.buildMs / 1000, 1)} s,
${mib(pauses.file.bytes)}), one on a copy of it with \`--durability normal\`, and, for context, the server in
memory seeded with as many (\`intake-https\` of bench/support/target.ts; the CLI's \`--seed\` reads JSON
with its YAML parser, slow at this size). ${PAUSE_ROUNDS} rounds of ${PAUSE_SECONDS} s of creates each, the three taking
turns, after a 1 s warm-up. In each round: the p99 answer time (autocannon's, whole milliseconds), which
the check takes (the median of the rounds); and, reported with no target, the longest time between two
answers arriving (to any of the connections: the server stalled, or the load generator did) and the
longest answer, both from the moment every connection had its first answer, so connecting is not
counted. The longest gap is bound by the garbage collection of the heap holding the contacts, not by
the server's own code: it is reported, not chased. Each round is given in order.

| Server | p99 answer, ms, each round | longest gap, ms, each round | longest answer, ms, each round | creates/s (median) | non-2xx + errors |
|---|---|---|---|---:|---:|
${pauseRows.join("\n")}

In memory, the same load's longest gap was ${fmt(median(gaps(memoryPauses)), 1)} ms and its longest answer ${fmt(median(longest(memoryPauses)), 1)} ms (medians of
the rounds): what this machine and load generator give with no data file.${
    median(gaps(filePauses)) <= median(gaps(memoryPauses))
      ? ""
      : `

Where the data file's pauses were looked into (the server's garbage collections observed through
perf_hooks, and its SQLite transactions timed, on a calm machine), the longest were major garbage
collections of the heap that holds the contacts, which the server in memory has too; the data
file's server allocates more for each write (each record's JSON), so it collects more often. Its
commits wait for SQLite (better-sqlite3 is synchronous): a flush to the disk for each one (full),
and, every 1,000 pages of WAL, a checkpoint that copies them into the database and flushes it;
those were shorter.`
  }

## Start with ${sizes}

The data file holds ${fmt(CONTACTS)} contacts (the bench seed's, with sender ids) and ${fmt(MESSAGES)} messages,
received and sent in turn, spread evenly over the contacts' conversations (built in ${fmt(start.file.buildMs / 1000, 1)} s,
${mib(start.file.bytes)}). Each start is the time from spawning the CLI to its "listening" line; the
file is in the operating system's page cache (the benchmark just wrote or read it). Before each,
the same CLI started with no data file and nothing stored (loading its code, making its
certificate): what any start costs. The server's resident memory is read from /proc once it
listens; its peak is the highest until then.

| Start | seconds | nothing stored, s | resident | peak resident | stop (SIGTERM to exit), s |
|---|---:|---:|---:|---:|---:|
${startRows.join("\n")}
${
  meetsStart(startS)
    ? ""
    : `
Where the start was looked into (a \`--cpu-prof\` profile of one), most of it went to reading the
rows and parsing each one's JSON (\`readState\` and \`parseRow\` in data-file.ts), to the garbage collector,
and to adding each record to the store's indexes (\`fill\` in store/table.ts). Reading the rows in
batches with \`.all()\` instead of \`iterate()\` was tried apart from this benchmark: no faster.
`
}
The conversation of ${conversation.contactId}, as GET /__admin/contacts/${conversation.contactId} served it after the first start:
${conversation.loaded} messages of ${conversation.expected} in the file${conversation.same ? ", identical to them and in their order" : ": **not the file's messages**"}.

\`PRAGMA quick_check\` on that file (the server runs it at start, included in the starts above, after reading the file through once): ${quickCheck.result}, in
${quickCheck.coldMs === undefined ? "" : `${fmt(quickCheck.coldMs / 1000, 2)} s with the file first dropped from the page cache (\`dd iflag=nocache\`) and `}${fmt(quickCheck.warmMs / 1000, 2)} s from the page cache.

Reproduce: \`npm run bench:durability\` (raw figures in durability.json).
`;
  await writeReport("durability", markdown, {
    sizes: { contacts: CONTACTS, messages: MESSAGES, reduced },
    rounds: ROUNDS,
    seconds: SECONDS,
    pauseRounds: PAUSE_ROUNDS,
    pauseSeconds: PAUSE_SECONDS,
    connections: CONNECTIONS,
    checks,
    throughput: { full: full.ratio, normal: normal.ratio, samples },
    pauses: { file: { bytes: pauses.file.bytes, buildMs: pauses.file.buildMs }, samples: pauses.samples },
    start: { file: { bytes: start.file.bytes, buildMs: start.file.buildMs }, runs: start.runs, conversation, quickCheck },
  });
  console.log(checks.map((c) => `${c.what}: ${c.value} (${c.target}) ${verdict(c.met)}`).join("\n"));
  console.log(`creates a second: data file (durability normal) / in memory: ${fmt(normal.ratio, 2)}`);
}

function flushToDisk(path: string) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
