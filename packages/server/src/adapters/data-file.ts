/**
 * --data-file: the state survives a restart. Saves are atomic (a temporary file, flushed to disk,
 * then renamed over the old one), so a crash leaves either the old or the new state, never a
 * torn file. Changes are saved shortly after they happen (debounced), and at once on flush().
 * One server keeps a data file at a time (`<file>.lock`).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/** The data files this process saves to (a second persist() of one would overwrite the first's saves). */
const held = new Set<string>();

/**
 * Claims the data file with `<file>.lock`, holding the claiming process's pid: a second server
 * saving to the same file would overwrite the first one's saves and sweep its temporary file. A
 * lock whose process is gone (a crash, kill -9) is taken over. Returns the release.
 */
function claim(path: string): () => void {
  const lock = `${path}.lock`;
  const key = resolve(path);
  if (held.has(key)) throw new Error(`${path} is already kept by this process: stop its other persist() first.`);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      held.add(key);
      return () => {
        held.delete(key);
        rmSync(lock, { force: true });
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        mkdirSync(dirname(path), { recursive: true });
        continue;
      }
      // A folder that cannot be written: every save will fail too, and say so through onError.
      if (code !== "EEXIST") return () => {};
      const holder = Number.parseInt(readFileSync(lock, "utf8"), 10);
      if (holder > 0 && holder !== process.pid && isRunning(holder)) {
        throw new Error(`${path} is in use by another server (process ${holder}; ${lock}): stop it, or give this one another --data-file.`, { cause: error });
      }
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`Could not claim ${path}: ${lock} keeps coming back.`);
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

export function persist(intake: Intake, path: string, options: { delayMs?: number; maxDelayMs?: number } = {}): Persistence {
  const release = claim(path);
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
      release();
      if (dirty) throw new Error(`The last changes could not be saved to ${path}.`);
    },
  };
}
