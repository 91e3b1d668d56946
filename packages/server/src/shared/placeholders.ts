/**
 * The placeholders a campaign's texts (its opening template, its follow-ups) may hold, and the
 * check that refuses any other: an unknown one would reach the lead as written ("Hi {{first_name}}").
 */
import { nearestName } from "./nearest-name.js";

/** What engine/render.ts replaces. */
export const PLACEHOLDERS = ["firstName", "lastName"] as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** What is wrong with a text's placeholders, as the end of a sentence that starts with its name; undefined when all are known. */
export function placeholderProblem(text: string): string | undefined {
  for (const [written, name] of text.matchAll(PLACEHOLDER)) {
    if ((PLACEHOLDERS as readonly string[]).includes(name!)) continue;
    const near = nearestName(name!, PLACEHOLDERS, { misspelt: true });
    const known = PLACEHOLDERS.map((known) => `{{${known}}}`).join(" and ");
    return `has an unknown placeholder ${written}${near ? `: did you mean {{${near}}}?` : "."} The placeholders are ${known}.`;
  }
  return undefined;
}
