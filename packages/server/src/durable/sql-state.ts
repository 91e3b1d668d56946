/**
 * The state as SQL tables, one table per kind of record (each row a record as JSON, in the order
 * made) and `intake_meta` for the clock and the id sequence. The same tables hold a data file
 * (better-sqlite3) and a hosted sandbox (a Durable Object's `ctx.storage.sql`): each hands its
 * database over as a `SqlDatabase`, the little SQL this needs.
 */
import type { Snapshot } from "../domain/state.js";
import { KINDS, KIND_NAMES, type KindName } from "../store/store.js";

export type SqlValue = string | number | null;

/** What the tables need of a database. */
export interface SqlDatabase {
  /** Runs a statement that returns no rows. */
  run(sql: string, ...params: SqlValue[]): void;
  /** The rows a query returns, each as the list of its columns. */
  rows(sql: string, ...params: SqlValue[]): Iterable<SqlValue[]>;
  /** Runs `write` in one transaction: all of it is kept, or, if it throws, none. */
  transaction(write: () => void): void;
}

/** Changed records by kind and id; undefined for one removed. */
export type Changes = Map<KindName, Map<string, object | undefined>>;

/** The state beside the records: the clock and the id sequence. */
export type Meta = Pick<Snapshot, "clock" | "ids">;

/** The table of each kind of record, as the kind declares it (KINDS in store/store.ts). */
export const TABLES = Object.fromEntries(KIND_NAMES.map((kind) => [kind, KINDS[kind].table])) as Record<KindName, string>;

/** The tables, made where missing. */
export const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS intake_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  ...KIND_NAMES.map((kind) => `CREATE TABLE IF NOT EXISTS ${TABLES[kind]} (id TEXT PRIMARY KEY, record TEXT NOT NULL)`),
];

export function createTables(db: SqlDatabase): void {
  for (const statement of SCHEMA) db.run(statement);
}

/**
 * A record written again keeps its row (and so its place: rows load in the order they were made),
 * but one of a kind kept in the order written (idempotency records) moves to the end, as the
 * store's table does.
 */
const UPSERT = Object.fromEntries(
  KIND_NAMES.map((kind) => [
    kind,
    (KINDS[kind] as { order?: string }).order === "written"
      ? `INSERT OR REPLACE INTO ${TABLES[kind]} (id, record) VALUES (?, ?)`
      : `INSERT INTO ${TABLES[kind]} (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record`,
  ]),
) as Record<KindName, string>;

/** Writes these changes, and the clock and ids beside them, in one transaction. */
export function writeChanges(db: SqlDatabase, changes: Changes, meta: Meta): void {
  db.transaction(() => {
    for (const [kind, records] of changes) {
      for (const [id, record] of records) {
        if (record) db.run(UPSERT[kind], id, JSON.stringify(record));
        else db.run(`DELETE FROM ${TABLES[kind]} WHERE id = ?`, id);
      }
    }
    writeMeta(db, meta);
  });
}

/** Replaces everything the tables hold with this state, in one transaction. */
export function replaceState(db: SqlDatabase, snapshot: Snapshot): void {
  const records = snapshot.records as unknown as Partial<Record<KindName, Array<{ id: string }>>>;
  db.transaction(() => {
    for (const kind of KIND_NAMES) {
      db.run(`DELETE FROM ${TABLES[kind]}`);
      const insert = `INSERT INTO ${TABLES[kind]} (id, record) VALUES (?, ?)`;
      for (const record of records[kind] ?? []) db.run(insert, record.id, JSON.stringify(record));
    }
    writeMeta(db, snapshot);
  });
}

function writeMeta(db: SqlDatabase, meta: Meta) {
  const statement = "INSERT OR REPLACE INTO intake_meta (key, value) VALUES (?, ?)";
  db.run(statement, "clock", JSON.stringify(meta.clock));
  db.run(statement, "ids", JSON.stringify(meta.ids ?? null));
}

/** Why a row cannot be loaded, in its holder's words (which file, what to do); `damaged`: it is not even JSON. */
export type RowRefusal = (table: string, id: string, problem: string, damaged: boolean) => Error;

/**
 * The whole state the tables hold: every table's rows, in the order they were made. A row that
 * is not a JSON object of its own id is refused through `refuse`; the records' own checks come as
 * they are loaded.
 */
export function readState(db: SqlDatabase, refuse: RowRefusal): Snapshot {
  const meta = new Map(db.rows("SELECT key, value FROM intake_meta") as Iterable<[string, string]>);
  const records: Record<string, object[]> = {};
  for (const kind of KIND_NAMES) {
    const rows: object[] = (records[kind] = []);
    const table = TABLES[kind];
    for (const [id, text] of db.rows(`SELECT id, record FROM ${table} ORDER BY rowid`) as Iterable<[string, string]>)
      rows.push(parseRow(table, id, text, refuse));
  }
  const clock = JSON.parse(meta.get("clock") ?? "null") as Snapshot["clock"] | null;
  return {
    format: "intake-snapshot/1",
    savedAt: clock?.now ?? new Date().toISOString(),
    clock: clock ?? { mode: "real", now: new Date().toISOString() },
    ids: JSON.parse(meta.get("ids") ?? "null") as Snapshot["ids"],
    records: records as unknown as Snapshot["records"],
  };
}

function parseRow(table: string, id: string, text: string, refuse: RowRefusal): object {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    throw refuse(table, id, "it is not JSON.", true);
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) throw refuse(table, id, "it is not a JSON object.", false);
  // Written back under the record's id, it would become a second row of that id.
  const own = (record as { id?: unknown }).id;
  if (own !== id)
    throw refuse(table, id, `its record's id is ${own === undefined ? "missing" : JSON.stringify(own)}, not the row's.`, false);
  return record;
}
