/**
 * The hosted sandbox beside the Node server, in one run: the Worker's bundle in workerd (through
 * Miniflare, packages/worker/scripts/serve-local.mjs) and the intake-server CLI, on the four routes
 * (look up, create, add to list, receive): req/s and p50/p99 with autocannon (10 connections, the
 * two taking turns round by round), and CPU time a request (Workers bill and limit CPU time).
 * Then a sandbox's memory under workerd: its isolate's JS heap (the inspector's
 * Runtime.getHeapUsage, after a collection) empty, at 10,000 and at 50,000 contacts with 5
 * messages each, loaded through /v1; and the Worker's bundle, gzipped, as `wrangler deploy
 * --dry-run` builds it. Writes bench/results/workers.{md,json}.
 *
 * Run: npm run bench:workers   (ROUNDS, SECONDS to change; `-- --quick` for a smoke run: one round
 * of 2 s and the memory at 1,000 and 2,000 contacts; its report says so and is not one to commit)
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { WebSocket } from "undici";
import { createSandbox, startWorker } from "../packages/worker/test/support/worker.js";
import { processCpu, statFields } from "./support/cpu.js";
import { fmt } from "./support/figures.js";
import { alternate, mediansOf, serverCpuMicros, type Samples } from "./support/load.js";
import { runLine, writeReport } from "./support/report.js";
import type { Check } from "./support/summary-page.js";
import { routes, STORED } from "./support/routes.js";
import { benchSeed } from "./support/seed.js";
import { startCli, type Target } from "./support/targets.js";

const quick = process.argv.includes("--quick");
const ROUNDS = Number(process.env.ROUNDS ?? (quick ? 1 : 5));
const SECONDS = Number(process.env.SECONDS ?? (quick ? 2 : 4));
const WARMUP_SECONDS = quick ? 1 : 5;
const MEMORY_AT = quick ? [1_000, 2_000] : [10_000, 50_000];
const MESSAGES_EACH = 5;
const INSPECTOR_PORT = 9239;
const FREE_PLAN_GZIP_LIMIT = 3 * 1024 * 1024;
const ISOLATE_LIMIT = 128 * 1024 * 1024;
const root = fileURLToPath(new URL("../", import.meta.url));
const workerFolder = `${root}packages/worker/`;
const log = (line: string) => console.log(line);

/** The Worker's bundle as `wrangler deploy --dry-run` builds it offline, and its size gzipped. */
async function bundle() {
  const out = await mkdtemp(join(tmpdir(), "intake-bundle-"));
  try {
    execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out], {
      cwd: workerFolder,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const files = (await readdir(out)).filter((name) => name.endsWith(".js"));
    const bytes = Buffer.concat(await Promise.all(files.map((name) => readFile(join(out, name)))));
    return { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** The pid of a process's child of this name (Linux). */
async function childNamed(parent: number, name: string): Promise<number | undefined> {
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (stat.includes(`(${name})`) && Number((await statFields(Number(entry)))?.[1]) === parent) return Number(entry);
  }
  return undefined;
}

/**
 * The Worker's isolate's JS heap in use, after a full collection (Chrome DevTools Protocol on
 * workerd's inspector: its collectGarbage never answers, so a heap snapshot, which collects first,
 * is taken and thrown away).
 */
async function heapUsed(): Promise<number> {
  const socket = new WebSocket(`ws://127.0.0.1:${INSPECTOR_PORT}/core:user:`);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve);
    socket.addEventListener("error", reject);
  });
  let id = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener("message", (event) => {
    const text = String(event.data);
    // The snapshot's chunks, by the thousand: not parsed.
    if (text.startsWith('{"method":"HeapProfiler.addHeapSnapshotChunk"')) return;
    const message = JSON.parse(text) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  const call = (method: string, params = {}) =>
    new Promise<unknown>((resolve) => (waiting.set(++id, resolve), socket.send(JSON.stringify({ id, method, params }))));
  await call("Runtime.enable");
  await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  const { usedSize } = (await call("Runtime.getHeapUsage")) as { usedSize: number };
  socket.close();
  return usedSize;
}

/** `count` calls of `call`, 24 at a time. */
async function inParallel(count: number, call: (i: number) => Promise<void>) {
  let next = 0;
  const run = async () => {
    for (let i = next++; i < count; i = next++) await call(i);
  };
  await Promise.all(Array.from({ length: 24 }, run));
}

/**
 * The Worker in workerd, as the Worker's tests start it (packages/worker/test/support/worker.ts),
 * its capacity past the stated one on purpose (the memory at 50,000 contacts is measured), and
 * workerd's pid, whose CPU is measured.
 */
async function startHost(options: { persist?: string; port?: number } = {}) {
  const worker = await startWorker({
    ...options,
    inspectorPort: INSPECTOR_PORT,
    vars: { SANDBOX_MAX_CONTACTS: "1000000", SANDBOX_MAX_MESSAGES: "10000000" },
  });
  return { worker, workerd: await childNamed(worker.pid, "workerd") };
}

const cert = await mkdtemp(join(tmpdir(), "intake-bench-cert-"));
const seed = join(cert, "seed.json");
await writeFile(seed, JSON.stringify(benchSeed(STORED, STORED, { senders: true })));
const cli = await startCli("Node CLI (HTTPS)", ["--seed", seed, "--cert-dir", cert]);
let host = await startHost();
const create = (request: Record<string, unknown>) => createSandbox(host.worker, request);

let samples: Samples;
const memory: Array<{ contacts: number; messages: number; heapBytes: number; loadSeconds: number; wakeMs?: number; wakeCpuMs?: number }> =
  [];
let size: { bytes: number; gzipBytes: number };
try {
  size = await bundle();
  log(`bundle: ${fmt(size.bytes / 1024)} KiB, ${fmt(size.gzipBytes / 1024)} KiB gzipped`);
  const sandbox = await create({ name: "bench", keepSeedSecrets: true, rateLimit: 0, seed: benchSeed(STORED, STORED, { senders: true }) });
  const targets: Target[] = [
    {
      name: "Worker in workerd (HTTPS)",
      base: sandbox.baseUrl,
      ...(host.workerd === undefined ? {} : { pid: host.workerd }),
      stop: async () => {},
    },
    { name: cli.name, base: cli.base, pid: cli.pid, stop: async () => {} },
  ];
  samples = await alternate(targets, routes, {
    rounds: ROUNDS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
    routesTakeTurns: true,
    log,
  });

  // Memory: a Worker of its own, whose one sandbox is filled through /v1 (each send creates its
  // sender's contact, then adds a message).
  await host.worker.stop();
  host = await startHost();
  const filled = await create({ name: "memory", rateLimit: 0, seed: { accounts: [{ id: "acc_memory", name: "Memory" }] } });
  memory.push({ contacts: 0, messages: 0, heapBytes: await heapUsed(), loadSeconds: 0 });
  const key = filled.accounts[0]!.apiKey;
  let contacts = 0;
  for (const target of MEMORY_AT) {
    const from = contacts;
    const started = performance.now();
    await inParallel((target - from) * MESSAGES_EACH, async (i) => {
      const n = from + (i % (target - from));
      const response = await host.worker.fetch(`${filled.baseUrl}/send_custom_channel_message?apiKey=${key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          customData: {
            fromId: `lead-${n}`,
            customChannel: "site",
            firstName: "Lead",
            lastName: `Number ${n}`,
            email: `lead${n}@example.com`,
            body: `Message ${i} to lead ${n}: a sentence of ordinary length.`,
          },
        }),
      });
      if (response.status !== 200) throw new Error(`send answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    });
    contacts = target;
    const loadSeconds = (performance.now() - started) / 1000;
    const heapBytes = await heapUsed();
    // Woken from its storage: workerd started again on the same folder, and the first request timed.
    await host.worker.stop({ keep: true });
    // The same folder and port: the sandbox's URLs stay.
    host = await startHost({ persist: host.worker.persist, port: Number(new URL(host.worker.origin).port) });
    const cpuBefore = host.workerd === undefined ? undefined : await processCpu(host.workerd);
    const woken = performance.now();
    const first = await host.worker.fetch(`${filled.baseUrl}/contacts?apiKey=${key}&email=lead0%40example.com`);
    const wakeMs = performance.now() - woken;
    const cpuAfter = host.workerd === undefined ? undefined : await processCpu(host.workerd);
    if (first.status !== 200) throw new Error(`the first request after a restart answered ${first.status}`);
    const wakeCpuMs = cpuBefore && cpuAfter ? cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system : undefined;
    memory.push({
      contacts,
      messages: contacts * MESSAGES_EACH,
      heapBytes,
      loadSeconds,
      wakeMs,
      ...(wakeCpuMs === undefined ? {} : { wakeCpuMs }),
    });
    log(
      `memory: ${contacts} contacts, ${contacts * MESSAGES_EACH} messages: heap ${fmt(heapBytes / 2 ** 20)} MiB (loaded in ${fmt(loadSeconds)} s); woken in ${fmt(wakeMs)} ms`,
    );
  }
} finally {
  await host.worker.stop();
  await cli.stop();
  await rm(cert, { recursive: true, force: true });
}

const median = mediansOf(samples);
// The capacity is 20,000 contacts with up to 5 messages each: its heap, from the measure at 10,000 (twice the sandbox's own, beside the empty Worker's).
const atTenThousand = memory.find((step) => step.contacts === 10_000);
const atCapacity = atTenThousand && memory[0]!.heapBytes + 2 * (atTenThousand.heapBytes - memory[0]!.heapBytes);
const checks: Check[] = [
  ...(atCapacity === undefined
    ? []
    : [
        {
          what: "A hosted sandbox at its capacity (20,000 contacts, 100,000 messages), its JS heap with the Worker's (from the measure at 10,000)",
          value: `${fmt(atCapacity / 2 ** 20)} MiB`,
          target: "≤ 96 MiB (three quarters of an isolate's 128 MiB: room to work)",
          met: atCapacity <= 96 * 2 ** 20,
        },
      ]),
  {
    what: "The Worker's bundle, gzipped",
    value: `${fmt(size!.gzipBytes / 1024)} KiB`,
    target: "≤ 3 MiB (the free plan's limit)",
    met: size!.gzipBytes <= FREE_PLAN_GZIP_LIMIT,
  },
];
const rows = routes.flatMap((route) =>
  [0, 1].map((i) => {
    const name = Object.keys(samples[route.name]!)[i]!;
    const cpu = median(route.name, name, serverCpuMicros);
    return `| ${route.name} | ${name} | ${fmt(median(route.name, name, (s) => s.requestsPerSecond))} | ${fmt(median(route.name, name, (s) => s.p50))} | ${fmt(median(route.name, name, (s) => s.p99))} | ${Number.isNaN(cpu) ? "–" : fmt(cpu / 1000, 2)} |`;
  }),
);
const base = memory[0]!.heapBytes;
const memoryRows = memory.map(
  ({ contacts, messages, heapBytes, wakeMs, wakeCpuMs }) =>
    `| ${contacts.toLocaleString("en-US")} | ${messages.toLocaleString("en-US")} | ${fmt(heapBytes / 2 ** 20)} MiB | ${contacts ? `${fmt((heapBytes - base) / 2 ** 20)} MiB` : "–"} | ${fmt((heapBytes / ISOLATE_LIMIT) * 100)}% | ${wakeMs === undefined ? "–" : `${fmt(wakeMs)} ms${wakeCpuMs === undefined ? "" : ` (${fmt(wakeCpuMs)} ms CPU)`}`} |`,
);
const markdown = `# The hosted sandbox (Worker in workerd) beside the Node server

${runLine()}${quick ? "\n\n**A quick run** (one short round, small memory steps): not one to commit." : ""}

Both on 127.0.0.1 over HTTPS, loaded in turns with autocannon (10 connections; ${ROUNDS} rounds of ${SECONDS} s after ${WARMUP_SECONDS} s of warm-up a route), against a state of ${STORED.toLocaleString("en-US")} contacts and lists. The Worker runs as \`wrangler dev\` runs it: Miniflare's workerd, its own entry worker in front of the Worker, the sandbox's Durable Object in the same process. CPU is the server process's (workerd's, or node's), per request answered: what Workers bill and limit is the Worker's and the object's CPU time, which this includes.

| Route | Server | req/s | p50 ms | p99 ms | CPU ms a request |
|---|---|---|---|---|---|
${rows.join("\n")}

## A sandbox's memory

A Worker of its own with one sandbox: its isolate's JS heap in use after a full collection (\`Runtime.getHeapUsage\` through workerd's inspector, after a heap snapshot), empty (the sandbox made, nothing in it), then filled through \`POST /v1/send_custom_channel_message\` (each send makes or finds its sender's contact, then stores a message). Cloudflare gives an isolate 128 MiB.

| Contacts | Messages | Heap in use | The sandbox's own | Of 128 MiB | Woken from storage (first request after a restart) |
|---|---|---|---|---|---|
${memoryRows.join("\n")}

## Targets

${checks.map((check) => `- ${check.what}: ${check.value} (${check.target}): ${check.met ? "met" : "**missed**"}`).join("\n")}

## The bundle

\`wrangler deploy --dry-run\`: ${fmt(size!.bytes / 1024)} KiB, ${fmt(size!.gzipBytes / 1024)} KiB gzipped, ${fmt((size!.gzipBytes / FREE_PLAN_GZIP_LIMIT) * 100)}% of the free plan's 3 MiB (gzipped) script size limit.
`;
await writeReport("workers", markdown, { quick, rounds: ROUNDS, seconds: SECONDS, checks, samples, memory, bundle: size! });
log(markdown);
