/**
 * Writes the state's changes through to where it is kept: a subscriber of the event stream, it
 * collects the changes each event carries and commits them in one transaction, before the answers
 * (and webhooks) that stem from them leave. A crash loses nothing that was answered, and a write
 * costs what it changed, however large the state. Two holders, two timings:
 *
 * - a data file (`--data-file`, better-sqlite3) commits once a turn, at its end; an answer waits
 *   here for the commit, which is durable when it returns;
 * - a hosted sandbox (a Durable Object's SQL storage) commits at once, in the turn of the change;
 *   the platform holds an answer until the commit is durable (the object's output gate).
 *
 * A data file's commit that fails (a full disk, another program's write lock) leaves the file as
 * it was, and the state in memory is put back to it: every change of that turn, the requests' and
 * the engine's, is undone, and the answers waiting for it are 503 `NOT_SAVED`, which means nothing
 * happened, so a retry makes the change once. No webhook went out for an undone change (webhooks
 * wait for the commit too). Until a commit works again, the engine runs nothing (it would redo its
 * work only to lose it again) and commits are tried once a second. A sandbox's commit that fails
 * is given to `abandon`: its answers are already on their way, so the object resets itself
 * (none of them leaves, and its memory goes back to its storage).
 */
import type { Snapshot } from "../domain/state.js";
import type { DomainEvent, Envelope } from "../events/events.js";
import type { EventSource } from "../events/stream.js";
import { HttpError } from "../shared/errors.js";
import type { Changes, Meta } from "./sql-state.js";

/** Where the state is kept: the SQL tables of a data file or of a sandbox's storage. */
export interface StateStore {
  /** What it is called in messages: the data file's path, "the sandbox's storage". */
  readonly path: string;
  /** The whole state it holds (undefined when there is none yet). */
  read(): Snapshot | undefined;
  /** Writes these changes in one transaction. */
  write(changes: Changes, meta: Meta): void;
  /** Replaces everything it holds with this state, in one transaction. */
  replace(snapshot: Snapshot): void;
  /** Why a write failed, in words that say what to do (a full disk, a lock). */
  explain(error: unknown): string;
  /** Closes it. */
  close(): void;
}

/** What persistence needs of the service (an Intake has it). */
export interface Persisted {
  snapshot(): Snapshot;
  idState(): unknown;
  clock: { mode: "real" | "virtual"; now(): number };
  events: EventSource;
  holdAnswers(hold: () => Promise<void> | undefined): () => void;
  /** Puts the state back to what the file holds, the engine's work held; throws, changing nothing, if it cannot. */
  revert(saved: Snapshot): void;
  /** Saving works again: the engine's work goes on. */
  resume(): void;
  reportError(error: unknown): void;
}

/** The write-through, once started. */
export interface WriteThrough {
  /** Commits what changed now rather than at the end of the turn. */
  flush(): void;
  /** Commits what is left and closes the store; throws if something could not be saved. */
  stop(): void;
}

/** When commits happen (the table at the top of this file). */
export type WriteThroughOptions =
  | { commit: "end-of-turn" }
  | {
      commit: "at-once";
      /** A commit failed: the answers it would confirm are on their way, so the holder must stop them (a Durable Object resets itself). */
      abandon(error: NotSavedError): void;
    };

/** A commit that failed (a full disk, a lock another program holds): its message says why, and what to do. */
export class NotSavedError extends Error {
  override name = "NotSavedError";
}

/** After a commit failed, how often one is tried again (with what changed meanwhile, or none): Retry-After. */
const RETRY_MS = 1000;

/**
 * Keeps the store in step with the service from now on (a new store must hold the current state
 * already). Call it in the turn `createIntake` ran in, before any `await`: stored jobs already due
 * start on the next microtask, and a change made before this listens would never be saved.
 */
export function writeThrough(intake: Persisted, store: StateStore, options: WriteThroughOptions = { commit: "end-of-turn" }): WriteThrough {
  const through = new Committer(intake, store, options);
  return { flush: () => through.flush(), stop: () => through.stop() };
}

class Committer {
  private changes: Changes = new Map();
  /** A load or a reset replaced the whole state: it is written whole. */
  private everything = false;
  private dirty = false;
  private scheduled: { cancel(): void } | undefined;
  private waiting: Deferred | undefined;
  /**
   * The last commit failed (reported once, until one works): commits are tried on the retry timer,
   * once a second, with what changed meanwhile or with nothing, until one works.
   */
  private failing = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  /** The state was put back and the engine held: a commit that works lets it go on. */
  private reverted = false;
  /** Putting the state back failed: memory keeps its changes, saved once a commit works. */
  private keeping = false;
  /** The state is being put back: that replacement is what the file holds already. */
  private undoing = false;
  private readonly unsubscribe: () => void;
  private readonly releaseHold: () => void;

  constructor(
    private readonly intake: Persisted,
    private readonly file: StateStore,
    private readonly options: WriteThroughOptions,
  ) {
    this.unsubscribe = intake.events.subscribe((event, envelope) => this.heard(event, envelope));
    // Answers wait for everything changed so far: at the end of this turn, or, while commits fail,
    // the next try. Committed at once, nothing is left to wait for here.
    this.releaseHold =
      options.commit === "at-once"
        ? () => {}
        : intake.holdAnswers(() => {
            if (!this.dirty) return undefined;
            this.schedule();
            return (this.waiting ??= deferred()).promise;
          });
  }

