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
import {
  TABLES,
  createTables,
  readState,
  replaceState,
  writeChanges,
  type Changes,
  type Meta,
  type SqlDatabase,
  type SqlValue,
} from "../durable/sql-state.js";
import { writeThrough, type Persisted, type StateStore } from "../durable/write-through.js";
import { APPLICATION_ID, SCHEMA_VERSION, checkPages, explain, isIntakeFile, kindOf, readJson, writable } from "./data-file-checks.js";
import { claimDataFile, type DataFileClaim } from "./data-file-lock.js";
import { sqlite } from "./sqlite.js";

export { APPLICATION_ID, SCHEMA_VERSION, TABLES, explain, type Changes, type Meta };

/**
 * SQLite's `synchronous`: "full" flushes every commit to the disk (it survives a crash of the
 * machine); "normal" leaves that to the operating system (it survives a crash of the process).
 */
export type Durability = "full" | "normal";
export const DURABILITIES: readonly Durability[] = ["full", "normal"];

export interface DataFile extends StateStore {
  readonly path: string;
  /**
   * "sqlite": an Intake data file; "new": none yet (no file, an empty one), which persist()
   * creates; "json": an `intake-snapshot/1` file, which persist() turns into a database.
   */
  readonly kind: "new" | "sqlite" | "json";
  /** Creates the database anew holding this state (a new file, an imported one); returns where the JSON was kept. */
  create(snapshot: Snapshot): string | undefined;
  /**
   * The line that refuses the file for a record of the state read (an error of loadSnapshot's
   * check: domain/records-check.ts), naming the file, where the record is and what to do;
   * undefined for any other error.
   */
  refusal(error: unknown): string | undefined;
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

function dataFile(
  path: string,
  durability: Durability,
  claim: DataFileClaim,
  opened: DataFile["kind"],
  database: Database.Database | undefined,
): DataFile {
  let kind = opened;
  let db = database;
  let sql: SqlDatabase | undefined = db && sqlDatabase(db);
  const using = () => {
    if (!sql) throw new Error(`${path} has no database yet: persist() creates it.`);
    return sql;
  };
  return {
    path,
    get kind() {
      return kind;
    },
    read() {
      if (kind === "json") return readJson(path);
      return sql ? readFile(path, sql) : undefined;
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
          const tables = sqlDatabase(fresh);
          createTables(tables);
          fresh.pragma(`application_id = ${APPLICATION_ID}`);
          fresh.pragma(`user_version = ${SCHEMA_VERSION}`);
          replaceState(tables, snapshot);
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
      sql = sqlDatabase(db);
      kind = "sqlite";
      return kept;
    },
    write(changes, meta) {
      writeChanges(using(), changes, meta);
    },
    replace(snapshot) {
      replaceState(using(), snapshot);
    },
    explain: (error) => explain(path, error),
    refusal(error) {
      if (!(error instanceof RecordRefused)) return undefined;
      if (kind === "json")
        return `${path} holds a record this server cannot load: ${error.problem} Correct it, or give --data-file another file.`;
      return refusedRow(path, TABLES[error.kind], error.id ?? `number ${error.index + 1}`, error.problem);
    },
    close() {
      db?.close();
      db = undefined;
      sql = undefined;
      claim.release();
    },
  };
}

/** The line that refuses a data file for one of its rows. */
function refusedRow(path: string, table: string, id: string, problem: string): string {
  return `${path} holds a record this server cannot load, the row ${id} of ${table}: ${problem} Fix or delete that row (sqlite3 ${path}), or restore the file from a copy.`;
}

/** better-sqlite3's database as the tables' SQL, each statement prepared once. */
function sqlDatabase(db: Database.Database): SqlDatabase {
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    run: (sql, ...params) => void prepared(sql).run(...params),
    rows: (sql, ...params) =>
      prepared(sql)
        .raw()
        .iterate(...params) as Iterable<SqlValue[]>,
    transaction: (write) => db.transaction(write)(),
  };
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

/** Reads the whole state the file holds, its errors in words that say what to do. */
function readFile(path: string, sql: SqlDatabase): Snapshot {
  try {
    return readState(sql, (table, id, problem, damaged) =>
      damaged
        ? new Error(
            `${path} is damaged: the row ${id} of ${table} is not JSON. Fix or delete that row (sqlite3 ${path}), or restore the file from a copy.`,
          )
        : new Error(refusedRow(path, table, id, problem)),
    );
  } catch (error) {
    if ((error as { code?: unknown }).code === undefined) throw error;
    throw new Error(explain(path, error), { cause: error });
  }
}

/** Keeps an imported JSON file beside the database that replaces it: nothing is lost. */
function keepJson(path: string): string {
  let kept = `${path}.snapshot.json`;
  for (let n = 2; existsSync(kept); n++) kept = `${path}.snapshot-${n}.json`;
  linkSync(path, kept);
  return kept;
}

export interface Persistence {
  /** Where an imported intake-snapshot/1 JSON file was kept, if one was. */
  readonly keptJson: string | undefined;
  /** Commits what changed now rather than at the end of the turn. */
  flush(): void;
  /** Commits what is left, closes the file and gives it up; throws if something could not be saved. */
  stop(): void;
}

/**
 * Keeps the data file in step with the service from now on (durable/write-through.ts). A new
 * file, or a JSON file being imported, first gets the whole current state. Call it in the turn
 * `createIntake` ran in, before any `await`.
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
  return { keptJson, ...writeThrough(intake, file) };
}
