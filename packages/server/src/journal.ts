/**
 * The request journal: the most recent /v1 requests with their outcome, for tests to assert on.
 * Bounded, so a long CI run does not grow memory without end; keys never appear in it.
 */
import type { components } from "./generated/admin.js";

export type JournalEntry = components["schemas"]["JournalEntry"];

/**
 * An entry as the pipeline records it: the time as a number, the query and bodies as the text
 * that was sent, all made into a JournalEntry (the key redacted) only when somebody reads the
 * journal. Keeping text rather than objects also keeps the garbage collector's work small.
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
  private entries: JournalRecord[] = [];
  private start = 0;

  constructor(readonly capacity: number) {}

  add(record: JournalRecord): void {
    if (this.capacity <= 0) return;
    record.requestText = bounded(record.requestText);
    record.responseText = bounded(record.responseText);
    if (this.entries.length < this.capacity) {
      this.entries.push(record);
    } else {
      this.entries[this.start] = record;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** Oldest first. */
  list(): JournalEntry[] {
    return [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)].map(present);
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
  }
}

function present({ at, search, requestText, responseText, ...rest }: JournalRecord): JournalEntry {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) query[name] = name === "apiKey" ? "[REDACTED]" : value;
  return { ...rest, at: new Date(at).toISOString(), query, requestBody: parsed(requestText), responseBody: parsed(responseText) };
}

function bounded(text: string | null): string | null {
  return text !== null && text.length > MAX_BODY_CHARS ? JSON.stringify({ truncated: true, characters: text.length }) : text;
}

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));
