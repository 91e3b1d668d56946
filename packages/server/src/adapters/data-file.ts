/**
 * --data-file: an SQLite database (better-sqlite3, WAL) holding the whole state, one table per
 * kind of record, each row a record as JSON. The server works from memory; write-through.ts
 * writes each change here before it is answered. One server keeps a data file at a time
 * (data-file-lock.ts). An `intake-snapshot/1` JSON file, what older servers saved, is imported.
 */
import { accessSync, closeSync, constants, existsSync, fstatSync, linkSync, openSync, readFileSync, readSync, renameSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import type { Snapshot } from "../domain/state.js";
import { fieldPath } from "../shared/field-path.js";
import { nonFinite, notFinite } from "../shared/finite.js";
import { KINDS, KIND_NAMES, type KindName } from "../store/store.js";
import { claimDataFile, type DataFileClaim } from "./data-file-lock.js";

/** The layout of the tables; a file of another version is refused (PRAGMA user_version). */
export const SCHEMA_VERSION = 1;
/** PRAGMA application_id, "Intk": tells an Intake data file from another program's database. */
export const APPLICATION_ID = 0x496e746b;

/** The table of each kind of record, as the kind declares it (KINDS in store/store.ts). */
export const TABLES = Object.fromEntries(KIND_NAMES.map((kind) => [kind, KINDS[kind].table])) as Record<KindName, string>;

/**
 * SQLite's `synchronous`: "full" flushes every commit to the disk (it survives a crash of the
 * machine); "normal" leaves that to the operating system (it survives a crash of the process).
 */
export type Durability = "full" | "normal";
export const DURABILITIES: readonly Durability[] = ["full", "normal"];

/** Changed records by kind and id; undefined for one removed. */
export type Changes = Map<KindName, Map<string, object | undefined>>;

/** The state beside the records: the clock and the id sequence. */
export type Meta = Pick<Snapshot, "clock" | "ids">;

export interface DataFile {
  readonly path: string;
  /**
   * "sqlite": an Intake data file; "new": none yet (no file, an empty one), which persist()
   * creates; "json": an `intake-snapshot/1` file, which persist() turns into a database.
   */
  readonly kind: "new" | "sqlite" | "json";
  /** Reads the whole state it holds (undefined when new); nothing of it is kept here. */
  read(): Snapshot | undefined;
  /** Creates the database anew holding this state (a new file, an imported one); returns where the JSON was kept. */
  create(snapshot: Snapshot): string | undefined;
  /** Writes these changes in one transaction. */
  write(changes: Changes, meta: Meta): void;
  /** Replaces everything it holds with this state, in one transaction. */
  replace(snapshot: Snapshot): void;
  /** Closes the database and gives the file up. */
  close(): void;
}

const SQLITE_HEADER = "SQLite format 3\0";

/**
 * Claims the file and checks what it is. Throws, with what to do, for a folder, a file in use, one
 * that is not an Intake data file, a damaged one, one of another schema version, or a file or
 * folder this user cannot write. `read()` then reads its state (and throws for a damaged record).
 */
export function openDataFile(path: string, options: { durability?: Durability } = {}): DataFile {
  const durability = options.durability ?? "full";
  if (!DURABILITIES.includes(durability)) throw new Error(`durability is ${DURABILITIES.join(" or ")} (got ${String(durability)}).`);
  const claim = claimDataFile(path);
  try {
    const kind = kindOf(path);
    if (kind === "sqlite") {
      // Before SQLite opens it: it would open it read-only without a word, and leave its -wal and
      // -shm files behind.
      writable(path);
      const db = connect(path);
      try {
        // Checked before anything is written (WAL mode rewrites the header): another program's
        // database, or one of another version, is left as it was.
        if (!isIntakeFile(path, db)) {
          // An empty database: a new data file, which persist() creates beside it and renames over it.
          db.close();
          return dataFile(path, durability, claim, "new", undefined);
        }
        configure(path, db, durability);
        return dataFile(path, durability, claim, "sqlite", db);
      } catch (error) {
        db.close();
        throw error;
      }
    }
    // A JSON file is read now, to refuse one that is not a snapshot before anything starts.
    if (kind === "json") readJson(path);
    return dataFile(path, durability, claim, kind, undefined);
  } catch (error) {
    claim.release();
    throw error;
  }
}

function dataFile(path: string, durability: Durability, claim: DataFileClaim, opened: DataFile["kind"], database: Database.Database | undefined): DataFile {
  let kind = opened;
  let db = database;
  let statements: ReturnType<typeof prepare> | undefined = db && prepare(db);
  const using = () => {
    if (!db || !statements) throw new Error(`${path} has no database yet: persist() creates it.`);
    return { db, statements };
  };
  return {
    path,
    get kind() {
      return kind;
    },
    read() {
      if (kind === "json") return readJson(path);
      return db ? readState(path, db) : undefined;
    },
    create(snapshot) {
      // Built beside the file and renamed over it: a crash leaves the old file or the whole new one.
      const building = `${path}.creating`;
      // What a start killed as it made one left, its log too: replayed, it would go into this one.
      removeDatabase(building);
      let kept: string | undefined;
      try {
        // It holds every API key and webhook secret: readable by its owner only (SQLite gives its
        // -wal and -shm files the same mode).
        closeSync(openSync(building, "wx", 0o600));
        const fresh = open(building, durability);
        try {
          fresh.exec(SCHEMA);
          fresh.pragma(`application_id = ${APPLICATION_ID}`);
          fresh.pragma(`user_version = ${SCHEMA_VERSION}`);
          replaceAll(fresh, prepare(fresh), snapshot);
        } finally {
          fresh.close();
        }
        kept = kind === "json" ? keepJson(path) : undefined;
        db?.close();
        renameSync(building, path);
      } catch (error) {
        // A full disk, say: nothing half-made is left, and the file given is as it was.
        removeDatabase(building);
        if (kept) rmSync(kept, { force: true });
        throw error;
      }
      db = open(path, durability);
      statements = prepare(db);
      kind = "sqlite";
      return kept;
    },
    write(changes, meta) {
      const { db, statements } = using();
      db.transaction(() => {
        for (const [table, records] of changes) {
          const { upsert, remove } = statements.tables[table];
          for (const [id, record] of records) {
            if (record) upsert.run(id, JSON.stringify(record));
            else remove.run(id);
          }
        }
        writeMeta(statements, meta);
      })();
    },
    replace(snapshot) {
      const { db, statements } = using();
      replaceAll(db, statements, snapshot);
    },
    close() {
      db?.close();
      db = undefined;
      claim.release();
    },
  };
}

const SCHEMA = [
  "CREATE TABLE intake_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  ...KIND_NAMES.map((table) => `CREATE TABLE ${TABLES[table]} (id TEXT PRIMARY KEY, record TEXT NOT NULL)`),
].join(";\n");

function prepare(db: Database.Database) {
  const tables = {} as Record<KindName, { upsert: Database.Statement; remove: Database.Statement; insert: Database.Statement; clear: Database.Statement }>;
  for (const table of KIND_NAMES) {
    const name = TABLES[table];
    tables[table] = {
      // An update keeps its row (and so its place: rows load in the order they were made), but a
      // record of a kind kept in the order written (idempotency records) moves to the end, as the
      // store's table does.
      upsert:
        (KINDS[table] as { order?: string }).order === "written"
          ? db.prepare(`INSERT OR REPLACE INTO ${name} (id, record) VALUES (?, ?)`)
          : db.prepare(`INSERT INTO ${name} (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record`),
      remove: db.prepare(`DELETE FROM ${name} WHERE id = ?`),
      insert: db.prepare(`INSERT INTO ${name} (id, record) VALUES (?, ?)`),
      clear: db.prepare(`DELETE FROM ${name}`),
    };
  }
  return { tables, meta: db.prepare("INSERT OR REPLACE INTO intake_meta (key, value) VALUES (?, ?)") };
}

function writeMeta(statements: ReturnType<typeof prepare>, meta: Meta) {
  statements.meta.run("clock", JSON.stringify(meta.clock));
  statements.meta.run("ids", JSON.stringify(meta.ids ?? null));
}

function replaceAll(db: Database.Database, statements: ReturnType<typeof prepare>, snapshot: Snapshot) {
  const records = snapshot.records as unknown as Partial<Record<KindName, Array<{ id: string }>>>;
  db.transaction(() => {
    for (const table of KIND_NAMES) {
      const { clear, insert } = statements.tables[table];
      clear.run();
      for (const record of records[table] ?? []) insert.run(record.id, JSON.stringify(record));
    }
    writeMeta(statements, snapshot);
  })();
}

/**
 * How long a commit waits for another program's write transaction on the file (a sqlite3 shell's)
 * before it fails: the server answers nothing meanwhile.
 */
const BUSY_TIMEOUT_MS = 1000;

function open(path: string, durability: Durability): Database.Database {
  const db = connect(path);
  try {
    configure(path, db, durability);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Opens the database as it is: nothing is written yet. */
function connect(path: string): Database.Database {
  try {
    return new Database(path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw new Error(explain(path, error), { cause: error });
  }
}

function configure(path: string, db: Database.Database, durability: Durability) {
  try {
    // WAL: a commit appends to the log instead of rewriting pages, and readers (a sqlite3 shell)
    // do not stop the server.
    if (db.pragma("journal_mode = WAL", { simple: true }) !== "wal") throw new Error("it cannot be put in WAL mode");
    db.pragma(`synchronous = ${durability === "full" ? "FULL" : "NORMAL"}`);
  } catch (error) {
    throw new Error(explain(path, error), { cause: error });
  }
}

/** A file SQLite opened read-only would fail every commit: refused at start instead. */
function writable(path: string) {
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new Error(`Cannot write ${path} (${(error as Error).message}): give this user write access to it (chmod, chown), or give --data-file another file.`, { cause: error });
  }
}

/** Removes a database and the files SQLite keeps beside it. */
function removeDatabase(path: string) {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true });
}

/** Whether the database is an Intake data file of this version (false: an empty one); throws if it is neither. */
function isIntakeFile(path: string, db: Database.Database): boolean {
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
    if (missing.length) throw new Error(`${path} lacks the tables ${missing.join(", ")}: it is damaged. Restore it from a copy, or move it away to start empty.`);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === undefined) throw error;
    throw new Error(explain(path, error), { cause: error });
  }
}

