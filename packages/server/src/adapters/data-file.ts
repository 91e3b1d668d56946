/**
 * --data-file: the state survives a restart. Saves are atomic (a temporary file, flushed to disk,
 * then renamed over the old one), so a crash leaves either the old or the new state, never a
 * torn file. Changes are saved shortly after they happen (debounced), and at once on flush().
 * One server keeps a data file at a time (data-file-lock.ts).
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Snapshot } from "../admin/service.js";
import { claimDataFile, type DataFileClaim } from "./data-file-lock.js";

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

/** What persistence needs of the service (an Intake has it). */
export interface Persisted {
  admin: { snapshot(): Snapshot };
  /** Called after every change of state. */
  onChange(listener: () => void): () => void;
  reportError(error: unknown): void;
}

export interface Persistence {
  /** Saves now if anything changed since the last save (or, forced, in any case). */
  flush(force?: boolean): Promise<void>;
  stop(): Promise<void>;
}

export function persist(intake: Persisted, path: string, options: { delayMs?: number; maxDelayMs?: number; claim?: DataFileClaim } = {}): Persistence {
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
