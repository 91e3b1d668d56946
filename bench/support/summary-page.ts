/** The page of bench/results/README.md: every report's checks in one table, and which build each report measured. */
import { percent, verdict } from "./figures.js";
import { DISTURBED } from "./machine.js";

export interface Check {
  what: string;
  value: string;
  target: string;
  met: boolean;
}

/** What the summary reads of a report's JSON: its name (the file's, without .json), its checks, its run. */
export interface ReportFigures {
  name: string;
  checks?: Check[];
  /** `stolen`: the share of the machine's time the host took during the run (absent in older reports). */
  run?: { build: string; startedAt: string; stolen?: number | null };
}

/** The page for `reports`, in the order given (the summary gives them in the order of their file names). */
export function summaryPage(reports: ReportFigures[]): string {
  const rows: string[] = [];
  // Which build and machine each report measured, so reports of different builds are not read as one run.
  const measuredOn = new Map<string, { names: string[]; started: string[]; stolen: number[] }>();
  const disturbed: string[] = [];
  let missed = 0;
  for (const { name, checks, run } of reports) {
    const build = run?.build ?? "build not recorded";
    const on = measuredOn.get(build) ?? { names: [], started: [], stolen: [] };
    measuredOn.set(build, on);
    on.names.push(name);
    if (run) on.started.push(run.startedAt);
    if (typeof run?.stolen === "number") {
      on.stolen.push(run.stolen);
      if (run.stolen >= DISTURBED) disturbed.push(`${name} (${percent(run.stolen)})`);
    }
    for (const check of checks ?? []) {
      if (!check.met) missed++;
      rows.push(`| [${name}](${name}.md) | ${check.what} | ${check.value} | ${check.target} | ${verdict(check.met)} |`);
    }
  }
  return `# Benchmark results

Every target the benchmarks check, from the latest run of each (\`npm run bench\` runs them all and
then writes this page). The machines are shared and noisy: each comparison ran both sides in one run,
taking turns, and the figures are ratios of medians. The reports give the figures, the method, and
what was found where a target is missed.
${disturbed.length ? `\n**Disturbed runs**: the host took ${percent(DISTURBED)} or more of the machine's time (steal) while ${disturbed.join(", ")} ran. Their figures say as much about the machine as about Intake: rerun them when it is calm.\n` : ""}
| Report | Check | Measured | Target | |
|---|---|---:|---:|---|
${rows.join("\n")}

${missed ? `${missed} of ${rows.length} checks missed.` : `All ${rows.length} checks met.`}

Measured on:
${[...measuredOn].map(([build, { names, started, stolen }]) => `- ${build}: ${names.join(", ")}${started.length ? ` (started ${span(started)})` : ""}${stolen.length ? `; the host took ${range(stolen)} of the machine's time` : ""}`).join("\n")}
`;
}

/** "3.0% to 31.9%", or one figure when they are all the same. */
function range(shares: number[]): string {
  const [low, high] = [Math.min(...shares), Math.max(...shares)];
  return percent(low) === percent(high) ? percent(low) : `${percent(low)} to ${percent(high)}`;
}

/** "2026-11-21 14:57 UTC to 15:08 UTC" from the start times of a build's reports. */
function span(times: string[]): string {
  const sorted = [...times].sort();
  const [first, last] = [sorted[0]!, sorted.at(-1)!];
  return first === last ? first : `${first} to ${last.slice(0, 10) === first.slice(0, 10) ? last.slice(11) : last}`;
}