/** Reads the whole state: every table's rows, in the order they were made. */
function readState(path: string, db: Database.Database): Snapshot {
  try {
    const meta = new Map(db.prepare("SELECT key, value FROM intake_meta").raw().all() as Array<[string, string]>);
    const records: Record<string, object[]> = {};
    for (const table of KIND_NAMES) {
      const rows: object[] = (records[table] = []);
      for (const [id, text] of db.prepare(`SELECT id, record FROM ${TABLES[table]} ORDER BY rowid`).raw().iterate() as Iterable<[string, string]>) {
        rows.push(parseRow(path, TABLES[table], id, text));
      }
    }
    const clock = JSON.parse(meta.get("clock") ?? "null") as Snapshot["clock"] | null;
    return {
      format: "intake-snapshot/1",
      savedAt: clock?.now ?? new Date().toISOString(),
      clock: clock ?? { mode: "real", now: new Date().toISOString() },
      ids: JSON.parse(meta.get("ids") ?? "null") as Snapshot["ids"],
      records: records as unknown as Snapshot["records"],
    };
  } catch (error) {
    if ((error as { code?: unknown }).code === undefined) throw error;
    throw new Error(explain(path, error), { cause: error });
  }
}

function parseRow(path: string, table: string, id: string, text: string): object {
  try {
    return JSON.parse(text) as object;
  } catch {
    throw new Error(`${path} is damaged: the row ${id} of ${table} is not JSON. Fix or delete that row (sqlite3 ${path}), or restore the file from a copy.`);
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
  if (code === "SQLITE_FULL" || code === "SQLITE_IOERR_WRITE" || code === "SQLITE_IOERR_SHMSIZE" || code === "SQLITE_IOERR_TRUNCATE" || /ENOSPC|EFBIG|EDQUOT/.test(message)) {
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
function kindOf(path: string): "new" | "sqlite" | "json" {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "new";
    throw new Error(`Cannot read ${path} (${(error as Error).message}): give --data-file a file this user can read and write.`, { cause: error });
  }
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let length: number;
  try {
    // A folder opens, and its read fails with a bare EISDIR.
    if (fstatSync(fd).isDirectory()) throw new Error(`${path} is a folder: give --data-file a file, such as ${path.replace(/\/+$/, "")}/intake.db (made if missing).`);
    length = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (length === 0) return "new";
  if (head.toString("latin1", 0, length) === SQLITE_HEADER) return "sqlite";
  if (head.toString("utf8", 0, length).trimStart().startsWith("{")) return "json";
  throw new Error(`${path} is not an Intake data file (neither an SQLite database nor an intake-snapshot/1 JSON file): give --data-file another file, or move this one away.`);
}

function readJson(path: string): Snapshot {
  let snapshot: Snapshot;
  try {
    snapshot = JSON.parse(readFileSync(path, "utf8")) as Snapshot;
  } catch (error) {
    throw new Error(`${path} is not an Intake data file (JSON that does not parse: ${(error as Error).message}): give --data-file another file, or move this one away.`, { cause: error });
  }
  if (snapshot?.format !== "intake-snapshot/1") {
    const format = (snapshot as { format?: unknown } | null)?.format;
    throw new Error(
      `${path} is JSON but not an intake-snapshot/1 file (${format === undefined ? "it names no format" : `format ${JSON.stringify(format)}`}): give --data-file another file, or move this one away.`,
    );
  }
  // An edited file can hold 1e400, which would load as Infinity and be saved as null.
  const infinite = nonFinite(snapshot);
  if (infinite) throw new Error(`${path} is an intake-snapshot/1 file, but ${notFinite(fieldPath(infinite))} Correct it, or give --data-file another file.`);
  return snapshot;
}

/** Keeps an imported JSON file beside the database that replaces it: nothing is lost. */
function keepJson(path: string): string {
  let kept = `${path}.snapshot.json`;
  for (let n = 2; existsSync(kept); n++) kept = `${path}.snapshot-${n}.json`;
  linkSync(path, kept);
  return kept;
}
