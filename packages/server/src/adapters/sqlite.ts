/**
 * better-sqlite3, loaded the first time a data file is opened. It is an optional peer dependency:
 * a native module, which npm fetches prebuilt or compiles, and which msw handlers, tests and an
 * in-memory server never need. Nothing reaches it but openDataFile (and the CLI's --data-file).
 */
import { createRequire } from "node:module";
import type Database from "better-sqlite3";
import { isNotInstalled, notInstalled } from "../shared/optional-peer.js";

/** The one command a user runs to get it; the range is the peer dependency's in package.json. */
export const SQLITE_INSTALL = "npm install better-sqlite3@^12";

let loaded: typeof Database | undefined;

/**
 * The better-sqlite3 constructor, its native module checked by opening an in-memory database.
 * Throws, saying what to install or rebuild, when it is missing; `what` names who needs it
 * ("--data-file", "openDataFile").
 */
export function sqlite(what: string): typeof Database {
  if (loaded) return loaded;
  let Sqlite: typeof Database;
  try {
    // require, not import(): openDataFile is synchronous, and better-sqlite3 is CommonJS.
    Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof Database;
  } catch (error) {
    if (!isNotInstalled(error, "better-sqlite3")) throw error;
    throw notInstalled(
      what,
      "better-sqlite3",
      SQLITE_INSTALL,
      "a native module: npm fetches a prebuilt binary for this platform, or compiles it with a C++ toolchain",
      error,
    );
  }
  try {
    new Sqlite(":memory:").close();
  } catch (error) {
    // Installed with --ignore-scripts (no binary: bindings lists every path it tried), or built for
    // another Node version or platform (its first line says which).
    const message = (error as Error).message;
    const reason = message.startsWith("Could not locate the bindings file") ? "its binary is missing" : message.split("\n")[0];
    throw new Error(
      `${what} needs better-sqlite3, which is installed but cannot load its native module (${reason}): npm rebuild better-sqlite3`,
      { cause: error },
    );
  }
  loaded = Sqlite;
  return Sqlite;
}
