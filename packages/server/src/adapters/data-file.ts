/**
 * --data-file: the state survives a restart. Saves are atomic (a temporary file, flushed to disk,
 * then renamed over the old one), so a crash leaves either the old or the new state, never a
 * torn file. Changes are saved shortly after they happen (debounced), and at once on flush().
 * One server keeps a data file at a time (`<file>.lock`).
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Intake } from "../app.js";
import type { Snapshot } from "../admin/service.js";

export function readDataFile(path: string): Snapshot | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the data file ${path} (${(error as Error).message}): give --data-file a file in a folder this user can write.`, { cause: error });
  }
  try {
    const snapshot = JSON.parse(text) as Snapshot;
    if (snapshot.format !== "intake-snapshot/1") throw new Error(`unknown format ${JSON.stringify(snapshot.format)}`);
    return snapshot;
  } catch (error) {
    throw new Error(`${path} is not a snapshot this server can read (${(error as Error).message}). Move it away to start empty.`, { cause: error });
  }
}

export async function writeDataFile(path: string, snapshot: Snapshot): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temporary = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  // The state holds every API key and webhook secret: readable by its owner only.
  const file = await open(temporary, "w", 0o600);
  try {
    await file.writeFile(JSON.stringify(snapshot));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  // The rename itself is durable only once the directory is flushed.
  const directory = await open(dir, "r").catch(() => undefined);
  await directory?.sync().catch(() => {});
  await directory?.close();
}

/** Temporary files of runs that were killed in the middle of a save. */
function removeStaleTemporaries(path: string) {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && name.endsWith(".tmp")) rmSync(join(dirname(path), name), { force: true });
  }
}

/** The data files this process keeps (a second persist() of one would overwrite the first's saves). */
const held = new Set<string>();

export interface DataFileClaim {
  /** Gives the data file up: removes `<file>.lock` if it is still this claim's. */
  release(): void;
}

/**
 * Claims a data file for this process with `<file>.lock` ("<pid> <host>"): a second server saving
 * to the same file would overwrite the first one's saves and sweep its temporary file. A lock whose
 * process no longer runs on this host (a crash, kill -9) is taken over. A folder that cannot be
 * written is not refused here: every save fails then, and says so through onError.
 */
export function claimDataFile(path: string): DataFileClaim {
  const lock = `${path}.lock`;
  const key = resolve(path);
  if (held.has(key)) throw new Error(`${path} is already kept by this process: stop its other persist() first.`);
  const mine = `${process.pid} ${hostname()}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const made = create(lock, mine);
    if (made === "created") {
      held.add(key);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(key);
          if (readText(lock) === mine) rmSync(lock, { force: true });
        },
      };
    }
    if (made === "unwritable") return { release: () => {} };
    const holder = readText(lock);
    if (holder === undefined) continue; // released meanwhile
    const busy = holderRunning(holder);
    if (busy) {
      throw new Error(
        `${path} is in use by another server (process ${busy}; ${lock}): stop it, or give this one another --data-file. ` +
          `If no intake-server runs as that process (one killed, its process id since reused), delete ${lock}.`,
      );
    }
    // Stale: moved aside rather than removed, so that a lock another server made meanwhile is not lost.
    const aside = `${lock}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
    try {
      renameSync(lock, aside);
    } catch {
      continue;
    }
    const moved = readText(aside);
    rmSync(aside, { force: true });
    if (moved !== holder && moved !== undefined) create(lock, moved);
  }
  throw new Error(`Could not claim ${path}: ${lock} kept changing. Is another server starting on it?`);
}

/** Writes the lock whole or not at all: a reader never sees it empty. */
function create(lock: string, text: string): "created" | "exists" | "unwritable" {
  const temporary = `${lock}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(temporary, text, { mode: 0o600 });
  } catch {
    return "unwritable";
  }
  try {
    try {
      linkSync(temporary, lock);
    } catch (error) {
      // A file system without hard links: created and written in two steps instead.
      if (!["EPERM", "ENOTSUP", "ENOSYS", "EXDEV"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
      writeFileSync(lock, text, { flag: "wx", mode: 0o600 });
    }
    return "created";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EEXIST" ? "exists" : "unwritable";
  } finally {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Never written: its folder is not one.
    }
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** How to name the lock's holder when it still runs; undefined when the lock is stale. */
function holderRunning(text: string): string | undefined {
  const [pidText, host] = text.trim().split(" ");
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  // Another host's process cannot be looked at from here: taken to run.
  if (host && host !== hostname()) return `${pid} on ${host}`;
  // This process id and no claim of this process's: a restarted container reusing its pid.
  if (pid === process.pid) return undefined;
  return isRunning(pid) ? String(pid) : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface Persistence {
  /** Saves now if anything changed since the last save (or, forced, in any case). */
  flush(force?: boolean): Promise<void>;
  stop(): Promise<void>;
}

export function persist(intake: Intake, path: string, options: { delayMs?: number; maxDelayMs?: number; claim?: DataFileClaim } = {}): Persistence {
  // A caller that claimed the file before reading it passes its claim; else it is claimed here.
  const claim = options.claim ?? claimDataFile(path);
  removeStaleTemporaries(path);
  const delayMs = options.delayMs ?? 100;
  const maxDelayMs = options.maxDelayMs ?? 1000;
  let dirty = false;
  let firstChange = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> = Promise.resolve();

  const save = () => {
    timer = undefined;
    if (!dirty) return saving;
    dirty = false;
    const snapshot = intake.admin.snapshot();
    saving = saving.then(() => writeDataFile(path, snapshot)).catch((error: unknown) => {
      dirty = true;
      intake.reportError(new Error(`Could not save ${path}; it is tried again at the next change and on stop.`, { cause: error }));
    });
    return saving;
  };

  const unsubscribe = intake.onChange(() => {
    if (!dirty) firstChange = Date.now();
    dirty = true;
    if (timer) clearTimeout(timer);
    const wait = Math.max(0, Math.min(delayMs, firstChange + maxDelayMs - Date.now()));
    timer = setTimeout(save, wait);
  });

  return {
    flush: (force = false) => {
      if (timer) clearTimeout(timer);
      if (force) dirty = true;
      return save();
    },
    async stop() {
      unsubscribe();
      if (timer) clearTimeout(timer);
      await save();
      await rm(join(dirname(path), `.${basename(path)}.${process.pid}.tmp`), { force: true });
      claim.release();
      if (dirty) throw new Error(`The last changes could not be saved to ${path}.`);
    },
  };
}
