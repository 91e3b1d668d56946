/**
 * The mixed load on the core alone: the requests bench:mixed sends, handed straight to
 * `intake.fetch` of two builds (this checkout's and BASELINE_DIR's, each its
 * packages/server/dist) in one process, with no TLS, sockets or load generator to share the
 * machine with. A build's webhooks go to a fetch in the process that refuses one in five. What is
 * measured is the CPU the process spends a request, in short runs of each build taking turns, so
 * both see the same machine: on a shared machine, where req/s over HTTPS moves a fifth from run to
 * run, this finds a change in what the core costs that bench:mixed cannot tell from noise.
 *
 * Run: BASELINE_DIR=/path/to/checkout npm run bench:mixed-core   (writes
 * bench/results/mixed-core.{md,json}; ROUNDS, REQUESTS (a run's) to change). Without BASELINE_DIR
 * the build is measured against itself.
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fmt } from "./support/figures.js";
import { median } from "./support/load.js";
import { mixed, mixedSeed } from "./support/mixed-route.js";
import { runLine, writeReport } from "./support/report.js";

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const IN_FLIGHT = 32;
const FAIL_EVERY = 5;
const root = fileURLToPath(new URL("../", import.meta.url));
const log = (line: string) => console.log(line);

interface Core {
  name: string;
  fetch(request: Request): Promise<Response>;
  /** The mixed route's next request number: each build runs the whole sequence, never a write twice. */
  sent: number;
  microsPerRequest: number[];
}

/** A build's core, made by its own createIntake, over the mixed seed. */
async function coreOf(name: string, dir: string): Promise<Core> {
  const { createIntake } = (await import(pathToFileURL(`${resolve(dir)}/packages/server/dist/index.js`).href)) as {
    createIntake(options: object): { fetch(request: Request): Promise<Response> };
  };
  let posted = 0;
  const receiver = async () => new Response("ok", { status: ++posted % FAIL_EVERY === 0 ? 503 : 200, headers: { "retry-after": "0" } });
  const intake = createIntake({ seed: mixedSeed("https://hooks.example.test/intake"), fetch: receiver, rateLimit: 0 });
  return { name, fetch: (request) => intake.fetch(request), sent: 0, microsPerRequest: [] };
}

/** REQUESTS of the mixed route, IN_FLIGHT at a time; the CPU spent a request, in µs. */
async function run(core: Core): Promise<number> {
  const started = process.cpuUsage();
  let left = REQUESTS;
  const client = async () => {
    while (left-- > 0) {
      const call = mixed.call(core.sent++, { name: core.name, base: "", stop: async () => {} });
      const headers = call.body ? { "content-type": "application/json" } : undefined;
      const response = await core.fetch(new Request(`https://127.0.0.1/v1${call.path}`, { method: call.method, body: call.body, headers }));
      await response.arrayBuffer();
      if (response.status >= 400) throw new Error(`${core.name}: ${call.method} ${call.path} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, client));
  // The work a request set off (the bot's answer, its webhook) runs on timers: let it finish.
  await new Promise((done) => setTimeout(done, 20));
  const spent = process.cpuUsage(started);
  return (spent.user + spent.system) / REQUESTS;
}

const baselineDir = process.env.BASELINE_DIR;
const cores = [await coreOf("this build", root), await coreOf(baselineDir ? "baseline" : "this build, again", baselineDir ?? root)];
for (const core of cores) await run(core); // warm-up, not counted
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const core of round % 2 ? [...cores].reverse() : cores) core.microsPerRequest.push(await run(core));
  ratios.push(cores[0]!.microsPerRequest[round]! / cores[1]!.microsPerRequest[round]!);
  log(`round ${round + 1}: ${cores.map((c) => `${c.name} ${fmt(c.microsPerRequest[round]!, 1)} µs`).join(", ")}`);
}
const ratio = median(ratios);
const sorted = [...ratios].sort((a, b) => a - b);
const quartile = (q: number) => sorted[Math.floor(q * (sorted.length - 1))]!;
const baselineName = `baseline (${baselineDir ?? "none"})`;
const markdown = [
  "# Mixed load on the core: CPU a request, two builds side by side",
  "",
  `${runLine()}. The requests bench:mixed sends (creates, lookups, list adds, sends, received messages the bot answers, with signed webhooks), handed to \`intake.fetch\` of each build in one process (no TLS or sockets); webhooks go to a fetch in the process that refuses one in ${FAIL_EVERY}. ${ROUNDS} rounds of ${fmt(REQUESTS)} requests per build, ${IN_FLIGHT} at a time, the builds taking turns; the process's CPU time (user and system) a request. Baseline: ${baselineDir ?? "this build again (no BASELINE_DIR): the spread this machine gives"}.`,
  "",
  "| Build | CPU µs a request (median) |",
  "|---|---:|",
  ...cores.map((core) => `| ${core.name === "baseline" ? baselineName : core.name} | ${fmt(median(core.microsPerRequest), 1)} |`),
  "",
  `Ratio, this build / baseline, the median of the rounds' own: **${fmt(ratio, 3)}** (quartiles ${fmt(quartile(0.25), 3)} and ${fmt(quartile(0.75), 3)}; lowest ${fmt(sorted[0]!, 3)}, highest ${fmt(sorted.at(-1)!, 3)}); below 1, this build spends less. The machine's speed moves over a run, and each build's median with it: the rounds' own ratios compare two runs made one after the other.`,
  "",
  "Reproduce: `BASELINE_DIR=<checkout with packages/server/dist built> npm run bench:mixed-core`.",
].join("\n");
await writeReport("mixed-core", markdown, {
  rounds: ROUNDS,
  requests: REQUESTS,
  inFlight: IN_FLIGHT,
  baseline: baselineDir ?? null,
  builds: cores.map((core) => ({ name: core.name, microsPerRequest: core.microsPerRequest })),
  ratio,
  ratios,
});
log(markdown);
// The engines' timers (follow-ups, retries) would keep the process alive.
process.exit(0);
