/**
 * Mixed load on two builds side by side: this checkout's and a baseline's (BASELINE_DIR, another
 * checkout with packages/server/dist/cli.js built, a worktree of an older commit say). Each is the
 * CLI as users start it (HTTPS, `--rate-limit 0 --log quiet`), seeded with 1,000 contacts, 1,000
 * lists and a Live campaign, its account's webhook pointing at a receiver on 127.0.0.1 that refuses
 * one delivery in five: 32 connections send creates, lookups, list adds, sends and received
 * messages, each received message answered by the bot and its reply signed and delivered.
 *
 * A round loads each build once, on a server started for the run (so neither carries the other's
 * state or its pending deliveries), the build going first taking turns; the report gives each run,
 * the medians and the ratio of medians (target: this build at least the baseline's).
 *
 * Run: BASELINE_DIR=/path/to/checkout npm run bench:mixed   (writes bench/results/mixed.{md,json};
 * ROUNDS, SECONDS to change; PROFILE=1 writes each server's CPU profile to a temporary folder it
 * keeps and prints the functions with the most self time per build). Without BASELINE_DIR the
 * build is measured against itself.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startFlakyReceiver, type FlakyReceiver } from "./support/flaky-receiver.js";
import { fmt, fmtOrNa, percent } from "./support/figures.js";
import { load, median, rotated, serverCpuMicros, type Sample } from "./support/load.js";
import { runLine, writeReport } from "./support/report.js";
import { MIX, mixed, mixedSeed } from "./support/mixed-route.js";
import { STORED } from "./support/routes.js";
import { selfTimes, type ProfileFile, type SelfTime } from "./support/self-time.js";
import { startCli } from "./support/targets.js";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SECONDS = Number(process.env.SECONDS ?? 25);
const WARM_UP_SECONDS = Number(process.env.WARM_UP_SECONDS ?? 3);
const CONNECTIONS = 32;
const FAIL_EVERY = 5;
const PROFILE = process.env.PROFILE === "1";
const root = fileURLToPath(new URL("../", import.meta.url));
const log = (line: string) => console.log(line);

interface Build {
  name: string;
  /** The checkout's root, with a trailing slash. */
  dir: string;
  cli: string;
}

const commitOf = (dir: string) => {
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return "not a git checkout";
  }
};
const buildAt = (dir: string, role: string): Build => {
  const at = `${resolve(dir)}/`;
  return { name: `${role} (${commitOf(at)})`, dir: at, cli: `${at}packages/server/dist/cli.js` };
};
const baselineDir = process.env.BASELINE_DIR;
const current = buildAt(root, "this build");
const baseline = baselineDir ? buildAt(baselineDir, "baseline") : { ...current, name: `${current.name}, again` };
const builds = [current, baseline];

interface Run {
  round: number;
  sample: Sample;
  deliveries: { received: number; refused: number };
}

