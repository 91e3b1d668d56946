/**
 * The request journal: the most recent /v1 requests with their outcome, for tests to assert on,
 * kept from the `request.answered` events. Bounded, so a long CI run does not grow memory without
 * end; keys never appear in what it shows.
 */
import type { components } from "../generated/admin.js";
import type { AnsweredRequest } from "../events/events.js";
import type { EventStream } from "../events/stream.js";
import { API_KEY_SHAPE_IN_TEXT, hasApiKeyShape } from "../shared/ids.js";
import { keptBody } from "../shared/kept-body.js";

export type JournalEntry = components["schemas"]["JournalEntry"];

export class Journal {
  /** A ring: once full, the newest entry takes the oldest one's place and `oldest` moves on. */
  private entries: AnsweredRequest[] = [];
  private oldest = 0;

  /** `isKey` tells a live API key: a key sent where no key belongs is redacted all the same. */
  constructor(
    readonly capacity: number,
    private readonly isKey: (value: string) => boolean = () => false,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`journalSize must be a whole number, 0 or more (got ${capacity}).`);
  }

  /** Keeps each request answered from now on, and starts afresh when the state is reset. */
  follow(events: EventStream): () => void {
    return events.on(["request.answered", "state.replaced"], (event) => {
      if (event.type === "request.answered") this.add(event.request);
      else if (event.cause === "reset") this.clear();
    });
  }

  add(record: AnsweredRequest): void {
    if (this.capacity === 0) return;
    // The event's bodies are bounded already; the journal holds to the same rule whatever it is given.
    const entry = { ...record, requestText: keptBody(record.requestText), responseText: keptBody(record.responseText) };
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
  requestLine(record: Pick<AnsweredRequest, "method" | "path" | "key">): { method: string; path: string } {
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

function present(
  { at, search, requestText, responseText, key, method, path, ...rest }: AnsweredRequest,
  isKey: (value: string) => boolean,
): JournalEntry {
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

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
