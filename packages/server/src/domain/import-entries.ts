/**
 * The entries of an import, each checked before anything is made: those that can be imported,
 * and those that cannot, each named by its row (or place) with the value at fault, so a builder
 * with 500 leads finds the one to correct.
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import type { components } from "../generated/admin.js";
import { HttpError } from "../shared/errors.js";
import type { AccountRecord } from "../store/models.js";
import { matchContact } from "./contacts.js";
import type { Domain } from "./domain.js";
import { conflict, invalid } from "./errors.js";

type Schemas = components["schemas"];
type Entry = Schemas["ImportContact"];

/** The same rule as the contract's `format: email` elsewhere (ajv-formats' full mode). */
const EMAIL = fullFormats.email as RegExp;

/** The most entries a refusal names; the rest are counted. */
const NAMED = 20;

export interface SortedEntries {
  valid: Entry[];
  skipped: Schemas["SkippedEntry"][];
}

/** Sorts an import's entries into those it can make or match and those it cannot. */
export function sortEntries(domain: Domain, owner: AccountRecord, input: Schemas["ImportInput"]): SortedEntries {
  const entries = input.contacts ?? [];
  if (input.rows && input.rows.length !== entries.length) {
    throw invalid(
      `rows has ${input.rows.length} entries and contacts ${entries.length}: give one row for each contact, or leave rows out.`,
    );
  }
  const valid: Entry[] = [];
  const skipped: Schemas["SkippedEntry"][] = [];
  const newIds = new Set<string>();
  entries.forEach((contact, index) => {
    const message = problemOf(domain, owner, contact, newIds);
    if (message) skipped.push({ index, row: input.rows?.[index] ?? null, contact, message });
    else valid.push(contact);
  });
  return { valid, skipped };
}

/** The refusal of an import with entries it cannot take: each named (the first 20), nothing added. */
export function refusal(skipped: Schemas["SkippedEntry"][], total: number): HttpError<string> {
  const named = skipped
    .slice(0, NAMED)
    .map((entry) => `${entry.row === null ? `contacts[${entry.index}]` : `row ${entry.row}`}: ${entry.message.replace(/\.$/, "")}`);
  const more = skipped.length > NAMED ? `; and ${skipped.length - NAMED} more` : "";
  // One contact (the dashboard's add by hand) has no others to import.
  if (total === 1) return invalid(`${named[0]!}.`);
  return invalid(
    `${skipped.length} of ${total} contacts cannot be imported, so none was: ${named.join("; ")}${more}. Correct ${skipped.length === 1 ? "it" : "them"}, or import only the valid ones (onInvalid: "skip").`,
  );
}

/** What keeps an entry out, naming the value at fault; undefined when it can be imported. */
function problemOf(domain: Domain, owner: AccountRecord, contact: Entry, newIds: Set<string>): string | undefined {
  if (contact.email !== undefined && !EMAIL.test(contact.email))
    return `email ${JSON.stringify(contact.email)} is not a valid email address.`;
  let match: ReturnType<typeof matchContact>;
  try {
    match = matchContact(domain, owner, contact);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return contact.phone === undefined ? error.message : `phone ${JSON.stringify(contact.phone)}: ${error.message}`;
  }
  if ("known" in match || !contact.id) return undefined;
  // An id is the caller's, not a row's: a taken one is the whole import's conflict (409).
  if (domain.store.contact.get(contact.id) || newIds.has(contact.id)) throw conflict(`A contact with id ${contact.id} already exists.`);
  newIds.add(contact.id);
  return undefined;
}
