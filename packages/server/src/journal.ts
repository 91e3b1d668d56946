/**
 * The request journal: the most recent /v1 requests with their outcome, for tests to assert on.
 * Bounded, so a long CI run does not grow memory without end; keys never appear in it.
 */
import { ByteRing } from "./byte-ring.js";
import { hasApiKeyShape } from "./ids.js";
import type { components } from "./generated/admin.js";

export type JournalEntry = components["schemas"]["JournalEntry"];

/**
 * An entry as the pipeline records it: the time as a number, the query and bodies as the text
 * that was sent, all made into a JournalEntry (the key redacted) only when somebody reads the
 * journal.
 */
export type JournalRecord = Omit<JournalEntry, "at" | "query" | "requestBody" | "responseBody"> & {
  at: number;
  search: string;
  requestText: string | null;
  responseText: string | null;
};

/** Bodies larger than this are replaced by a note saying how large they were. */
const MAX_BODY_CHARS = 64 * 1024;

/** A record's texts, in the order they are kept: one after the other, each with its length. */
type Texts = [
  id: string,
  method: string,
  path: string,
  search: string,
  operationId: string | null,
  authForm: string | null,
  accountId: string | null,
  errorCode: string | null,
  fault: string | null,
  requestText: string | null,
  responseText: string | null,
];
/** Typed as the tuple's length, so the two cannot drift apart. */
const TEXT_COUNT: Texts["length"] = 11;
// at, durationMs and status as doubles, then each text's length in UTF-16 units (-1 for null).
const HEADER_BYTES = 3 * 8 + TEXT_COUNT * 4;

/**
 * Records are kept as bytes in a ByteRing rather than as objects: a thousand requests' records
 * outlive a scavenge or two and are promoted, and with a million contacts stored that kept the
 * garbage collector marking a heap of 900 MB (bench/README.md).
 */
export class Journal {
  private readonly ring: ByteRing;

  /** `isKey` tells a live API key: a key sent where no key belongs is redacted all the same. */
  constructor(
    readonly capacity: number,
    private readonly isKey: (value: string) => boolean = () => false,
  ) {
    try {
      this.ring = new ByteRing(capacity);
    } catch (error) {
      throw new Error(`journalSize must be a whole number, 0 or more (got ${capacity}).`, { cause: error });
    }
  }

  add(record: JournalRecord): void {
    if (this.capacity <= 0) return;
    const texts = textsOf(record);
    let text = "";
    for (const part of texts) if (part !== null) text += part;
    // UTF-8 takes at most 3 bytes for each UTF-16 unit.
    this.ring.push(HEADER_BYTES + text.length * 3, (bytes, view, offset) => {
      view.setFloat64(offset, record.at);
      view.setFloat64(offset + 8, record.durationMs);
      view.setFloat64(offset + 16, record.status);
      for (let i = 0; i < texts.length; i++) view.setInt32(offset + 24 + i * 4, texts[i]?.length ?? -1);
      return HEADER_BYTES + encoder.encodeInto(text, bytes.subarray(offset + HEADER_BYTES)).written;
    });
  }

  /** Oldest first. */
  list(): JournalEntry[] {
    const entries: JournalEntry[] = [];
    const secret = (name: string, value: string) => CREDENTIAL_NAME.test(name) || hasApiKeyShape(value) || this.isKey(value);
    this.ring.forEach((bytes, view, start, end) => entries.push(present(decode(bytes, view, start, end), secret)));
    return entries;
  }

  clear(): void {
    this.ring.clear();
  }
}

/** The record's texts in the order they are kept, read by name (a loop over names reads far slower). */
function textsOf(r: JournalRecord): Texts {
  return [r.id, r.method, r.path, r.search, r.operationId, r.authForm, r.accountId, r.errorCode, r.fault, bounded(r.requestText), bounded(r.responseText)];
}

const encoder = new TextEncoder();
// ignoreBOM: a text that starts with U+FEFF keeps it (a decoder would drop it and shift every field).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function decode(bytes: Uint8Array, view: DataView, start: number, end: number): JournalRecord {
  // Slicing the decoded text by UTF-16 lengths is exact: a lone surrogate, if any text had one,
  // comes back as U+FFFD, one unit all the same.
  const text = decoder.decode(bytes.subarray(start + HEADER_BYTES, end));
  let from = 0;
  const texts: Array<string | null> = [];
  for (let i = 0; i < TEXT_COUNT; i++) {
    const length = view.getInt32(start + 24 + i * 4);
    texts.push(length < 0 ? null : text.slice(from, (from += length)));
  }
  const [id, method, path, search, operationId, authForm, accountId, errorCode, fault, requestText, responseText] = texts as Texts;
  // In the order the pipeline builds a record, so entries read out as they always have.
  return {
    id,
    at: view.getFloat64(start),
    method,
    path,
    search,
    operationId,
    authForm: authForm as JournalRecord["authForm"],
    accountId,
    status: view.getFloat64(start + 16),
    errorCode,
    fault,
    durationMs: view.getFloat64(start + 8),
    requestText,
    responseText,
  } as JournalRecord;
}

/** A query parameter whose name says it holds a secret, however spelt (apiKey, api_key, api_token, client_secret...). */
const CREDENTIAL_NAME = /key|token|secret|passw|auth|credential/i;
const REDACTED = "[REDACTED]";

type Secret = (name: string, value: string) => boolean;

function present({ at, search, requestText, responseText, ...rest }: JournalRecord, secret: Secret): JournalEntry {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) query[name] = secret(name, value) ? REDACTED : value;
  return { ...rest, at: new Date(at).toISOString(), query, requestBody: redacted(parsed(requestText), secret), responseBody: redacted(parsed(responseText), secret) };
}

/**
 * A body with every string that is a key redacted (by value only: a body's field names are the
 * caller's, custom fields among them). Bodies are at most 32 levels deep.
 */
function redacted(value: unknown, secret: Secret): unknown {
  if (typeof value === "string") return secret("", value) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((item) => redacted(item, secret));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redacted(item, secret);
  return out;
}

function bounded(text: string | null): string | null {
  return text !== null && text.length > MAX_BODY_CHARS ? JSON.stringify({ truncated: true, characters: text.length }) : text;
}

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