  private heard(event: DomainEvent, envelope: Envelope) {
    if (event.type === "state.replaced") {
      if (this.undoing) return;
      this.everything = true;
      this.changes = new Map();
    } else if (envelope.changes.length === 0 && event.type !== "clock.advanced") {
      // Nothing to save (a request answered, a request the webhook inbox received: the inbox is
      // kept in memory only): the clock and the ids go with the next commit.
      return;
    } else if (!this.everything) {
      for (const change of envelope.changes) {
        let records = this.changes.get(change.kind);
        if (!records) this.changes.set(change.kind, (records = new Map()));
        records.set(change.id, change.record);
      }
    }
    this.dirty = true;
    this.schedule();
  }

  /**
   * At the end of this turn; while commits fail, the retry timer is set already. At once: after
   * the changes of the operation under way (a microtask), which is before anything it answers or
   * sends can leave.
   */
  private schedule() {
    if (this.failing || this.scheduled) return;
    if (this.options.commit === "at-once") {
      let cancelled = false;
      queueMicrotask(() => cancelled || this.commit());
      this.scheduled = { cancel: () => (cancelled = true) };
    } else {
      const immediate = setImmediate(() => this.commit());
      this.scheduled = { cancel: () => clearImmediate(immediate) };
    }
  }

  private write() {
    if (this.everything) this.file.replace(this.intake.snapshot());
    else this.file.write(this.changes, this.meta());
  }

  flush() {
    this.scheduled?.cancel();
    this.commit();
  }

  private commit() {
    this.scheduled = undefined;
    clearTimeout(this.retry);
    this.retry = undefined;
    const waiters = this.waiting;
    this.waiting = undefined;
    // While commits fail, one with nothing to save still tries the file: the engine waits for it.
    if (!this.dirty && !this.failing) return waiters?.resolve();
    try {
      this.write();
    } catch (error) {
      return this.failed(error, waiters);
    }
    this.changes = new Map();
    this.everything = false;
    this.dirty = false;
    this.failing = false;
    this.keeping = false;
    waiters?.resolve();
    if (this.reverted) {
      this.reverted = false;
      this.intake.resume();
    }
  }

  /** The file kept its last commit: the state goes back to it, and the waiting answers say nothing happened. */
  private failed(error: unknown, waiters: Deferred | undefined) {
    if (this.options.commit === "at-once") return this.abandon(error);
    if (!this.failing) this.intake.reportError(new NotSavedError(`${this.file.explain(error)} ${UNDONE}`, { cause: error }));
    this.failing = true;
    this.retry = setTimeout(() => this.commit(), RETRY_MS);
    this.retry.unref();
    if (!this.dirty) return;
    if (!this.keeping) {
      try {
        this.undo();
        return waiters?.reject(notSaved());
      } catch (undoError) {
        this.keeping = true;
        this.intake.reportError(new NotSavedError(`${whyNot(this.file, undoError).replace(/\.?$/, ".")} ${KEPT}`, { cause: undoError }));
      }
    }
    waiters?.reject(notUndone());
  }

  /**
   * Committing at once, the answers a failed commit would confirm are on their way: the holder
   * stops them (a Durable Object resets itself, its memory going back to its storage). Nothing more
   * is written from this memory.
   */
  private abandon(error: unknown) {
    this.unsubscribe();
    this.changes = new Map();
    this.everything = false;
    this.dirty = false;
    if (this.options.commit === "at-once")
      this.options.abandon(new NotSavedError(`${this.file.explain(error)} ${ABANDONED}`, { cause: error }));
  }

  /** Back to what the file holds; throws, changing nothing, if it cannot be read or loaded. */
  private undo() {
    const saved = this.file.read();
    if (!saved) throw new Error(`${this.file.path} holds no state to go back to.`);
    this.undoing = true;
    try {
      this.intake.revert(saved);
    } finally {
      this.undoing = false;
    }
    this.changes = new Map();
    this.everything = false;
    this.dirty = false;
    this.reverted = true;
  }

  private meta(): Meta {
    return {
      clock: { mode: this.intake.clock.mode, now: new Date(this.intake.clock.now()).toISOString() },
      ids: (this.intake.idState() ?? null) as Meta["ids"],
    };
  }

  stop() {
    this.unsubscribe();
    this.releaseHold();
    this.scheduled?.cancel();
    clearTimeout(this.retry);
    // The last commit is not undone if it fails: nothing runs after it, and the file is what a restart reads.
    try {
      if (this.dirty) this.write();
    } catch (error) {
      this.waiting?.reject(notSaved());
      throw new Error(`The last changes could not be saved to ${this.file.path}: ${this.file.explain(error)}`, { cause: error });
    } finally {
      this.file.close();
    }
    this.waiting?.resolve();
  }
}

/** Why: SQLite's and Node's errors (they carry a code) explained; any other already says it. */
function whyNot(file: StateStore, error: unknown): string {
  return (error as { code?: unknown }).code === undefined ? (error as Error).message : file.explain(error);
}

/** What the log says after a commit failed. */
const UNDONE = "Changes are undone, and answered 503 NOT_SAVED, until a save works again (tried each second).";
const ABANDONED = "The answers it would have confirmed are not given: the sandbox starts again from what its storage holds.";
const KEPT = "The changes that could not be saved could not be undone either: they are kept in memory and saved once that works.";

/** 503 NOT_SAVED: nothing of the request was saved or applied (its changes were undone), so it may be sent again. */
function notSaved() {
  return new HttpError<string>(
    503,
    "NOT_SAVED",
    `The server could not save this change to its data file (its log says why), so nothing of it was saved or applied. Retry after ${RETRY_MS / 1000} second.`,
    { "retry-after": String(RETRY_MS / 1000) },
  );
}

/** The file could not be read back to undo the change: it is kept, and saved once that works. Its outcome is for the client to check. */
function notUndone() {
  return new HttpError<string>(
    500,
    "INTERNAL_ERROR",
    "The server could not save this change to its data file, nor undo it (its log says why): it is kept and saved once that works. Check whether it was made before you retry.",
  );
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
