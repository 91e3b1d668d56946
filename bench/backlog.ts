/**
 * A backlog of reply webhooks: MESSAGES received messages (150,000 by default), each answered by
 * the bot of a Live Combined campaign, whose replies go to a receiver that fails FAIL_SHARE of the
 * requests it gets (30%, answered 500). The server is the CLI as users start it, with
 * `--rate-limit 0 --webhook-attempts 3` and a heap of HEAP_MB (512). Autocannon sends the
 * messages on CONNECTIONS connections (32) as fast as the server takes them; deliveries fall
 * behind, and wait.
 *
 * It checks that the server lives through it, and at the end that every message is stored once and
 * every delivery is delivered (once) or failed. The server's heap is read by a probe preloaded into
 * it (support/heap-probe.mjs): sampled as it runs, and after full collections with nothing stored,
 * once every message is in (deliveries still waiting), and once every delivery is done.
 *
 * Run: npm run bench:backlog   (writes bench/results/backlog.{md,json}; MESSAGES, SENDERS,
 * CONNECTIONS, FAIL_SHARE, HEAP_MB to try it at another size)
 */
import { createServer } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { Agent, fetch } from "undici";
import { fmt } from "./support/figures.js";
import { runLine, writeReport } from "./support/report.js";
import { startProbedCli } from "./support/probed-cli.js";
import type { CliTarget } from "./support/targets.js";

