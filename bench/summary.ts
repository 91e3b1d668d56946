/**
 * Gathers the targets every benchmark checked (the `checks` of each bench/results/*.json) into
 * bench/results/README.md: one table of where Intake stands, each row linking to its report.
 *
 * Run: npm run bench:summary   (npm run bench runs it last)
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { verdict } from "./support/figures.js";

interface Check {
  what: string;
  value: string;
  target: string;
  met: boolean;
}

const results = fileURLToPath(new URL("results/", import.meta.url));
const rows: string[] = [];
// Which build and machine each report measured, so reports of different builds are not read as one run.
const measuredOn = new Map<string, { names: string[]; started: string[] }>();
let missed = 0;
for (const file of (await readdir(results)).filter((f) => f.endsWith(".json")).sort()) {
  const report = JSON.parse(await readFile(`${results}${file}`, "utf8")) as { checks?: Check[]; run?: { build: string; startedAt: string } };
  const name = file.replace(/\.json$/, "");
  const build = report.run?.build ?? "build not recorded";
  const on = measuredOn.get(build) ?? { names: [], started: [] };
  measuredOn.set(build, on);
  on.names.push(name);
  if (report.run) on.started.push(report.run.startedAt);
  for (const check of report.checks ?? []) {
    if (!check.met) missed++;
    rows.push(`| [${name}](${name}.md) | ${check.what} | ${check.value} | ${check.target} | ${verdict(check.met)} |`);
  }
}
const markdown = `# Benchmark results

Every target the benchmarks check, from the latest run of each (\`npm run bench\` runs them all and
then writes this page). The machines are shared and noisy: each comparison ran both sides in one run,
taking turns, and the figures are ratios of medians. The reports give the figures, the method, and
what was found where a target is missed.

| Report | Check | Measured | Target | |
|---|---|---:|---:|---|
${rows.join("\n")}

${missed ? `${missed} of ${rows.length} checks missed.` : `All ${rows.length} checks met.`}

Measured on:
${[...measuredOn].map(([build, { names, started }]) => `- ${build}: ${names.join(", ")}${started.length ? ` (started ${span(started)})` : ""}`).join("\n")}
`;
await writeFile(`${results}README.md`, markdown);

/** "2026-11-21 14:57 UTC to 15:08 UTC" from the start times of a build's reports. */
function span(times: string[]): string {
  const sorted = [...times].sort();
  const [first, last] = [sorted[0]!, sorted.at(-1)!];
  return first === last ? first : `${first} to ${last.slice(0, 10) === first.slice(0, 10) ? last.slice(11) : last}`;
}
console.log(markdown);