const dir = await mkdtemp(join(tmpdir(), "intake-bench-mixed-"));
// Kept after the run, to open in a profiler (Chrome's DevTools, speedscope).
const profiles = PROFILE ? await mkdtemp(join(tmpdir(), "intake-bench-mixed-profiles-")) : "";
let receiver: FlakyReceiver | undefined;
try {
  receiver = await startFlakyReceiver(FAIL_EVERY);
  const seed = join(dir, "seed.json");
  await writeFile(seed, JSON.stringify(mixedSeed(receiver.url)));
  const runs = new Map<Build, Run[]>(builds.map((b) => [b, []]));
  const profiled = new Map<Build, ProfileFile[]>(builds.map((b) => [b, []]));
  // The load generator warms up too (autocannon compiled, its connections' TLS): without this, the
  // build loaded first in the first round ran slower whichever it was.
  const first = await startCli("load generator's warm-up", ["--seed", seed], { cli: current.cli });
  try {
    await load(first, mixed, 5, { connections: CONNECTIONS });
  } finally {
    await first.stop();
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of rotated(builds, round)) {
      const name = `${build === current ? "this-build" : "baseline"}-round-${round + 1}.cpuprofile`;
      const profile = join(profiles, name);
      const nodeArgs = PROFILE ? ["--cpu-prof", "--cpu-prof-dir", profiles, "--cpu-prof-name", name] : [];
      const server = await startCli(build.name, ["--seed", seed], { cli: build.cli, nodeArgs });
      let loadEnded: number | undefined;
      try {
        await load(server, mixed, WARM_UP_SECONDS, { connections: CONNECTIONS });
        receiver.reset();
        const sample = await load(server, mixed, SECONDS, { connections: CONNECTIONS });
        loadEnded = performance.now();
        const deliveries = receiver.counts();
        runs.get(build)!.push({ round, sample, deliveries });
        log(
          `${build.name} | round ${round + 1}: ${fmt(sample.requestsPerSecond)} req/s, p50 ${sample.p50} ms, p99 ${sample.p99} ms, ${fmt(deliveries.received)} webhooks (${fmt(deliveries.refused)} refused)${sample.non2xx || sample.errors ? `, ${sample.non2xx} non-2xx, ${sample.errors} errors` : ""}`,
        );
      } finally {
        await server.stop();
      }
      // The profile ends as the server exits: its load is the SECONDS before the time it took to stop.
      const stopMs = performance.now() - loadEnded!;
      if (PROFILE)
        profiled.get(build)!.push({ path: profile, window: { fromMsBeforeEnd: stopMs + SECONDS * 1000, toMsBeforeEnd: stopMs } });
    }
  }
  const hot = PROFILE ? await Promise.all(builds.map((b) => selfTimes(profiled.get(b)!, b.dir))) : undefined;
  await report(runs, hot);
} finally {
  await receiver?.stop();
  await rm(dir, { recursive: true, force: true });
}

