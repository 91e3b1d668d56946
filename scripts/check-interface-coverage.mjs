#!/usr/bin/env node
// The interface-coverage page names, for every rule of the service's interface, the tests that
// assert it. This checks that each named test exists: its file is there and holds a test with that
// title. A row with no test, or one still marked LEAD (left for the lead to fill in), fails too.
//
//   node scripts/check-interface-coverage.mjs [page]   (from the repository root)
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

const page = process.argv[2] ?? "packages/server/docs/interface-coverage.md";
const root = process.cwd();

/** The cells of a Markdown table row; `\|` is a pipe inside a cell. */
function cells(line) {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll("\\|", "|"));
}

/** `file` › "title" references, in order; what is left over is not a reference. */
function references(cell) {
  const found = [];
  const pattern = /`([^`]+)` › "(.*?)"(?=; `|$)/g;
  let rest = cell;
  for (const match of cell.matchAll(pattern)) {
    found.push({ file: match[1], title: match[2] });
    rest = rest.replace(match[0], "");
  }
  return { found, rest: rest.replaceAll(";", "").trim() };
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether the source has a test with this title: `it(`, `test(`, `direct(` or an `.each(...)(` call, with the title as a string literal. */
function hasTest(source, title) {
  return ['"', "'", "`"].some((quote) => {
    const literal = title.replaceAll("\\", "\\\\").replaceAll(quote, `\\${quote}`);
    const opening = String.raw`(?:\b(?:it|test|direct)(?:\.(?:only|skip|concurrent|fails))?|\))\(\s*`;
    return new RegExp(opening + escape(quote + literal + quote)).test(source);
  });
}

const sources = new Map();
const read = (file) => {
  if (!sources.has(file)) sources.set(file, existsSync(resolve(root, file)) ? readFileSync(resolve(root, file), "utf8") : null);
  return sources.get(file);
};

if (!existsSync(resolve(root, page))) {
  console.error(`${page} is missing.`);
  process.exit(1);
}
const problems = [];
let rows = 0;
for (const line of readFileSync(resolve(root, page), "utf8").split("\n")) {
  if (!line.trimStart().startsWith("|")) continue;
  const row = cells(line);
  if (!/^\d+$/.test(row[0] ?? "")) continue;
  rows++;
  const id = `row ${row[0]}`;
  const cell = row.at(-1) ?? "";
  if (cell === "LEAD") {
    problems.push(`${id}: marked LEAD; the lead names its test.`);
    continue;
  }
  const { found, rest } = references(cell);
  if (found.length === 0) {
    problems.push(
      `${id}: no test named${cell ? ` (the Test cell reads ${JSON.stringify(cell)}; write \`path/to/file.ts\` › "test title")` : ""}.`,
    );
    continue;
  }
  if (rest) problems.push(`${id}: ${JSON.stringify(rest)} in the Test cell is not a \`file\` › "title" reference.`);
  for (const { file, title } of found) {
    const source = read(file);
    if (source === null) problems.push(`${id}: ${file} does not exist.`);
    else if (!hasTest(source, title)) problems.push(`${id}: ${file} has no test titled ${JSON.stringify(title)}.`);
  }
}
if (rows === 0) problems.push(`${page} has no numbered table rows.`);
if (problems.length) {
  console.error(`${page}: ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`${page}: the ${rows} rows name tests that exist.`);
