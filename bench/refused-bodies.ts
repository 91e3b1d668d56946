/**
 * Refused large bodies: REQUESTS (1,000) `POST /v1/contacts?apiKey=<valid key>`, each a JSON body
 * with a firstName of BODY_MB (30) million characters, which the contract refuses (400); sent on
 * CONNECTIONS (4) connections at once over HTTPS, while one subscriber reads the live events (as a
 * dashboard would). The server is the CLI as users start it, with a heap of HEAP_MB (512).
 *
 * It checks that the server lives and answers every request 400, and that its heap after full
 * collections at the end is within 10% of the figure at the start: nothing of a refused body is
 * kept beyond its answer. The start is read once 1,000 refused bodies of 100,000 characters have
 * filled what the server keeps of recent requests by design (the journal and the live events'
 * replay, 1,000 each, a note in place of each body over 65,536 characters); the heap with nothing
 * sent is reported beside it. The heap is read by the probe preloaded into the server
 * (support/heap-probe.mjs, `--expose-gc`): there is no other way to force a collection in it from
 * outside. It collects twice and writes the heap on SIGUSR2, and samples it twice a second.
 *
 * Run: npm run bench:refused   (writes bench/results/refused-bodies.{md,json}; REQUESTS, BODY_MB,
 * CONNECTIONS, HEAP_MB to try it at another size)
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAdminClient } from "@intake/server";
import { Agent, fetch } from "undici";
import { fmt, percent } from "./support/figures.js";
import { runLine, writeReport } from "./support/report.js";
import { BENCH_KEY, benchSeed } from "./support/seed.js";
import { startProbedCli } from "./support/probed-cli.js";
import type { CliTarget } from "./support/targets.js";

const FULL = 1000;
const REQUESTS = Number(process.env.REQUESTS ?? FULL);
const BODY_MB = Number(process.env.BODY_MB ?? 30);
/** What fills the journal and the replay first: as many requests as they keep, each body over the note's bound. */
const WARM_UP = 1000;
const WARM_UP_CHARS = 100_000;
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 4);
const HEAP_MB = Number(process.env.HEAP_MB ?? 512);
/** How far the heap at the end may be from the heap at the start. */
const WITHIN = 0.1;
const log = (line: string) => console.log(line);
const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 1)} MiB`;

const dir = await mkdtemp(join(tmpdir(), "intake-bench-refused-"));
let server: CliTarget | undefined;
try {
  await writeFile(join(dir, "seed.json"), JSON.stringify(benchSeed(0)));
  const probed = await startProbedCli("refused-bodies", ["--seed", join(dir, "seed.json")], { heapMb: HEAP_MB, dir });
  server = probed.server;
  const { alive, heapLines, heapAfterGc } = probed;

  const dispatcher = new Agent({ connect: { ca: server.certificate }, connections: CONNECTIONS + 2 });
  const admin = createAdminClient({
    adminUrl: server.listening.adminUrl,
    token: server.listening.adminToken,
    fetch: (request) => globalThis.fetch(request, { dispatcher } as RequestInit),
  });
  const subscription = await admin.events();
  let refusedEvents = 0;
  const reading = (async () => {
    for await (const { event } of subscription) if (event.type === "request.answered" && event.status === 400) refusedEvents++;
  })();

  /** Sends `count` creates of this firstName's length on CONNECTIONS connections: how many got each status (or error), and the seconds it took. */
  const sendAll = async (firstNameChars: number, count: number) => {
    // One body for every request: the server gets a new copy of it each time.
    const body = Buffer.from(JSON.stringify({ phone: "+14155550100", firstName: "n".repeat(firstNameChars) }));
    const statuses = new Map<number | string, number>();
    let sent = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (sent < count) {
          sent++;
          let status: number | string;
          try {
            const response = await fetch(`${server!.base}/contacts?apiKey=${BENCH_KEY}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body,
              dispatcher,
            });
            await response.arrayBuffer();
            status = response.status;
          } catch (error) {
            status = (error as Error).message;
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (sent % 100 === 0 && count === REQUESTS) log(`${fmt(sent)} sent, ${fmt((performance.now() - started) / 1000, 1)} s`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    log(`${fmt(count)} sent in ${fmt(seconds, 1)} s: ${[...statuses].map(([s, n]) => `${fmt(n)} ${s}`).join(", ")}`);
    return { statuses, seconds, bodyBytes: body.byteLength };
  };

  const empty = await heapAfterGc();
  log(`server listening; heap after a collection ${mib(empty.heapUsed)}, resident ${mib(empty.rss)}`);
  const warmUp = await sendAll(WARM_UP_CHARS, WARM_UP);
  const start = await heapAfterGc();
  log(`journal and replay full; heap after a collection ${mib(start.heapUsed)}, resident ${mib(start.rss)}`);
  const { statuses, seconds, bodyBytes } = await sendAll(BODY_MB * 1_000_000, REQUESTS);
  const refused = statuses.get(400) ?? 0;

  const lives = alive();
  if (!lives) throw new Error("The server died.");
  // It still answers: a create that is valid.
  const after = await fetch(`${server.base}/contacts?apiKey=${BENCH_KEY}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone: "+14155550101", firstName: "After" }),
    dispatcher,
  });
  await after.arrayBuffer();
  const answers = after.status === 201 || after.status === 200;
  const journal = await admin.journal({ status: 400 });
  const noted = journal.filter((entry) => (entry.requestBody as { truncated?: boolean } | null)?.truncated === true).length;
  const journalChars = JSON.stringify(journal).length;
  await new Promise((r) => setTimeout(r, 500));
  subscription.close();
  await reading;

  const end = await heapAfterGc();
  const lines = await heapLines();
  const peakHeap = lines.reduce((max, l) => Math.max(max, l.heapUsed), 0);
  const peakRss = lines.reduce((max, l) => Math.max(max, l.rss), 0);
  const change = end.heapUsed / start.heapUsed - 1;
  const fromEmpty = end.heapUsed / empty.heapUsed - 1;
  const signed = (share: number) => `${share >= 0 ? "+" : ""}${percent(share)}`;
  const within = Math.abs(change) <= WITHIN;
  log(`heap after a collection at the end ${mib(end.heapUsed)} (${signed(change)} from the start), resident ${mib(end.rss)}`);

  const result = {
    requests: REQUESTS,
    bodyMb: BODY_MB,
    bodyBytes,
    connections: CONNECTIONS,
    heapLimitMb: HEAP_MB,
    seconds,
    statuses: Object.fromEntries(statuses),
    warmUp: { requests: WARM_UP, firstNameChars: WARM_UP_CHARS, seconds: warmUp.seconds, statuses: Object.fromEntries(warmUp.statuses) },
    refusedEvents,
    journalEntriesWithNote: noted,
    journalJsonChars: journalChars,
    heap: {
      emptyBytes: empty.heapUsed,
      startBytes: start.heapUsed,
      endBytes: end.heapUsed,
      change,
      changeFromEmpty: fromEmpty,
      peakBytes: peakHeap,
    },
    rss: { emptyBytes: empty.rss, startBytes: start.rss, endBytes: end.rss, peakBytes: peakRss },
    checks: [
      {
        what: `the server lives through ${fmt(REQUESTS)} refused ${BODY_MB} MB bodies (512 MB heap), each answered 400, and answers after`,
        value: `${lives && answers ? "yes" : "no"}; ${fmt(refused)} of ${fmt(REQUESTS)}`,
        target: `yes; ${fmt(REQUESTS)} of ${fmt(REQUESTS)}`,
        met: lives && answers && refused === REQUESTS,
      },
      {
        what: `heap after a collection, after the ${BODY_MB} MB bodies against before them`,
        value: signed(change),
        target: `within ${percent(WITHIN, 0)}`,
        met: within,
      },
    ],
  };
  const scale = REQUESTS < FULL ? ` (reduced scale: REQUESTS=${REQUESTS})` : "";
  const md = [
    `# Refused large bodies: ${fmt(REQUESTS)} requests of ${BODY_MB} MB${scale}`,
    "",
    `${runLine()}. \`intake-server\` (dist/cli.js, HTTPS, \`--rate-limit 0 --log quiet\`) started with \`node --max-old-space-size=${HEAP_MB} --expose-gc\` and a probe preloaded (bench/support/heap-probe.mjs) that collects twice and writes the heap on SIGUSR2: there is no way to force a collection in the server from outside. ${fmt(REQUESTS)} \`POST /v1/contacts?apiKey=<valid key>\`, each a JSON body of ${fmt(bodyBytes)} bytes whose firstName is ${fmt(BODY_MB * 1_000_000)} characters (the contract allows 200, so each is refused 400), sent on ${CONNECTIONS} connections at once, while one subscriber reads \`GET /__admin/events\`. The heap is read after collections once the server listens (nothing sent); once ${fmt(WARM_UP)} refused bodies of ${fmt(WARM_UP_CHARS)} characters have filled what it keeps of recent requests by design, the journal and the live events' replay (${fmt(WARM_UP)} each, a body over 65,536 characters as a note of its length), which is the start; and once every ${BODY_MB} MB body is answered and the subscriber gone (the end). Target: the server lives, and the heap at the end is within ${percent(WITHIN, 0)} of the start.`,
    "",
    "| | |",
    "|---|---:|",
    `| Answers | ${[...statuses].map(([s, n]) => `${fmt(n)} ${s}`).join(", ")} of ${fmt(REQUESTS)}, in ${fmt(seconds, 1)} s (${fmt((REQUESTS * bodyBytes) / 2 ** 20 / seconds, 0)} MiB/s) |`,
    `| The server lives / answers a valid create after | ${lives ? "yes" : "no"} / ${answers ? "yes" : `no (${after.status})`} |`,
    `| \`request.answered\` events with status 400 the subscriber read | ${fmt(refusedEvents)} |`,
    `| Journal entries whose body is the note \`{"truncated": true, "characters": n}\` / the journal's JSON | ${fmt(noted)} of ${fmt(journal.length)} / ${fmt(journalChars)} characters |`,
    `| Warm-up: ${fmt(WARM_UP)} refused bodies of ${fmt(WARM_UP_CHARS)} characters | ${[...warmUp.statuses].map(([s, n]) => `${fmt(n)} ${s}`).join(", ")}, in ${fmt(warmUp.seconds, 1)} s |`,
    `| Heap after a collection: nothing sent / journal and replay full (the start) / end | ${mib(empty.heapUsed)} / ${mib(start.heapUsed)} / ${mib(end.heapUsed)} |`,
    `| Heap at the end against the start / against nothing sent | ${signed(change)} / ${signed(fromEmpty)} |`,
    `| Heap at its highest (sampled, garbage included) | ${mib(peakHeap)} |`,
    `| Resident: nothing sent / start / highest (sampled) / end | ${mib(empty.rss)} / ${mib(start.rss)} / ${mib(peakRss)} / ${mib(end.rss)} |`,
    "",
    `Reproduce: \`npm run bench:refused\` (raw figures in refused-bodies.json; REQUESTS, BODY_MB, CONNECTIONS, HEAP_MB for another run).`,
    "",
  ].join("\n");
  await writeReport("refused-bodies", md, result);
  console.log(md);
  if (!result.checks.every((c) => c.met)) process.exitCode = 1;
} finally {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
}
