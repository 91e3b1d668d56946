/**
 * `<file>.lock`: one server keeps a data file at a time. A second one saving to the same file
 * would overwrite the first one's saves and sweep its temporary file.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";

/** The data files this process keeps (a second persist() of one would overwrite the first's saves). */
const held = new Set<string>();

export interface DataFileClaim {
  /** Gives the data file up: removes `<file>.lock` if it is still this claim's. */
  release(): void;
}

/**
 * Claims a data file for this process with `<file>.lock` ("<pid> <host>"): a second server saving
 * to the same file would overwrite the first one's saves and sweep its temporary file. A lock whose
 * process no longer runs on this host (a crash, kill -9; ended but not yet reaped, too) is taken
 * over. A folder that cannot be written is not refused here: every save fails then, and says so
 * through onError.
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
  } catch (error) {
    // EPERM: it exists, as another user's.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return !ended(pid);
}

/**
 * A process that has ended but was never reaped still answers kill(pid, 0): a server whose parent
 * was killed first is left so under a PID 1 that reaps no orphans, as in many containers (and as
 * the CLI's second node is when the CLI is killed outright). Linux says so in /proc/<pid>/stat;
 * elsewhere, or when it cannot be read, the process is taken to run.
 */
function ended(pid: number): boolean {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return false;
  // "<pid> (<command, which may hold spaces and parentheses>) <state> ...": Z zombie, X dead.
  const state = stat[stat.lastIndexOf(")") + 2];
  return state === "Z" || state === "X";
}
