/**
 * Writes the state's changes through to the data file: a subscriber of the event stream, it
 * collects the changes each event carries and commits one event-loop turn's in one transaction
 * at the end of the turn; the answers (and webhooks) that stem from them wait for that commit. A
 * crash loses nothing that was answered, and a write costs what it changed, however large the state.
 */
import type { Snapshot } from "../domain/state.js";
import type { EventSource } from "../events/stream.js";
import { HttpError } from "../shared/errors.js";
import { explain, type Changes, type DataFile, type Meta } from "./data-file.js";

/** What persistence needs of the service (an Intake has it). */
export interface Persisted {
  snapshot(): Snapshot;
  idState(): unknown;
  clock: { mode: "real" | "virtual"; now(): number };
  events: EventSource;
  holdAnswers(hold: () => Promise<void> | undefined): () => void;
  reportError(error: unknown): void;
}

export interface Persistence {
  /** Where an imported intake-snapshot/1 JSON file was kept, if one was. */
  readonly keptJson: string | undefined;
  /** Commits what changed now rather than at the end of the turn. */
  flush(): void;
  /** Commits what is left, closes the file and gives it up; throws if something could not be saved. */
  stop(): void;
}

/** A commit that failed (a full disk, a lock another program holds): its message says why, and what to do. */
export class NotSavedError extends Error {
  override name = "NotSavedError";
}

/** How long after a failed commit it is tried again, if nothing changes meanwhile. */
const RETRY_MS = 1000;

/**
 * Keeps the data file in step with the service from now on. A new file, or a JSON file being
 * imported, first gets the whole current state. Call it in the turn `createIntake` ran in, before
 * any `await`: stored jobs already due start on the next microtask, and a change made before this
 * listens would never be saved.
 */
export function persist(intake: Persisted, file: DataFile): Persistence {
  let keptJson: string | undefined;
  if (file.kind !== "sqlite") {
    try {
      keptJson = file.create(intake.snapshot());
    } catch (error) {
      file.close();
      // Errors of SQLite's and Node's carry a code; one without is already explained.
      if ((error as { code?: unknown }).code === undefined) throw error;
      throw new Error(explain(file.path, error), { cause: error });
    }
  }

  let changes: Changes = new Map();
  /** A load or a reset replaced the whole state: it is written whole. */
  let everything = false;
  let dirty = false;
  let scheduled: ReturnType<typeof setImmediate> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let waiting: Deferred | undefined;
  /** The last commit failed: the next failures are not reported again, until one succeeds. */
  let failing = false;

  const unsubscribe = intake.events.subscribe((event, envelope) => {
    if (event.type === "state.replaced") {
      everything = true;
      changes = new Map();
    } else if (envelope.changes.length === 0 && event.type !== "clock.advanced") {
      // Nothing to save (a request answered): the clock and the ids go with the next commit.
      return;
    } else if (!everything) {
      for (const change of envelope.changes) {
        let records = changes.get(change.kind);
        if (!records) changes.set(change.kind, (records = new Map()));
        records.set(change.id, change.record);
      }
    }
    dirty = true;
    scheduled ??= setImmediate(commit);
  });

  // Waits for everything changed so far: after a failed commit, that is a new attempt.
  const releaseHold = intake.holdAnswers(() => {
    if (!dirty) return undefined;
    scheduled ??= setImmediate(commit);
    return (waiting ??= deferred()).promise;
  });

  function commit() {
    scheduled = undefined;
    clearTimeout(retry);
    const waiters = waiting;
    waiting = undefined;
    if (!dirty) return waiters?.resolve();
    try {
      if (everything) file.replace(intake.snapshot());
      else file.write(changes, meta());
    } catch (error) {
      // Rolled back: the file keeps the last commit, and these changes are tried again.
      if (!failing) intake.reportError(new NotSavedError(`${explain(file.path, error)} The changes are kept in memory and saved once that works.`, { cause: error }));
      failing = true;
      waiters?.reject(notSaved());
      retry = setTimeout(() => (scheduled ??= setImmediate(commit)), RETRY_MS);
      return;
    }
    changes = new Map();
    everything = false;
    dirty = false;
    failing = false;
    waiters?.resolve();
  }

  function meta(): Meta {
    return {
      clock: { mode: intake.clock.mode, now: new Date(intake.clock.now()).toISOString() },
      ids: (intake.idState() ?? null) as Meta["ids"],
    };
  }

  return {
    keptJson,
    flush() {
      if (scheduled) clearImmediate(scheduled);
      commit();
    },
    stop() {
      unsubscribe();
      releaseHold();
      if (scheduled) clearImmediate(scheduled);
      commit();
      clearTimeout(retry);
      file.close();
      if (dirty) throw new Error(`The last changes could not be saved to ${file.path}.`);
    },
  };
}

function notSaved() {
  return new HttpError<string>(503, "NOT_SAVED", "The server could not save this change to its data file (its log says why), so it is not confirmed. Retry later.", {
    "retry-after": String(RETRY_MS / 1000),
  });
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Each waiter handles the rejection; this keeps one nobody came to wait for from being unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}
