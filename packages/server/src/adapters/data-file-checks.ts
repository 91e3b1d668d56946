/**
 * What a file given to --data-file is, and what is wrong with it, in words that say what to do:
 * not an Intake data file, another program's database, another schema version, a damaged one, a
 * file this user cannot write, SQLite's errors.
 */
import { accessSync, closeSync, constants, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import type Database from "better-sqlite3";
import type { Snapshot } from "../domain/state.js";
import { fieldPath } from "../shared/field-path.js";
import { nonFinite, notFinite } from "../shared/finite.js";
import { TABLES } from "../durable/sql-state.js";
import { KIND_NAMES } from "../store/store.js";

/** The layout of the tables; a file of another version is refused (PRAGMA user_version). */
export const SCHEMA_VERSION = 1;
/** PRAGMA application_id, "Intk": tells an Intake data file from another program's database. */
export const APPLICATION_ID = 0x496e746b;

const SQLITE_HEADER = "SQLite format 3\0";

/** A file SQLite opened read-only would fail every commit: refused at start instead. */
export function writable(path: string) {
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new Error(
      `Cannot write ${path} (${(error as Error).message}): give this user write access to it (chmod, chown), or give --data-file another file.`,
      { cause: error },
    );
  }
}

/** Whether the database is an Intake data file of this version (false: an empty one); throws if it is neither. */
export function isIntakeFile(path: string, db: Database.Database): boolean {
  try {
    const applicationId = db.pragma("application_id", { simple: true }) as number;
    const version = db.pragma("user_version", { simple: true }) as number;
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
    if (applicationId !== APPLICATION_ID) {
      // An empty database (`sqlite3 FILE ""`) is a new data file.
      if (applicationId === 0 && tables.length === 0) return false;
      throw new Error(
        `${path} is an SQLite database of another program (${tables.length ? `tables ${tables.slice(0, 5).join(", ")}` : `application id ${applicationId}`}), not an Intake data file: give --data-file another file.`,
      );
    }
    if (version !== SCHEMA_VERSION) {
      throw new Error(
        version > SCHEMA_VERSION
          ? `${path} was written by a newer intake-server (schema version ${version}; this one reads ${SCHEMA_VERSION}): run that version, or export the state from it (GET /__admin/snapshot) and load it here (PUT /__admin/snapshot).`
          : `${path} has schema version ${version}, which this intake-server (version ${SCHEMA_VERSION}) cannot migrate: export the state with the intake-server that wrote it (GET /__admin/snapshot) and load it here (PUT /__admin/snapshot).`,
      );
    }
    const missing = ["intake_meta", ...KIND_NAMES.map((table) => TABLES[table])].filter((name) => !tables.includes(name));
    if (missing.length)
      throw new Error(
        `${path} lacks the tables ${missing.join(", ")}: it is damaged. Restore it from a copy, or move it away to start empty.`,
      );
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === undefined) throw error;
    throw new Error(explain(path, error), { cause: error });
  }
}

/**
 * Refuses a file with a damaged page: reading the rows would not find one in an index (the
 * server would start, then fail every write that touched it), and one in a table might only be
 * found midway. PRAGMA quick_check reads every page of every table and index and checks each is
 * a sound page of its tree (it does not match each index against its table, which takes several
 * times as long). The file is read through in order first: from a disk, the check's own reads,
 * page by page down each tree, take many times as long as one pass in order, after which the
 * check and the rows are read from the page cache.
 */
export function checkPages(path: string, db: Database.Database) {
  let result: unknown;
  try {
    readThrough(path);
    result = db.pragma("quick_check(1)", { simple: true });
  } catch (error) {
    throw new Error(explain(path, error), { cause: error });
  }
  if (result !== "ok")
    throw new Error(explain(path, Object.assign(new Error("database disk image is malformed"), { code: "SQLITE_CORRUPT" })));
}

function readThrough(path: string) {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(4 * 1024 * 1024);
    for (let at = 0, read = 1; read > 0; at += read) read = readSync(fd, buffer, 0, buffer.length, at);
  } finally {
    closeSync(fd);
  }
}

/** What SQLite's error means for the person who started the server, and what to do. */
export function explain(path: string, error: unknown): string {
  const code = String((error as { code?: unknown }).code ?? "");
  const message = (error as Error).message;
  if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
    return `${path} is damaged (${message}): restore it from a copy, or move it away to start empty (sqlite3 ${path} .recover may save what is left).`;
  }
  // SQLite reports a write it could not make, or a -shm it could not grow, the same for a full disk,
  // a limit on file sizes (ulimit -f: EFBIG) and a quota (EDQUOT); only Node's errors tell which.
  if (
    code === "SQLITE_FULL" ||
    code === "SQLITE_IOERR_WRITE" ||
    code === "SQLITE_IOERR_SHMSIZE" ||
    code === "SQLITE_IOERR_TRUNCATE" ||
    /ENOSPC|EFBIG|EDQUOT/.test(message)
  ) {
    return `The disk holding ${path} is full, or a limit on file sizes or a quota was reached (${message}): free some space, or raise the limit.`;
  }
  if (code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_PERM")) {
    return `Cannot write ${path} (${message}): give --data-file a file in a folder this user can write.`;
  }
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return `${path} is locked by another program (${message}): close what holds it (a sqlite3 shell in a transaction, say).`;
  }
  return `${path}: ${message}`;
}

/** What the file is, from its first bytes. */
export function kindOf(path: string): "new" | "sqlite" | "json" {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "new";
    throw new Error(`Cannot read ${path} (${(error as Error).message}): give --data-file a file this user can read and write.`, {
      cause: error,
    });
  }
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let length: number;
  try {
    // A folder opens, and its read fails with a bare EISDIR.
    if (fstatSync(fd).isDirectory())
      throw new Error(`${path} is a folder: give --data-file a file, such as ${path.replace(/\/+$/, "")}/intake.db (made if missing).`);
    length = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (length === 0) return "new";
  if (head.toString("latin1", 0, length) === SQLITE_HEADER) return "sqlite";
  if (head.toString("utf8", 0, length).trimStart().startsWith("{")) return "json";
  throw new Error(
    `${path} is not an Intake data file (neither an SQLite database nor an intake-snapshot/1 JSON file): give --data-file another file, or move this one away.`,
  );
}

export function readJson(path: string): Snapshot {
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(readFileSync(path, "utf8")) as Snapshot;
  } catch (error) {
    throw new Error(
      `${path} is not an Intake data file (JSON that does not parse: ${(error as Error).message}): give --data-file another file, or move this one away.`,
      { cause: error },
    );
  }
  if (snapshot?.format !== "intake-snapshot/1") {
    const format = (snapshot as { format?: unknown } | null)?.format;
    throw new Error(
      `${path} is JSON but not an intake-snapshot/1 file (${format === undefined ? "it names no format" : `format ${JSON.stringify(format)}`}): give --data-file another file, or move this one away.`,
    );
  }
  // An edited file can hold 1e400, which would load as Infinity and be saved as null.
  const infinite = nonFinite(snapshot);
  if (infinite)
    throw new Error(
      `${path} is an intake-snapshot/1 file, but ${notFinite(fieldPath(infinite))} Correct it, or give --data-file another file.`,
    );
  return snapshot;
}
