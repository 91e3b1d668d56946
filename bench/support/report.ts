/** Writes a benchmark's report: markdown for people, the raw figures as JSON beside it. */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { percent } from "./figures.js";
import { cpuTimes, DISTURBED, stolenShare } from "./machine.js";

const bench = fileURLToPath(new URL("..", import.meta.url));
const results = `${bench}results/`;

export async function writeReport(name: string, markdown: string, raw: unknown): Promise<void> {
  await mkdir(results, { recursive: true });
  await writeFile(`${results}${name}.md`, `${markdown.trim()}\n`);
  await writeFile(`${results}${name}.json`, `${JSON.stringify({ run: run(), ...(raw as object) }, null, 2)}\n`);
}

/**
 * The line a report opens with: the build measured, on what, when the run started, and the share of the
 * machine's time the host took meanwhile (marked when it is enough to make the figures unlike a calm run's).
 */
export const runLine = () => describeRun(run());

export function describeRun({ build, startedAt, stolen }: Run): string {
  if (stolen === null) return `${build}, ${startedAt}`;
  const share = `the host took ${percent(stolen)} of the machine's time during the run (steal)`;
  return `${build}, ${startedAt}; ${share}${stolen >= DISTURBED ? ": **a disturbed run**, its figures say as much about the machine as about Intake" : ""}`;
}

/** When this benchmark started, to the minute, and the machine's CPU times then. */
const startedAt = `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`;
const timesAtStart = cpuTimes();

/**
 * Which build was measured, taken when the benchmark starts: a report is only comparable with
 * another from the same commit. Changes to tracked files under bench/results are the reports
 * themselves, so they do not count as local changes; untracked files (scratch) do not either.
 */
const commit = (() => {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: bench, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  try {
    const hash = git("rev-parse", "--short", "HEAD");
    const changed = git("status", "--porcelain", "--untracked-files=no", "--", ":/", ":(exclude,top)bench/results");
    return `commit ${hash}${changed ? " with local changes" : ""}`;
  } catch {
    return "commit unknown (not a git checkout)";
  }
})();

/**
 * What every report's JSON records about its run: the build measured on what, when it started, and the
 * share of the machine's time the host took from then until the report was written (null where
 * /proc/stat cannot tell). Read once, when the report is first described, so its markdown and JSON
 * give the same share.
 */
export interface Run {
  build: string;
  startedAt: string;
  stolen: number | null;
}
let ended: Run | undefined;
const run = (): Run =>
  (ended ??= {
    build: `Node ${process.version}, ${availableParallelism()} cores; ${commit}`,
    startedAt,
    stolen: stolenShare(timesAtStart, cpuTimes()) ?? null,
  });

/** Heap in use after two full collections; needs node --expose-gc (the bench scripts pass it). */
export function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== "function") throw new Error("Run with node --expose-gc (the npm run bench:* scripts do).");
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