const FULL = 150_000;
const MESSAGES = Number(process.env.MESSAGES ?? FULL);
const SENDERS = Number(process.env.SENDERS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const FAIL_SHARE = Number(process.env.FAIL_SHARE ?? 0.3);
const HEAP_MB = Number(process.env.HEAP_MB ?? 512);
const ATTEMPTS = 3;
const KEY = "ik_bench_backlog_000000001";
const SECRET = "whsec_YmVuY2gtc2VjcmV0LWZvci1iYWNrbG9nMDE=";
const log = (line: string) => console.log(line);

/** A receiver on 127.0.0.1 that fails a share of requests, drawn from a seeded generator, and counts what it accepted. */
async function startReceiver() {
  let seed = 42;
  const random = () => {
    // mulberry32: the same failures every run.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const accepted = new Map<string, number>();
  const counts = { requests: 0, failed: 0, inFlight: 0, maxInFlight: 0 };
  const server = createServer((req, res) => {
    counts.requests++;
    counts.inFlight++;
    counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
    res.once("close", () => counts.inFlight--);
    req.resume();
    req.on("end", () => {
      if (random() < FAIL_SHARE) {
        counts.failed++;
        res.writeHead(500).end("the receiver failed this one");
        return;
      }
      const id = String(req.headers["webhook-id"]);
      accepted.set(id, (accepted.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return {
    url,
    accepted,
    counts,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const dir = await mkdtemp(join(tmpdir(), "intake-bench-backlog-"));
const receiver = await startReceiver();
let server: CliTarget | undefined;
try {
  await writeFile(
    join(dir, "seed.json"),
    JSON.stringify({
      accounts: [
        {
          id: "acc_bench",
          name: "Bench",
          apiKey: KEY,
          webhookUrl: receiver.url,
          webhookSecret: SECRET,
          // A reply costs a credit, and the first message to a contact another.
          credits: 2 * MESSAGES + SENDERS,
          campaigns: [
            {
              id: "cmp_bench",
              name: "Bench",
              type: "Combined",
              state: "Live",
              faqs: [{ question: "How much is it?", answer: "29 a month." }],
            },
          ],
        },
      ],
    }),
  );
  const probed = await startProbedCli("backlog", ["--seed", join(dir, "seed.json"), "--webhook-attempts", String(ATTEMPTS)], {
    heapMb: HEAP_MB,
    dir,
  });
  server = probed.server;
  const { alive, heapLines, heapAfterGc } = probed;
  const dispatcher = new Agent({ connect: { ca: server.certificate } });
  const admin = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server!.listening.adminUrl}${path}`, {
      headers: { authorization: `Bearer ${server!.listening.adminToken}` },
      dispatcher,
    });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return (await response.json()) as T;
  };

  const empty = await heapAfterGc();
  log(`server listening; heap ${fmt(empty.heapUsed / 2 ** 20)} MiB with nothing stored`);

  // 1. The messages, as fast as the server takes them.
  const started = performance.now();
  let sent = 0;
  const load = await autocannon({
    url: server.base,
    connections: CONNECTIONS,
    amount: MESSAGES,
    timeout: 60,
    requests: [
      {
        setupRequest: (request) => {
          const i = sent++;
          return {
            ...request,
            method: "POST",
            path: `/v1/incoming_custom_channel_message?apiKey=${KEY}`,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              customData: { messageSid: `SM-${i}`, fromId: `user-${i % SENDERS}`, toId: "bench", body: "How much is it?" },
            }),
          };
        },
      },
    ],
  });
  const acceptedSeconds = (performance.now() - started) / 1000;
  log(
    `${fmt(load.requests.total)} messages sent in ${fmt(acceptedSeconds, 1)} s: ${fmt(load["2xx"])} answered 2xx, ${fmt(load.non2xx)} other, ${fmt(load.errors)} errors`,
  );
  if (!alive()) throw new Error("The server died while the messages came in.");
  const all = async <T>(path: string): Promise<T[]> => {
    const out: T[] = [];
    for (let offset = 0; ; offset += 10_000) {
      const page = await admin<T[]>(`${path}${path.includes("?") ? "&" : "?"}limit=10000&offset=${offset}`);
      out.push(...page);
      if (page.length < 10_000) return out;
    }
  };
  const backlog = { heap: await heapAfterGc(), pending: (await all("/deliveries?state=pending")).length };
  log(`all messages in: ${fmt(backlog.pending)} deliveries pending, heap after a collection ${fmt(backlog.heap.heapUsed / 2 ** 20)} MiB`);

  // 2. Until every delivery is done, and no job is left.
  for (;;) {
    if (!alive()) throw new Error("The server died while delivering.");
    if ((await admin<unknown[]>("/deliveries?state=pending&limit=1")).length === 0 && (await admin<unknown[]>("/jobs")).length === 0) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const finishedSeconds = (performance.now() - started) / 1000;
  const done = await heapAfterGc();
  log(`every delivery done after ${fmt(finishedSeconds, 1)} s; heap after a collection ${fmt(done.heapUsed / 2 ** 20)} MiB`);

  // 3. What is stored.
  const inbound = await all<{ messageSid: string }>("/messages?direction=inbound");
  const outbound = (await all<{ source: string }>("/messages?direction=outbound")).filter((m) => m.source === "bot");
  const delivered = await all<{ webhookId: string }>("/deliveries?state=delivered");
  const failed = await all<{ webhookId: string; attempts: unknown[] }>("/deliveries?state=failed");
  const sids = new Set(inbound.map((m) => m.messageSid));
  const acceptedTwice = [...receiver.accepted.values()].filter((n) => n > 1).length;
  const deliveredIds = new Set(delivered.map((d) => d.webhookId));
  const acceptedNotDelivered = [...receiver.accepted.keys()].filter((id) => !deliveredIds.has(id)).length;
  const peak = (await heapLines()).reduce((max, l) => (l.heapUsed > max.heapUsed ? l : max));
  const peakRss = (await heapLines()).reduce((max, l) => Math.max(max, l.rss), 0);
  const grown = done.heapUsed - empty.heapUsed;
  // What a waiting delivery holds beyond what it keeps once done: the backlog's heap, less what
  // the messages in it will keep, over the deliveries waiting.
  const perMessage = grown / MESSAGES;
  const perWaiting = backlog.pending > 0 ? (backlog.heap.heapUsed - empty.heapUsed - perMessage * MESSAGES) / backlog.pending : null;

  const result = {
    messages: MESSAGES,
    senders: SENDERS,
    connections: CONNECTIONS,
    failShare: FAIL_SHARE,
    heapLimitMb: HEAP_MB,
    webhookAttempts: ATTEMPTS,
    answered2xx: load["2xx"],
    non2xx: load.non2xx,
    errors: load.errors,
    secondsToAcceptAll: acceptedSeconds,
    secondsToFinish: finishedSeconds,
    storedInbound: inbound.length,
    uniqueSids: sids.size,
    botReplies: outbound.length,
    delivered: delivered.length,
    failed: failed.length,
    failedWithAllAttempts: failed.filter((d) => d.attempts.length === ATTEMPTS).length,
    receiverRequests: receiver.counts.requests,
    receiverFailed: receiver.counts.failed,
    receiverMaxInFlight: receiver.counts.maxInFlight,
    acceptedTwice,
    acceptedNotDelivered,
    pendingWhenAllIn: backlog.pending,
    heap: {
      emptyBytes: empty.heapUsed,
      whenAllInBytes: backlog.heap.heapUsed,
      doneBytes: done.heapUsed,
      peakBytes: peak.heapUsed,
      peakRssBytes: peakRss,
    },
    heapBytesPerMessage: perMessage,
    heapBytesPerWaitingDelivery: perWaiting,
    checks: [
      { what: "the server lives through it", value: "yes", target: "yes", met: true },
      {
        what: "messages stored once / replies delivered or failed",
        value: `${fmt(sids.size)} of ${fmt(MESSAGES)} / ${fmt(delivered.length + failed.length)} of ${fmt(outbound.length)}`,
        target: "all / all",
        met:
          inbound.length === MESSAGES &&
          sids.size === MESSAGES &&
          outbound.length === MESSAGES &&
          delivered.length + failed.length === MESSAGES,
      },
      {
        what: "deliveries accepted twice, or accepted and not recorded delivered",
        value: `${acceptedTwice} / ${acceptedNotDelivered}`,
        target: "0 / 0",
        met: acceptedTwice === 0 && acceptedNotDelivered === 0,
      },
    ],
  };
  const mib = (bytes: number) => `${fmt(bytes / 2 ** 20)} MiB`;
  const scale = MESSAGES < FULL ? ` (reduced scale: MESSAGES=${MESSAGES})` : "";
  const md = [
    `# Reply webhooks backing up: ${fmt(MESSAGES)} messages${scale}`,
    "",
    `${runLine()}. \`intake-server\` (dist/cli.js, HTTPS) started with \`node --max-old-space-size=${HEAP_MB}\`, \`--rate-limit 0 --webhook-attempts ${ATTEMPTS}\`, one account with a Live Combined campaign whose bot answers every message (an FAQ). ${fmt(MESSAGES)} messages from ${fmt(SENDERS)} senders POSTed to \`/v1/incoming_custom_channel_message\` by autocannon on ${CONNECTIONS} connections, as fast as answered; the replies go to a receiver on 127.0.0.1 that fails ${Math.round(FAIL_SHARE * 100)}% of the requests it gets (500), so deliveries fall behind and are retried.`,
    "",
    "| | |",
    "|---|---:|",
    `| Messages answered 2xx | ${fmt(load["2xx"])} of ${fmt(MESSAGES)} (${fmt(load.non2xx)} other, ${fmt(load.errors)} errors), in ${fmt(acceptedSeconds, 1)} s |`,
    `| Messages stored (distinct message sids) | ${fmt(inbound.length)} (${fmt(sids.size)}) |`,
    `| Bot replies | ${fmt(outbound.length)} |`,
    `| Deliveries delivered / failed after ${ATTEMPTS} attempts | ${fmt(delivered.length)} / ${fmt(failed.length)} |`,
    `| Requests the receiver got / failed / at most at once | ${fmt(receiver.counts.requests)} / ${fmt(receiver.counts.failed)} / ${receiver.counts.maxInFlight} |`,
    `| Accepted twice / accepted but not recorded delivered | ${acceptedTwice} / ${acceptedNotDelivered} |`,
    `| Deliveries waiting when every message was in | ${fmt(backlog.pending)} |`,
    `| Every delivery done after | ${fmt(finishedSeconds, 1)} s |`,
    `| Heap after a collection: nothing stored / every message in / all done | ${mib(empty.heapUsed)} / ${mib(backlog.heap.heapUsed)} / ${mib(done.heapUsed)} |`,
    `| Heap at its highest (sampled, garbage included) / resident at its highest | ${mib(peak.heapUsed)} / ${mib(peakRss)} |`,
    `| Heap kept per message, once done (the message, the bot's reply, the delivery and its attempts, a share of the contact) | ${fmt(perMessage)} B |`,
    `| Heap per delivery while it waits, beyond what it keeps once done (below 0: a waiting delivery holds less, having no attempts yet) | ${perWaiting === null ? "n/a" : `${fmt(perWaiting)} B`} |`,
    "",
    `Reproduce: \`npm run bench:backlog\` (raw figures in backlog.json; MESSAGES, SENDERS, CONNECTIONS, FAIL_SHARE, HEAP_MB for another run).`,
    "",
  ].join("\n");
  await writeReport("backlog", md, result);
  console.log(md);
  if (!result.checks.every((c) => c.met)) process.exitCode = 1;
} finally {
  await server?.stop();
  await receiver.close();
  await rm(dir, { recursive: true, force: true });
}
