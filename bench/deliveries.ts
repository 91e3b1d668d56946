/**
 * 10,000 bot replies delivered to a local webhook receiver: none lost, none doubled. Each
 * received message goes through the whole path (receive endpoint, bot, reply, signed webhook,
 * retries); the receiver (node:http on 127.0.0.1) verifies every signature, refuses one first
 * attempt in ten (503, Retry-After: 0) so retries are part of the run, and counts the webhook-ids
 * it accepted.
 *
 * Run: npm run bench:deliveries   (writes bench/results/deliveries.{md,json})
 */
import { createServer } from "node:http";
import { createIntake, WEBHOOK_DEFAULTS } from "@intake/server";
import { Webhook } from "standardwebhooks";
import { heapAfterGc, runLine, writeReport } from "./support/report.js";
import { benchSender } from "./support/seed.js";

const N = Number(process.env.REPLIES ?? 10_000);
const KEY = "ik_bench_deliveries_00001";
const SECRET = "whsec_YmVuY2gtc2VjcmV0LWZvci1kZWxpdmVyaWVz";

async function main() {
  const seen = new Map<string, number>();
  const refused = new Set<string>();
  const verifier = new Webhook(SECRET);
  let badSignatures = 0;
  let received = 0;
  let resolveAll: () => void = () => {};
  const allReceived = new Promise<void>((resolve) => (resolveAll = resolve));
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      received++;
      try {
        verifier.verify(body, req.headers as Record<string, string>);
      } catch {
        badSignatures++;
      }
      // One first attempt in ten is refused: its retry must arrive, once.
      if (received % 10 === 0 && !refused.has(id) && !seen.has(id)) {
        refused.add(id);
        res.writeHead(503, { "retry-after": "0" }).end();
        return;
      }
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(204).end();
      if (seen.size === N) resolveAll();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  const intake = createIntake({
    rateLimit: 0,
    journalSize: 0,
    seed: {
      accounts: [
        {
          id: "acc_bench",
          name: "Bench",
          apiKey: KEY,
          webhookUrl: url,
          webhookSecret: SECRET,
          credits: 10 * N,
          campaigns: [{ id: "cmp_bench", name: "Bench", state: "Live", faqs: [{ question: "How much is it?", answer: "29 a month." }] }],
        },
      ],
    },
  });
  const before = heapAfterGc();
  const started = performance.now();
  const BATCH = 200;
  for (let i = 0; i < N; i += BATCH) {
    await Promise.all(
      Array.from({ length: Math.min(BATCH, N - i) }, async (_, k) => {
        const response = await intake.fetch(
          new Request(`https://bench.local/v1/incoming_custom_channel_message?apiKey=${KEY}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              customData: { messageSid: `SM-${i + k}`, fromId: benchSender(i + k), toId: "bench", body: "How much is it?" },
            }),
          }),
        );
        if (response.status !== 200) throw new Error(`receive answered ${response.status}: ${await response.text()}`);
      }),
    );
  }
  const accepted = performance.now();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    allReceived,
    new Promise((_, reject) => (watchdog = setTimeout(() => reject(new Error(`only ${seen.size} of ${N} arrived in 120 s`)), 120_000))),
  ]);
  clearTimeout(watchdog);
  await intake.admin.settle();
  const finished = performance.now();
  const grown = heapAfterGc() - before;

  const deliveries = await intake.admin.deliveries({ limit: 10 * N });
  const delivered = deliveries.filter((d) => d.state === "delivered").length;
  const duplicates = [...seen.values()].filter((count) => count > 1).length;
  const attempts = deliveries.reduce((sum, d) => sum + d.attempts.length, 0);
  const seconds = (finished - started) / 1000;
  const result = {
    replies: N,
    receivedRequests: received,
    refusedFirstAttempts: refused.size,
    badSignatures,
    uniqueWebhookIds: seen.size,
    duplicates,
    lost: N - seen.size,
    delivered,
    attempts,
    concurrencyPerUrl: WEBHOOK_DEFAULTS.concurrencyPerUrl,
    secondsToAcceptAllMessages: (accepted - started) / 1000,
    secondsToDeliverAll: seconds,
    repliesDeliveredPerSecond: N / seconds,
    heapBytesPerReply: grown / N,
    checks: [
      {
        what: "webhook deliveries: lost / delivered twice / bad signatures",
        value: `${N - seen.size} / ${duplicates} / ${badSignatures}`,
        target: "0 / 0 / 0",
        met: N === seen.size && duplicates === 0 && badSignatures === 0,
      },
    ],
  };
  await intake.close();
  receiver.closeAllConnections();
  receiver.close();

  const md = [
    `# Webhook delivery: ${N.toLocaleString("en")} replies`,
    "",
    `${runLine()}. ${N.toLocaleString("en")} messages sent to the receive endpoint (in-process), each answered by the default bot; every reply signed and POSTed to a receiver on 127.0.0.1 (node:http), ${WEBHOOK_DEFAULTS.concurrencyPerUrl} deliveries at a time to its URL (the default). The receiver verifies every signature and refuses one first attempt in ten with 503 and \`Retry-After: 0\`, so the run includes retries.`,
    "",
    "| | |",
    "|---|---:|",
    `| Replies delivered | ${delivered.toLocaleString("en")} of ${N.toLocaleString("en")} |`,
    `| Lost | ${result.lost} |`,
    `| Delivered twice | ${duplicates} |`,
    `| Requests the receiver got | ${received.toLocaleString("en")}, ${refused.size.toLocaleString("en")} of them refused first attempts (attempts recorded: ${attempts.toLocaleString("en")}) |`,
    `| Bad signatures | ${badSignatures} |`,
    `| All messages accepted after | ${result.secondsToAcceptAllMessages.toFixed(2)} s |`,
    `| All replies delivered after | ${seconds.toFixed(2)} s |`,
    `| Throughput | ${Math.round(result.repliesDeliveredPerSecond).toLocaleString("en")} replies delivered per second |`,
    `| Heap per reply kept | ${Math.round(result.heapBytesPerReply).toLocaleString("en")} bytes (the received message, the reply, the delivery and its attempt, the contact) |`,
    "",
    "Reproduce: `npm run bench:deliveries` (raw figures in deliveries.json; `REPLIES=n` for another count).",
    "",
  ].join("\n");
  await writeReport("deliveries", md, result);
  console.log(md);
  if (result.lost || duplicates || badSignatures) process.exit(1);
}

await main();
