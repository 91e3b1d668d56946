/**
 * A sandbox's Durable Object storage as the server's SQL seam: the same tables a data file has
 * (`@intake/server/hosting`), through `ctx.storage.sql`, each transaction `transactionSync`. Beside
 * them, one row of the sandbox's own settings (its name, seed, admin token, clock, bot).
 */
import { createTables, readState, replaceState, writeChanges, type SqlDatabase, type StateStore } from "@intake/server/hosting";
import type { Snapshot } from "@intake/server";
import type { SandboxSettings } from "./settings.js";

/** The object's storage, as its SQL. */
export function sqlOf(storage: DurableObjectStorage): SqlDatabase {
  return {
    run: (query, ...params) => void storage.sql.exec(query, ...params),
    rows: (query, ...params) => storage.sql.exec(query, ...params).raw() as Iterable<Array<string | number | null>>,
    transaction: (write) => storage.transactionSync(write),
  };
}

/** The state's tables and the settings' table, made where missing. */
export function prepare(sql: SqlDatabase): void {
  createTables(sql);
  sql.run("CREATE TABLE IF NOT EXISTS sandbox_settings (id INTEGER PRIMARY KEY CHECK (id = 1), settings TEXT NOT NULL)");
}

/** The sandbox's settings; undefined when no sandbox was made here (or it was deleted). */
export function readSettings(sql: SqlDatabase): SandboxSettings | undefined {
  for (const [text] of sql.rows("SELECT settings FROM sandbox_settings WHERE id = 1")) return JSON.parse(String(text)) as SandboxSettings;
  return undefined;
}

/** A new sandbox: its settings and its first state, in one transaction. */
export function createSandbox(sql: SqlDatabase, settings: SandboxSettings, snapshot: Snapshot): void {
  sql.transaction(() => {
    sql.run("INSERT INTO sandbox_settings (id, settings) VALUES (1, ?)", JSON.stringify(settings));
    replaceState(sql, snapshot);
  });
}

/** Where the write-through keeps the sandbox's state. */
export function sandboxStore(sql: SqlDatabase, name: string): StateStore {
  const path = `the storage of sandbox ${name}`;
  return {
    path,
    read: () =>
      readState(
        sql,
        (table, id, problem) =>
          new Error(
            `${path} holds a record this server cannot load, the row ${id} of ${table}: ${problem} Delete the sandbox and create it again.`,
          ),
      ),
    write: (changes, meta) => writeChanges(sql, changes, meta),
    replace: (snapshot) => replaceState(sql, snapshot),
    // Workers' SQL errors say what went wrong (SQLITE_FULL, a value past its size limit) in their message.
    explain: (error) => `The sandbox's storage refused a write (${(error as Error).message}).`,
    close: () => {},
  };
}
