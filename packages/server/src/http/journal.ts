/**
 * The request journal: the most recent /v1 requests with their outcome, for tests to assert on,
 * and the pipeline step that records each one once answered. Bounded, so a long CI run does not
 * grow memory without end; keys never appear in it.
 */
import type { components } from "../generated/admin.js";
import { hasApiKeyShape } from "../shared/ids.js";
import type { Step } from "./pipeline.js";

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

export class Journal {
  /** A ring: once full, the newest entry takes the oldest one's place and `oldest` moves on. */
  private entries: JournalRecord[] = [];
  private oldest = 0;

  /** `isKey` tells a live API key: a key sent where no key belongs is redacted all the same. */
  constructor(
    readonly capacity: number,
    private readonly isKey: (value: string) => boolean = () => false,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`journalSize must be a whole number, 0 or more (got ${capacity}).`);
  }

  add(record: JournalRecord): void {
    if (this.capacity === 0) return;
    const entry = { ...record, requestText: bounded(record.requestText), responseText: bounded(record.responseText) };
    if (this.entries.length < this.capacity) {
      this.entries.push(entry);
    } else {
      this.entries[this.oldest] = entry;
      this.oldest = (this.oldest + 1) % this.capacity;
    }
  }

  /** Oldest first. */
  list(): JournalEntry[] {
    const secret = (name: string, value: string) => CREDENTIAL_NAME.test(name) || hasApiKeyShape(value) || this.isKey(value);
    return [...this.entries.slice(this.oldest), ...this.entries.slice(0, this.oldest)].map((entry) => present(entry, secret));
  }

  clear(): void {
    this.entries = [];
    this.oldest = 0;
  }
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

/** A refused request may carry up to 64 KiB of URL: the journal keeps 1 KiB of its path, no query. */
const REFUSED_PATH_CHARS = 1024;

/** Records each request and its answer, once answered. */
export function journal(record: (entry: JournalRecord) => void, now: () => number): Step {
  return async (context, next) => {
    await next();
    const { request, url, response } = context;
    const refused = request.refusal !== undefined;
    record({
      id: context.requestId ?? "",
      at: context.started,
      method: request.method,
      path: refused ? url.pathname.slice(0, REFUSED_PATH_CHARS) : url.pathname,
      search: refused ? "" : url.search,
      operationId: context.route?.operationId ?? null,
      authForm: context.auth?.form ?? null,
      accountId: context.account?.id ?? null,
      status: response!.status,
      errorCode: context.errorCode ?? null,
      fault: context.fault ?? null,
      durationMs: now() - context.started,
      requestText: context.bodyText ?? null,
      responseText: response!.body,
    });
  };
}