async function report(runs: Map<Build, Run[]>, hot: SelfTime[][] | undefined) {
  const med = (build: Build, figure: (run: Run) => number) => median(runs.get(build)!.map(figure));
  const rps = (build: Build) => med(build, (r) => r.sample.requestsPerSecond);
  // What a request cost the server's process (its TLS, the bot and the webhooks it causes
  // included): steadier than req/s on a shared machine, where the load generator shares the cores.
  const cpu = (build: Build) => med(build, (r) => serverCpuMicros(r.sample) ?? Number.NaN);
  const ratio = rps(current) / rps(baseline);
  const roundRatios = runs.get(current)!.map((r, i) => r.sample.requestsPerSecond / runs.get(baseline)!.at(i)!.sample.requestsPerSecond);
  const sorted = [...roundRatios].sort((a, b) => a - b);
  const self = !baselineDir;
  const runRows = builds.flatMap((build) =>
    runs
      .get(build)!
      .map(
        ({ round, sample: s, deliveries: d }) =>
          `| ${build.name} | ${round + 1} | ${fmt(s.requestsPerSecond)} | ${s.p50} | ${s.p99} | ${fmtOrNa(serverCpuMicros(s) ?? Number.NaN)} | ${fmt(d.received)} (${fmt(d.refused)}) | ${s.non2xx} | ${s.errors} |`,
      ),
  );
  const medianRows = builds.map(
    (build) =>
      `| ${build.name} | ${fmt(rps(build))} | ${med(build, (r) => r.sample.p50)} | ${med(build, (r) => r.sample.p99)} | ${fmtOrNa(cpu(build))} | ${fmt(med(build, (r) => r.deliveries.received))} |`,
  );
  const checks = self
    ? []
    : [
        {
          what: `mixed load, ${CONNECTIONS} connections: ${current.name} against ${baseline.name}, ratio of median req/s`,
          value: fmt(ratio, 2),
          target: "at least 1.00",
          met: ratio >= 1,
        },
      ];
  const hotSections = hot
    ? [
        "## Self time (PROFILE=1)",
        "",
        "Each build's servers' CPU profiles (`node --cpu-prof`), cut to the measured runs (no start, warm-up or shutdown), the functions with the most self time over all its rounds; the share is of the runs' time, idle included.",
        "",
        ...builds.flatMap((build, i) => [
          `### ${build.name}`,
          "",
          "| Function | ms | Share |",
          "|---|---:|---:|",
          ...hot[i]!.map((h) => `| ${h.what.replaceAll("|", "\\|")} | ${fmt(h.ms)} | ${percent(h.share)} |`),
          "",
        ]),
      ]
    : [];
  const scale = ROUNDS < 5 || SECONDS < 25 ? ` (reduced: ROUNDS=${ROUNDS}, SECONDS=${SECONDS})` : "";
  const markdown = [
    `# Mixed load: two builds side by side${scale}`,
    "",
    `${runLine()}. \`intake-server\` (each build's dist/cli.js, HTTPS, \`--rate-limit 0 --log quiet\`) seeded with one account of ${fmt(STORED)} contacts (each with a custom-channel sender id) and ${fmt(STORED)} lists, and a Live campaign; the account's webhook goes to a receiver on 127.0.0.1 (node:http, in the benchmark's process) that refuses one delivery in ${FAIL_EVERY} with 503 and \`Retry-After: 0\`. autocannon, ${CONNECTIONS} connections; of each ten requests in turn, two creates (a new phone each), three lookups (by a stored phone), two list adds (a new membership each), one send and two received messages (the bot answers each, its reply delivered as a signed webhook). ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}; in each, a server of each build is started, warmed up for ${WARM_UP_SECONDS} s and loaded for ${SECONDS} s, then stopped, the build going first taking turns; before the first round, 5 s of the load on this build, not measured, warm up the load generator. Latency is autocannon's, in whole milliseconds; a server's CPU is its process's user and system time (from /proc, Linux) over the run, per request answered; webhooks are those the receiver got during the measured run.${self ? " **No BASELINE_DIR: the build against itself**, the spread this machine gives; no target." : ""}`,
    "",
    "| Build | req/s (median) | p50 ms | p99 ms | server CPU µs a request | webhooks |",
    "|---|---:|---:|---:|---:|---:|",
    ...medianRows,
    "",
    `Ratio of medians, ${current.name} / ${baseline.name}: **${fmt(ratio, 2)}** (each round's own, lowest to highest: ${sorted.map((r) => fmt(r, 2)).join(", ")})${self ? "" : `; target at least 1.00: ${ratio >= 1 ? "met" : "not met"}`}. Server CPU a request, ${current.name} / ${baseline.name}: **${fmt(cpu(current) / cpu(baseline), 2)}** (below 1: this build spends less).`,
    "",
    "## Runs",
    "",
    "| Build | Round | req/s | p50 ms | p99 ms | server CPU µs a request | webhooks (refused) | non-2xx | errors |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runRows,
    "",
    ...hotSections,
    `Reproduce: \`BASELINE_DIR=<checkout with packages/server/dist/cli.js built> npm run bench:mixed\` (raw figures in mixed.json; ROUNDS, SECONDS, PROFILE=1).`,
    "",
  ].join("\n");
  await writeReport("mixed", markdown, {
    rounds: ROUNDS,
    seconds: SECONDS,
    warmUpSeconds: WARM_UP_SECONDS,
    connections: CONNECTIONS,
    mix: MIX,
    builds: builds.map((b) => ({ name: b.name, dir: b.dir, runs: runs.get(b) })),
    ratio,
    roundRatios,
    ...(hot ? { selfTime: Object.fromEntries(builds.map((b, i) => [b.name, hot[i]])) } : {}),
    checks,
  });
  console.log(medianRows.join("\n"));
  console.log(`ratio ${fmt(ratio, 2)} (rounds ${sorted.map((r) => fmt(r, 2)).join(", ")})`);
  if (hot) {
    for (const [i, build] of builds.entries())
      console.log(
        [
          `\nself time, ${build.name}:`,
          ...hot[i]!.map((h) => `  ${fmt(h.ms).padStart(7)} ms ${percent(h.share).padStart(6)}  ${h.what}`),
        ].join("\n"),
      );
    console.log(`\nCPU profiles (kept): ${profiles}`);
  }
  if (!checks.every((c) => c.met)) process.exitCode = 1;
}
