/**
 * The request journal: the most recent /v1 requests with their outcome, for tests to assert on,
 * and the pipeline step that records each one once answered. Bounded, so a long CI run does not
 * grow memory without end; keys never appear in it.
 */
import type { components } from "../generated/admin.js";
import { API_KEY_SHAPE_IN_TEXT, hasApiKeyShape } from "../shared/ids.js";
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
  /**
   * The key the request was authenticated with, never shown: kept so that it is redacted wherever
   * else the request repeated it, even once it is no account's key and has no key's shape.
   */
  key?: string;
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
    const isKey = (value: string) => hasApiKeyShape(value) || this.isKey(value);
    return [...this.entries.slice(this.oldest), ...this.entries.slice(0, this.oldest)].map((entry) => present(entry, isKey));
  }

  /** A record's method and path as `list` shows them, keys redacted (what the live events show). */
  requestLine(record: JournalRecord): { method: string; path: string } {
    const isKey = (value: string) => hasApiKeyShape(value) || this.isKey(value);
    const redact: Redact = (text) => withoutKeys(text, isKey, record.key);
    return { method: redact(record.method), path: redactedPath(record.path, redact) };
  }

  clear(): void {
    this.entries = [];
    this.oldest = 0;
  }
}

/** A query parameter whose name says it holds a secret, however spelt (apiKey, api_key, api_token, client_secret...). */
const CREDENTIAL_NAME = /key|token|secret|passw|auth|credential/i;
const REDACTED = "[REDACTED]";

/** Text with every key in it redacted. */
type Redact = (text: string) => string;

function present({ at, search, requestText, responseText, key, method, path, ...rest }: JournalRecord, isKey: (value: string) => boolean): JournalEntry {
  const redact: Redact = (text) => withoutKeys(text, isKey, key);
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) query[redact(name)] = CREDENTIAL_NAME.test(name) ? REDACTED : redact(value);
  return {
    ...rest,
    at: new Date(at).toISOString(),
    method: redact(method),
    path: redactedPath(path, redact),
    query,
    requestBody: redacted(parsed(requestText), redact),
    responseBody: redacted(parsed(responseText), redact),
  };
}

/**
 * A run of the characters a key can hold (a seed's key of its own choosing is letters, digits, _
 * and -, 16 or more), looked up whole: a key of the caller's own pasted into a longer text is found
 * between spaces, slashes, quotes or any other character a key cannot hold.
 */
const KEY_CHARACTERS = /[A-Za-z0-9_-]{16,}/g;

/**
 * Text with every key in it redacted, not only text that is a key: the request's own key wherever
 * it is, anything of the shape the service makes keys in, and any run that is an account's key.
 */
function withoutKeys(text: string, isKey: (value: string) => boolean, own: string | undefined): string {
  if (isKey(text)) return REDACTED;
  let out = own ? text.split(own).join(REDACTED) : text;
  out = out.replace(API_KEY_SHAPE_IN_TEXT, REDACTED);
  return out.replace(KEY_CHARACTERS, (run) => (isKey(run) ? REDACTED : run));
}

/**
 * The path with its keys redacted, percent-encoded ones too: a segment can spell a key's
 * characters encoded (%69k_...), which the URL keeps as sent.
 */
function redactedPath(path: string, redact: Redact): string {
  const clean = redact(path);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return clean;
  }
  const cleanDecoded = redact(decoded);
  return cleanDecoded === decoded ? clean : cleanDecoded;
}

/**
 * A body with every key in it redacted: in any string, however deep and however long, and in a
 * field's name (a body's names are the caller's, custom fields among them, so a key can be one).
 * Bodies are at most 32 levels deep.
 */
function redacted(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redacted(item, redact));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[redact(key)] = redacted(item, redact);
  return out;
}

function bounded(text: string | null): string | null {
  return text !== null && text.length > MAX_BODY_CHARS ? JSON.stringify({ truncated: true, characters: text.length }) : text;
}

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** A refused request may carry up to 64 KiB of URL: the journal keeps 1 KiB of its path, no query. */
const REFUSED_PATH_CHARS = 1024;

/** A seed's key is at most this long; the service's are shorter. */
const MAX_KEY_CHARS = 128;

/**
 * The first `max` characters of a text, less a run of key characters the cut ends inside when the
 * run is no longer than a key: a key cut short is no longer found as a key, and would be shown.
 */
function cut(text: string, max: number): string {
  const isKeyCharacter = (at: number) => /[A-Za-z0-9_-]/.test(text.charAt(at));
  if (text.length <= max || !isKeyCharacter(max - 1) || !isKeyCharacter(max)) return text.slice(0, max);
  let start = max;
  while (start > 0 && isKeyCharacter(start - 1) && max - start <= MAX_KEY_CHARS) start--;
  let end = max;
  while (end < text.length && isKeyCharacter(end) && end - start <= MAX_KEY_CHARS) end++;
  return end - start <= MAX_KEY_CHARS ? text.slice(0, start) : text.slice(0, max);
}

/** Records each request and its answer, once answered. */
export function journal(record: (entry: JournalRecord) => void, now: () => number): Step {
  return async (context, next) => {
    await next();
    const { request, url, response } = context;
    const refused = request.refusal !== undefined;
    record({
      key: context.auth?.key,
      id: context.requestId ?? "",
      at: context.started,
      method: request.method,
      path: refused ? cut(url.pathname, REFUSED_PATH_CHARS) : url.pathname,
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

