/**
 * The request journal: the most recent /v1 requests with their outcome, for tests to assert on.
 * Bounded, so a long CI run does not grow memory without end; keys never appear in it.
 */
import type { components } from "./generated/admin.js";

export type JournalEntry = components["schemas"]["JournalEntry"];

/** Bodies larger than this are replaced by a note saying how large they were. */
const MAX_BODY_CHARS = 64 * 1024;

export class Journal {
  private entries: JournalEntry[] = [];
  private start = 0;

  constructor(readonly capacity: number) {}

  add(entry: JournalEntry): void {
    if (this.capacity <= 0) return;
    const bounded = { ...entry, requestBody: bound(entry.requestBody), responseBody: bound(entry.responseBody) };
    if (this.entries.length < this.capacity) {
      this.entries.push(bounded);
    } else {
      this.entries[this.start] = bounded;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** Oldest first. */
  list(): JournalEntry[] {
    return [...this.entries.slice(this.start), ...this.entries.slice(0, this.start)];
  }

  clear(): void {
    this.entries = [];
    this.start = 0;
  }
}

function bound(body: unknown): unknown {
  if (body === undefined) return null;
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch {
    return { unserializable: true };
  }
  return text.length > MAX_BODY_CHARS ? { truncated: true, characters: text.length } : body;
}
