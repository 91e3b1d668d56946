/**
 * `<file>.lock`: one server keeps a data file at a time. A second one saving to the same file
 * would overwrite the first one's saves and sweep its temporary file.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";

/** The data files this process keeps (a second openDataFile() of one would write over the first's). */
const held = new Set<string>();

export interface DataFileClaim {
  /** Gives the data file up: removes `<file>.lock` if it is still this claim's. */
  release(): void;
}

/**
 * Claims a data file for this process: `<file>.lock` is created only if there is none, and holds
 * "<pid> <host>". A lock whose process no longer runs on this host (a crash, kill -9) is taken over;
 * one whose process runs, or that another host holds, is refused, naming its holder, and so is a
 * folder this user cannot write.
 */
export function claimDataFile(path: string): DataFileClaim {
  const lock = `${path}.lock`;
  const key = resolve(path);
  if (held.has(key)) throw new Error(`${path} is already kept by this process: close its other openDataFile() first.`);
  const mine = `${process.pid} ${hostname()}\n`;
  // A stale lock removed, then ours created, and a turn to spare for one released meanwhile: more
  // than that means another server is starting on this file at the same moment.
  for (let attempt = 0; attempt < 3; attempt++) {
    const created = create(lock, mine);
    if (created instanceof Error) {
      throw new Error(
        `Cannot write beside ${path} (${created.message}): give --data-file a file in a folder this user can write, on a disk with room.`,
        { cause: created },
      );
    }
    if (created === "created") {
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
    const holder = readText(lock);
    if (holder === undefined) continue; // released meanwhile
    const [pidText, host] = holder.trim().split(" ");
    const pid = Number(pidText);
    // Empty or garbled: a server is between creating the lock and writing its pid, or was killed
    // in that instant. Taking it over would let two servers write the file in the first case;
    // refusing only asks a person to delete it in the second.
    if (!Number.isInteger(pid) || pid <= 0 || !host) {
      throw new Error(
        `${path} may be in use by another server: ${lock} does not name its process (one starting, or killed as it started). ` +
          `If no intake-server runs on this file, delete ${lock}.`,
      );
    }
    // Another host's process cannot be looked at from here: taken to run.
    if (host !== hostname()) throw inUse(path, lock, `${pid} on ${host}`);
    // This pid with no claim of this process's is a restarted container given its old pid: stale.
    if (pid !== process.pid && running(pid)) throw inUse(path, lock, String(pid));
    rmSync(lock, { force: true });
  }
  throw new Error(`Could not claim ${path}: ${lock} kept coming back. Is another server starting on it?`);
}

function inUse(path: string, lock: string, holder: string): Error {
  return new Error(
    `${path} is in use by another server (process ${holder}; ${lock}): stop it, or give this one another --data-file. ` +
      `If no intake-server runs as that process (one killed, its process id since reused), delete ${lock}.`,
  );
}

/** Creates the lock only if there is none (the one step two servers cannot both win), and writes it. */
function create(lock: string, text: string): "created" | "exists" | Error {
  let fd: number;
  try {
    mkdirSync(dirname(lock), { recursive: true });
  } catch (error) {
    return error as Error;
  }
  try {
    fd = openSync(lock, "wx", 0o600);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EEXIST" ? "exists" : (error as Error);
  }
  try {
    writeSync(fd, text);
    return "created";
  } catch (error) {
    // A full disk, say: no lock left behind that names nobody.
    rmSync(lock, { force: true });
    return error as Error;
  } finally {
    closeSync(fd);
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
