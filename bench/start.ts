/**
 * Intake's start on each Node line in its support window, in one run: the CLI
 * (`intake-server --seed seed.json --rate-limit 0 --log quiet`, over HTTPS) and startIntakeServer
 * (@intake/server/testing, in a node script), each timed from its spawn to its first answer to a
 * lookup, as bench:peers times it (support/peers.ts), the lines and the servers taking turns. Then
 * one more start of the CLI on each line under node's CPU profiler: where its start goes
 * (support/start-profile.ts). Lines other than the machine's are installed from the npm registry
 * (scripts/node-lines.mjs). Writes bench/results/start.{md,json}.
 *
 * Run: npm run bench:start   (STARTS to change, 5 by default; `-- --quick` for one start each)
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { nodeLines } from "../scripts/node-lines.mjs";
import { fmt, verdict } from "./support/figures.js";
import { median } from "./support/load.js";
import { PEERS, writePeerFiles } from "./support/peers.js";
import { runLine, writeReport } from "./support/report.js";
import { startParts, type CpuProfile, type StartPart } from "./support/start-profile.js";

const quick = process.argv.includes("--quick");
const STARTS = Number(process.env.STARTS ?? (quick ? 1 : 5));
const TARGET_MS = 400;
const servers = PEERS.filter((peer) => peer.intake);
const cli = servers.find((peer) => peer.name === "Intake CLI (HTTPS)")!;
const log = (line: string) => console.log(line);

interface LineRun {
  line: number;
  version: string;
  starts: Record<string, number[]>;
  profile: { startMs: number; parts: StartPart[] };
}

const lines = nodeLines();
const loadAtStart = loadavg()[0]!;
const dir = await mkdtemp(join(tmpdir(), "intake-start-"));
await writePeerFiles(dir);

/** One more start of the CLI on `node`, under node's CPU profiler. */
async function profiled(node: string, line: number): Promise<LineRun["profile"]> {
  const profiles = join(dir, `profile-${line}`);
  const server = await cli.start(dir, { node, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profiles}`] });
  await server.stop();
  const [file] = await readdir(profiles);
  const profile = JSON.parse(await readFile(join(profiles, file!), "utf8")) as CpuProfile;
  return { startMs: server.startMs, parts: startParts(profile, server.startMs) };
}

try {
  const runs: LineRun[] = lines.map(({ line, version }) => ({
    line,
    version,
    starts: Object.fromEntries(servers.map((s) => [s.name, []])),
    profile: { startMs: NaN, parts: [] },
  }));
  // One round not counted first: it fills the disk's cache and node's compile cache, and makes the certificate.
  for (let round = -1; round < STARTS; round++) {
    for (const [i, { node }] of lines.entries()) {
      for (const peer of servers) {
        const server = await peer.start(dir, { node });
        await server.stop();
        if (round >= 0) runs[i]!.starts[peer.name]!.push(server.startMs);
      }
    }
  }
  for (const [i, { node, line }] of lines.entries()) runs[i]!.profile = await profiled(node, line);
  for (const run of runs) {
    log(`Node ${run.version}: ${servers.map((s) => `${s.name} ${fmt(median(run.starts[s.name]!))} ms`).join("; ")}`);
    log(`  profiled CLI start ${fmt(run.profile.startMs)} ms: ${run.profile.parts.map((p) => `${p.part} ${fmt(p.ms)}`).join("; ")}`);
  }
  const settings = { starts: STARTS, quick, targetMs: TARGET_MS, load: [loadAtStart, loadavg()[0]!] };
  const checks = runs.flatMap((run) =>
    servers.map((s) => {
      const ms = median(run.starts[s.name]!);
      return {
        what: `${s.name}: start to first answer on Node ${run.version} (median)`,
        value: `${fmt(ms)} ms`,
        target: `≤ ${TARGET_MS} ms`,
        met: ms <= TARGET_MS,
      };
    }),
  );
  await writeReport("start", startMarkdown(runs, settings.load), { ...settings, lines: runs, checks });
} finally {
  await rm(dir, { recursive: true, force: true });
}

function startMarkdown(runs: LineRun[], load: number[]): string {
  const cell = (ms: number[]) => `${fmt(median(ms))} (${ms.map((t) => fmt(t)).join(", ")})`;
  const parts = [...new Set(runs.flatMap((run) => run.profile.parts.map((p) => p.part)))];
  const share = (run: LineRun, part: string) => {
    const total = run.profile.parts.reduce((sum, p) => sum + p.ms, 0);
    const ms = run.profile.parts.find((p) => p.part === part)?.ms;
    return ms === undefined ? "·" : `${fmt(ms)} (${fmt((100 * ms) / total)}%)`;
  };
  return `# Intake's start on each Node line

${runLine()}. ${quick ? "**A smoke run (--quick): one start each, not a report to commit.** " : ""}Each server started and
stopped ${STARTS} time(s) on each line, the lines and the servers taking turns, after one round not counted
(it fills the disk's cache and node's compile cache, and makes the certificate); the figure is the median,
from spawning node to the first 2xx answer to a lookup (asked every 10 ms), as \`npm run bench:peers\` takes it.
The servers hold 1,000 contacts and 1,000 lists from a seed file. The machine has 2 cores, shared: its load
average was ${load.map((l) => fmt(l, 1)).join(" at the start and ")} at the end (2 is both cores busy), so compare the lines within
this run rather than with another run's figures.

## Start to first answer, ms (median; each)

| Node | ${servers.map((s) => s.name).join(" | ")} | ≤ ${TARGET_MS} ms |
|---|${servers.map(() => "---:").join("|")}|---|
${runs.map((run) => `| ${run.version} | ${servers.map((s) => cell(run.starts[s.name]!)).join(" | ")} | ${verdict(servers.every((s) => median(run.starts[s.name]!) <= TARGET_MS))} |`).join("\n")}

## Where the CLI's start goes, on each line

One more start of the CLI on each line under node's CPU profiler (\`--cpu-prof\`, which slows it; the profile begins
once node has booted). Each sample until the first answer is charged to one part (support/start-profile.ts): a
package with everything it loads, split into loading it and Intake's calls into it; node's own work apart.
graphql here is msw's, loaded with
msw's core by the store library.

| Part | ${runs.map((run) => `Node ${run.line}, ms (share)`).join(" | ")} |
|---|${runs.map(() => "---:").join("|")}|
| **profiled start to first answer** | ${runs.map((run) => `**${fmt(run.profile.startMs)}**`).join(" | ")} |
${parts.map((part) => `| ${part} | ${runs.map((run) => share(run, part)).join(" | ")} |`).join("\n")}
`;
}
