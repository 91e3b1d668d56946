/**
 * A recording of a model's answers, for CI: record mode keeps each answer the endpoint gave in a
 * JSON file, keyed by what the model was asked; replay mode answers from the file only, with no
 * endpoint and no key. The file is for people too: each entry holds the request's messages and
 * the answer as the model gave it.
 *
 * ```json
 * { "format": "intake-model-recording/1",
 *   "entries": [{ "key": "sha256:…", "model": "llama3.2", "tools": ["hand_off_to_person"],
 *                 "messages": [{ "role": "system", "content": "…" }, { "role": "user", "content": "…" }],
 *                 "answer": { "content": "…", "handOff": null, "finishReason": "stop" },
 *                 "via": "tools", "recordedAt": "2026-…" }] }
 * ```
 *
 * Each answer is written before the bot hands it on (adapters/recording-file.ts writes it
 * atomically): a crash mid-run loses no answer the conversation shows.
 */
import type { RecordingFile } from "../adapters/recording-file.js";
import type { ModelAnswer } from "./answer.js";
import type { ChatMessage } from "./prompt.js";

export const RECORDING_FORMAT = "intake-model-recording/1";

/** What the model is asked: the key is a hash of exactly this. */
export interface Question {
  model: string;
  messages: ChatMessage[];
  /** The tools offered, as sent. */
  tools: unknown[];
}

export interface RecordingEntry {
  key: string;
  model: string;
  /** The names of the tools offered. */
  tools: string[];
  messages: ChatMessage[];
  answer: ModelAnswer;
  /** How the endpoint answered: with tools, or, refusing them, in text (a `HANDOFF:` first line). */
  via: "tools" | "text";
  recordedAt: string;
}

/** `sha256:<hex>` of the question as canonical JSON (keys sorted): the same question, the same key. */
export async function questionKey(question: Question): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical(question)));
  return `sha256:${Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

export class Recording {
  private readonly entries = new Map<string, RecordingEntry>();
  private writing: Promise<void> = Promise.resolve();

  /**
   * Replay: the file must exist and be a recording. Record: one that exists is added to (an entry
   * asked again is replaced), a missing one is created now, so a path that cannot be written fails
   * at start. Throws an Error saying what to do.
   */
  constructor(
    private readonly file: RecordingFile,
    mode: "record" | "replay",
  ) {
    const what = mode === "replay" ? "replay" : "add to";
    let text: string | undefined;
    try {
      text = file.read();
    } catch (error) {
      throw new Error(`cannot ${what} the recording ${file.path}: ${(error as Error).message}.`, { cause: error });
    }
    if (text === undefined && mode === "replay") {
      throw new Error(
        `cannot replay the recording ${file.path}: there is no such file. Record one first: run with --model-record FILE against an endpoint.`,
      );
    }
    if (text === undefined) {
      try {
        file.create(serialize([]));
      } catch (error) {
        throw new Error(`cannot create the recording file ${file.path}: ${(error as Error).message}`, { cause: error });
      }
      return;
    }
    for (const entry of parseRecording(text, `cannot ${what} ${file.path}`)) this.entries.set(entry.key, entry);
  }

  get path(): string {
    return this.file.path;
  }

  get size(): number {
    return this.entries.size;
  }

  find(key: string): RecordingEntry | undefined {
    return this.entries.get(key);
  }

  /** Keeps the entry, and resolves once the file holds it. Writes go one at a time, in order. */
  save(entry: RecordingEntry): Promise<void> {
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    const text = serialize([...this.entries.values()]);
    const written = this.writing.then(() =>
      this.file.write(text).catch((error: unknown) => {
        throw new Error(`cannot write the recording file ${this.file.path}: ${(error as Error).message}`, { cause: error });
      }),
    );
    // A failed write fails its own save; the next one writes the whole file again.
    this.writing = written.catch(() => {});
    return written;
  }
}

function serialize(entries: RecordingEntry[]): string {
  return `${JSON.stringify({ format: RECORDING_FORMAT, entries }, null, 2)}\n`;
}

/** The entries of a recording's text, checked enough that a wrong file is named as such (`cannot`: how an error starts). */
function parseRecording(text: string, cannot: string): RecordingEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${cannot}: it is not JSON (${(error as Error).message}).`, { cause: error });
  }
  const file = data as { format?: unknown; entries?: unknown };
  if (typeof file !== "object" || file === null || file.format !== RECORDING_FORMAT || !Array.isArray(file.entries)) {
    throw new Error(`${cannot}: it is not a model recording (a JSON object with "format": "${RECORDING_FORMAT}" and "entries").`);
  }
  file.entries.forEach((entry: unknown, index) => {
    const e = entry as Partial<RecordingEntry> | null;
    if (typeof e?.key !== "string" || typeof e.answer !== "object" || e.answer === null || !Array.isArray(e.messages)) {
      throw new Error(`${cannot}: entries[${index}] has no key, messages and answer.`);
    }
  });
  return file.entries as RecordingEntry[];
}
