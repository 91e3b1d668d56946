/**
 * --data-file: an SQLite database (better-sqlite3, WAL) holding the whole state, one table per
 * kind of record, each row a record as JSON. The server works from memory; write-through.ts
 * writes each change here before it is answered. One server keeps a data file at a time
 * (data-file-lock.ts). An `intake-snapshot/1` JSON file, what older servers saved, is imported.
 */
import { closeSync, existsSync, linkSync, openSync, renameSync, rmSync } from "node:fs";
import type Database from "better-sqlite3";
import { RecordRefused } from "../domain/records-check.js";
import type { Snapshot } from "../domain/state.js";
import { KINDS, KIND_NAMES, type KindName } from "../store/store.js";
import { APPLICATION_ID, SCHEMA_VERSION, TABLES, checkPages, explain, isIntakeFile, kindOf, readJson, writable } from "./data-file-checks.js";
import { claimDataFile, type DataFileClaim } from "./data-file-lock.js";
import { sqlite } from "./sqlite.js";

export { APPLICATION_ID, SCHEMA_VERSION, TABLES, explain };

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
  /**
   * The line that refuses the file for a record of the state read (an error of loadSnapshot's
   * check: domain/records-check.ts), naming the file, where the record is and what to do;
   * undefined for any other error.
   */
  refusal(error: unknown): string | undefined;
  /** Closes the database and gives the file up. */
  close(): void;
}

/**
 * Claims the file and checks what it is. Throws, with what to do, for a folder, a file in use, one
 * that is not an Intake data file, a damaged one (a page of a table or an index: PRAGMA
 * quick_check), one of another schema version, or a file or folder this user cannot write.
 * `read()` then reads its state (and throws for a row that is not a record of its id).
 */
export function openDataFile(path: string, options: { durability?: Durability } = {}): DataFile {
  const durability = options.durability ?? "full";
  if (!DURABILITIES.includes(durability)) throw new Error(`durability is ${DURABILITIES.join(" or ")} (got ${String(durability)}).`);
  // Before the file is claimed: without better-sqlite3 the error says what to install, and nothing is touched.
  sqlite("openDataFile");
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
        // Before WAL mode too: a damaged file is left as it was.
        checkPages(path, db);
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
    refusal(error) {
      if (!(error instanceof RecordRefused)) return undefined;
      if (kind === "json") return `${path} holds a record this server cannot load: ${error.problem} Correct it, or give --data-file another file.`;
      return refusedRow(path, TABLES[error.kind], error.id ?? `number ${error.index + 1}`, error.problem);
    },
    close() {
      db?.close();
      db = undefined;
      claim.release();
    },
  };
}

/** The line that refuses a data file for one of its rows. */
function refusedRow(path: string, table: string, id: string, problem: string): string {
  return `${path} holds a record this server cannot load, the row ${id} of ${table}: ${problem} Fix or delete that row (sqlite3 ${path}), or restore the file from a copy.`;
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
  const Sqlite = sqlite("openDataFile");
  try {
    return new Sqlite(path, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
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

/** Removes a database and the files SQLite keeps beside it. */
function removeDatabase(path: string) {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true });
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

/** A row's record, which must be a JSON object of the row's id (the record's own checks come as it is loaded). */
function parseRow(path: string, table: string, id: string, text: string): object {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    throw new Error(`${path} is damaged: the row ${id} of ${table} is not JSON. Fix or delete that row (sqlite3 ${path}), or restore the file from a copy.`);
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) throw new Error(refusedRow(path, table, id, "it is not a JSON object."));
  // Written back under the record's id, it would become a second row of that id.
  const own = (record as { id?: unknown }).id;
  if (own !== id) throw new Error(refusedRow(path, table, id, `its record's id is ${own === undefined ? "missing" : JSON.stringify(own)}, not the row's.`));
  return record;
}

/** Keeps an imported JSON file beside the database that replaces it: nothing is lost. */
function keepJson(path: string): string {
  let kept = `${path}.snapshot.json`;
  for (let n = 2; existsSync(kept); n++) kept = `${path}.snapshot-${n}.json`;
  linkSync(path, kept);
  return kept;
}
