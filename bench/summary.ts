/**
 * Gathers the targets every benchmark checked (the `checks` of each bench/results/*.json) into
 * bench/results/README.md: one table of where Intake stands, each row linking to its report.
 *
 * Run: npm run bench:summary   (npm run bench runs it last)
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { summaryPage, type ReportFigures } from "./support/summary-page.js";

const results = fileURLToPath(new URL("results/", import.meta.url));
const reports: ReportFigures[] = [];
for (const file of (await readdir(results)).filter((f) => f.endsWith(".json")).sort()) {
  const report = JSON.parse(await readFile(`${results}${file}`, "utf8")) as Omit<ReportFigures, "name">;
  reports.push({ ...report, name: file.replace(/\.json$/, "") });
}
const markdown = summaryPage(reports);
await writeFile(`${results}README.md`, markdown);
console.log(markdown);
