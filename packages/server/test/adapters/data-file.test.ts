// --data-file given a file the server cannot keep its state in: each start exits 2 with one line
// that says what to do, serves nothing, and leaves the file as it was. And the files it takes: an
// intake-snapshot/1 JSON file (imported), an empty file, an empty SQLite database.
import {
  chmodSync,
  chownSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freeDisk, runCli, startCli, type CliProcess, type CliRun } from "../support/spawn.js";

const KEY = "ik_data_file_test_key_000001";
const TOKEN = "adm_data_file_test_token";
const PHONES = ["+14155550101", "+14155550102", "+14155550103"];

const running: CliRun[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop("SIGKILL");
});
async function start(dataFile: string, extra: string[] = [], how?: CliProcess) {
  const run = await startCli(["--port", "0", "--admin-token", TOKEN, "--data-file", dataFile, ...extra], [], how);
  running.push(run);
  return run;
}
/** Stops a run gracefully: its last changes saved, its lock removed. */
async function stop(run: CliRun) {
  expect(await run.stop("SIGTERM")).toBe(0);
  running.splice(running.indexOf(run), 1);
}

const folders: string[] = [];
const dir = () => {
  const folder = mkdtempSync(join(tmpdir(), "intake-data-file-"));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) {
    // A read-only folder's own user could not empty it.
    chmodSync(folder, 0o700);
    for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o700);
    rmSync(folder, { recursive: true, force: true });
  }
});

const createContact = (run: CliRun, phone: string) =>
  run.fetch(`${run.info.baseUrl}/contacts?apiKey=${KEY}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone }),
  });
const snapshotOf = async (run: CliRun) => {
  const response = await run.fetch(`${run.info.adminUrl}/snapshot`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
};
const phonesIn = (snapshot: string) =>
  (JSON.parse(snapshot) as { records: { contact: Array<{ phone: string }> } }).records.contact.map((c) => c.phone);

/**
 * Starts the CLI on the file, which it must refuse: exit 2, stderr the one line given (no stack
 * trace), no "listening" line, the file's bytes as they were (or no file, where there was none),
 * and nothing left beside it (no lock, no half-made database, no SQLite log).
 */
async function refused(dataFile: string, message: string, how?: CliProcess) {
  const before = existsSync(dataFile) ? readFileSync(dataFile) : undefined;
  const beside = readdirSync(dirname(dataFile)).sort();
  const result = await runCli(["--port", "0", "--data-file", dataFile], [], how);
  expect(result.stderr).toBe(`intake-server: ${message}\n`);
  expect(result.code).toBe(2);
  expect(result.stdout).not.toContain('"listening"');
  if (before) expect(readFileSync(dataFile).equals(before), `${dataFile} was changed`).toBe(true);
  else expect(existsSync(dataFile)).toBe(false);
  expect(readdirSync(dirname(dataFile)).sort()).toEqual(beside);
}

/** A copy of the real data file the suite made, in a folder of its own. */
function copyOfDataFile(name = "state.db") {
  const file = join(dir(), name);
  copyFileSync(made.dataFile, file);
  return file;
}
/** Sets SQLite pragmas of a file, as another tool would. */
function setPragmas(file: string, ...pragmas: string[]) {
  const db = new Database(file);
  for (const pragma of pragmas) db.pragma(pragma);
  db.close();
}
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
const isSqlite = (file: string) => readFileSync(file).subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER);

/** A real data file (a server's, stopped gracefully) holding a seed and three contacts, and its state as GET /__admin/snapshot gives it. */
const made = { dataFile: "", snapshot: "" };

// Each test starts the CLI from source (through tsx), a few seconds a start on this machine.
describe("intake-server --data-file", { timeout: 90_000 }, () => {
  beforeAll(async () => {
    const folder = dir();
    made.dataFile = join(folder, "state.db");
    const seed = join(folder, "seed.json");
    writeFileSync(seed, JSON.stringify({ accounts: [{ name: "Data file", apiKey: KEY }] }));
    const run = await start(made.dataFile, ["--seed", seed]);
    for (const phone of PHONES) expect((await createContact(run, phone)).status).toBe(201);
    made.snapshot = await snapshotOf(run);
    await stop(run);
    // Closed gracefully: everything is in the file itself, its log merged and removed.
    expect(readdirSync(folder).sort()).toEqual(["seed.json", "state.db", "state.db.cert.pem", "state.db.key.pem"]);
  }, 60_000);

  it("refuses a file that is neither SQLite nor JSON", async () => {
    const file = join(dir(), "contacts.csv");
    writeFileSync(file, "name,phone\nAda,+14155550101\n");
    await refused(
      file,
      `${file} is not an Intake data file (neither an SQLite database nor an intake-snapshot/1 JSON file): give --data-file another file, or move this one away.`,
    );
  });

  it("refuses a damaged database, torn short or with a page overwritten, saying how to recover", async () => {
    const damaged = (file: string) =>
      `${file} is damaged (database disk image is malformed): restore it from a copy, or move it away to start empty (sqlite3 ${file} .recover may save what is left).`;
    const overwritten = copyOfDataFile();
    // Read-write, though it only reads: closed, it removes the -wal and -shm files it made.
    const db = new Database(overwritten);
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    const root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'contacts'").pluck().get() as number;
    db.close();
    // Torn: only its first two pages (the schema and intake_meta) made it; the other tables' pages are past its end.
    const torn = copyOfDataFile();
    truncateSync(torn, 2 * pageSize);
    // The contacts table's first page overwritten: a page of no known kind.
    const fd = openSync(overwritten, "r+");
    writeSync(fd, Buffer.alloc(pageSize, 0xff), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    await Promise.all([refused(torn, damaged(torn)), refused(overwritten, damaged(overwritten))]);
  });

  it("refuses a database whose index has a damaged page, which reading the rows would not find", async () => {
    const file = copyOfDataFile();
    const db = new Database(file);
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    const root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_contacts_1'").pluck().get() as number;
    db.close();
    // The contacts' ids index (every write of a contact goes through it) overwritten with random bytes.
    const fd = openSync(file, "r+");
    writeSync(fd, randomBytes(pageSize), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    await refused(
      file,
      `${file} is damaged (database disk image is malformed): restore it from a copy, or move it away to start empty (sqlite3 ${file} .recover may save what is left).`,
    );
  });

  it("refuses a data file or an imported JSON file holding a record the server would refuse, naming the table, the row and what is wrong", async () => {
    /** A copy of the data file with its rows changed by `edit`, as a person with the sqlite3 shell might. */
    const edited = (edit: (db: Database.Database, accountId: string) => void) => {
      const file = copyOfDataFile();
      const db = new Database(file);
      edit(db, db.prepare("SELECT id FROM accounts").pluck().get() as string);
      db.close();
      return file;
    };
    const account = (db: Database.Database, id: string) =>
      JSON.parse(db.prepare("SELECT record FROM accounts WHERE id = ?").pluck().get(id) as string) as Record<string, unknown>;
    const setAccount = (db: Database.Database, id: string, record: object) =>
      db.prepare("INSERT OR REPLACE INTO accounts (id, record) VALUES (?, ?)").run(id, JSON.stringify(record));
    const refusedRow = (file: string, row: string, table: string, problem: string) =>
      `${file} holds a record this server cannot load, the row ${row} of ${table}: ${problem} Fix or delete that row (sqlite3 ${file}), or restore the file from a copy.`;
    const RULE =
      "Webhooks go to https:// URLs, or to this server's own inbox, /__inbox/<accountId>; http:// is accepted for localhost, 127.0.0.0/8 and [::1], and for any host when the server runs with --allow-http-webhooks (allowHttpWebhooks in code).";

    const numberId = edited((db) => db.prepare("INSERT INTO accounts (id, record) VALUES (?, ?)").run("acc_edited", '{"id": 42}'));
    let firstId = "";
    const sharedKey = edited((db, id) => {
      firstId = id;
      setAccount(db, "acc_copy", { ...account(db, id), id: "acc_copy", name: "Copy" });
    });
    const dataUrl = edited((db, id) => setAccount(db, id, { ...account(db, id), webhookUrl: "data:text/plain,hello" }));
    const wrongType = edited((db) => {
      const [id, text] = db.prepare("SELECT id, record FROM contacts ORDER BY rowid LIMIT 1 OFFSET 1").raw().get() as [string, string];
      db.prepare("UPDATE contacts SET record = ? WHERE id = ?").run(JSON.stringify({ ...JSON.parse(text), botPaused: "no" }), id);
    });
    const contactId = (JSON.parse(made.snapshot) as { records: { contact: Array<{ id: string }> } }).records.contact[1]!.id;
    // The same state as an intake-snapshot/1 JSON file, imported: refused before anything is made.
    const json = join(dir(), "state.json");
    const state = JSON.parse(made.snapshot) as { records: { account: Array<Record<string, unknown>> } };
    state.records.account.push({ ...state.records.account[0], id: "acc_copy" });
    writeFileSync(json, JSON.stringify(state));

    await Promise.all([
      refused(numberId, refusedRow(numberId, "acc_edited", "accounts", "its record's id is 42, not the row's.")),
      refused(
        sharedKey,
        refusedRow(
          sharedKey,
          "acc_copy",
          "accounts",
          `records.account[1].apiKey is also the API key of account ${firstId}: an API key belongs to one account.`,
        ),
      ),
      refused(dataUrl, refusedRow(dataUrl, firstId, "accounts", `records.account[0].webhookUrl uses the data: scheme. ${RULE}`)),
      refused(wrongType, refusedRow(wrongType, contactId, "contacts", "records.contact[1].botPaused must be a boolean.")),
      refused(
        json,
        `${json} holds a record this server cannot load: records.account[1].apiKey is also the API key of account ${firstId}: an API key belongs to one account. Correct it, or give --data-file another file.`,
      ),
    ]);
  });

  it("refuses another program's SQLite database, and leaves it as it was (not even put in WAL mode)", async () => {
    const file = join(dir(), "app.db");
    const db = new Database(file);
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('Ada')");
    db.close();
    expect(readFileSync(file)[18]).toBe(1); // a rollback journal, not WAL
    await refused(
      file,
      `${file} is an SQLite database of another program (tables users), not an Intake data file: give --data-file another file.`,
    );
  });

  it("refuses a data file of a newer schema version, and one of an older, saying what to do", async () => {
    const newer = copyOfDataFile();
    setPragmas(newer, "user_version = 2");
    // Intake's application id and tables, but a version before the first.
    const older = copyOfDataFile();
    setPragmas(older, "user_version = 0");
    await Promise.all([
      refused(
        newer,
        `${newer} was written by a newer intake-server (schema version 2; this one reads 1): run that version, or export the state from it (GET /__admin/snapshot) and load it here (PUT /__admin/snapshot).`,
      ),
      refused(
        older,
        `${older} has schema version 0, which this intake-server (version 1) cannot migrate: export the state with the intake-server that wrote it (GET /__admin/snapshot) and load it here (PUT /__admin/snapshot).`,
      ),
    ]);
  });

  it("refuses a folder this user cannot write, and a data file it cannot write", async () => {
    // Root writes whatever the modes say: the CLI runs as nobody, and its folders are nobody's.
    const root = process.getuid?.() === 0;
    const how: CliProcess = root ? { uid: 65534, gid: 65534 } : {};
    const own = (path: string) => root && chownSync(path, 65534, 65534);

    const readOnly = dir();
    const kept = join(readOnly, "state.db");
    copyFileSync(made.dataFile, kept);
    own(kept);
    own(readOnly);
    chmodSync(readOnly, 0o555);
    const lockRefused = (file: string) =>
      `Cannot write beside ${file} (EACCES: permission denied, open '${file}.lock'): give --data-file a file in a folder this user can write, on a disk with room.`;
    const fresh = join(readOnly, "new.db");

    // A folder it can write, a file it cannot: SQLite would open it read-only and fail every commit.
    const writableFolder = dir();
    const readOnlyFile = join(writableFolder, "state.db");
    copyFileSync(made.dataFile, readOnlyFile);
    chmodSync(readOnlyFile, 0o444);
    own(readOnlyFile);
    own(writableFolder);
    await Promise.all([
      refused(kept, lockRefused(kept), how),
      refused(fresh, lockRefused(fresh), how),
      refused(
        readOnlyFile,
        `Cannot write ${readOnlyFile} (EACCES: permission denied, access '${readOnlyFile}'): give this user write access to it (chmod, chown), or give --data-file another file.`,
        how,
      ),
    ]);
  });

  const NOT_SAVED =
    "The server could not save this change to its data file (its log says why), so nothing of it was saved or applied. Retry after 1 second.";
  const UNDONE = "Changes are undone, and answered 503 NOT_SAVED, until a save works again (tried each second).";
  const diskFull = (file: string) =>
    `The disk holding ${file} is full, or a limit on file sizes or a quota was reached (disk I/O error): free some space, or raise the limit.`;

  it("a full disk at start: no database is made, an imported JSON file is left as it was", async () => {
    // 40 KB: the lock and SQLite's index (-shm, 32 KB) fit, the new database (~110 KB) does not.
    const how = { fileSizeLimit: 80 };
    const fresh = join(dir(), "state.db");
    const json = join(dir(), "state.json");
    writeFileSync(json, made.snapshot);
    await Promise.all([refused(fresh, diskFull(fresh), how), refused(json, diskFull(json), how)]);
  });

  it("a full disk at run time: the change is answered 503 NOT_SAVED and stderr says why; a restart has every change answered 2xx", async () => {
    const dataFile = copyOfDataFile();
    // 256 KB: the database (~110 KB) is as it was; its log (WAL) grows ~16 KB a change until a commit fails.
    const run = await start(dataFile, [], { fileSizeLimit: 512 });
    const saved: string[] = [];
    let notSaved: Response | undefined;
    for (let n = 0; n < 200 && !notSaved; n++) {
      const phone = `+1415556${String(n).padStart(4, "0")}`;
      const response = await createContact(run, phone);
      if (response.status === 201) saved.push(phone);
      else notSaved = response;
    }
    expect(saved.length).toBeGreaterThan(3);
    expect(notSaved?.status).toBe(503);
    expect(notSaved!.headers.get("retry-after")).toBe("1");
    expect(await notSaved!.json()).toEqual({ error: { code: "NOT_SAVED", message: NOT_SAVED } });
    // One line (tried again each second), not an unexpected error's stack trace.
    await vi.waitFor(() => expect(run.stderr().split("\n")).toContain(`intake-server: ${diskFull(dataFile)} ${UNDONE}`), {
      timeout: 5_000,
    });
    expect(run.stderr()).not.toContain("unexpected error");
    // Reads still answer.
    expect((await run.fetch(`${run.info.baseUrl}/contacts?apiKey=${KEY}&phoneNumber=${encodeURIComponent(saved[0]!)}`)).status).toBe(200);
    await run.stop("SIGKILL");
    running.pop();

    // Every change answered 201 is there; the one answered 503 was never saved.
    const again = await start(dataFile);
    expect(phonesIn(await snapshotOf(again))).toEqual([...PHONES, ...saved]);
  });

  it("a full disk at run time, then freed: a message answered 503 NOT_SAVED and sent again after Retry-After is stored once, after a restart too", async () => {
    const dataFile = copyOfDataFile();
    const run = await start(dataFile, [], { fileSizeLimit: 512 });
    const send = (body: string) =>
      run.fetch(`${run.info.baseUrl}/send_custom_channel_message?apiKey=${KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData: { fromId: "user-7", customChannel: "acme-chat", body } }),
      });
    let n = 0;
    let notSaved: Response | undefined;
    for (; n < 200 && !notSaved; n++) {
      const response = await send(`Message ${n}`);
      if (response.status !== 200) notSaved = response;
    }
    const body = `Message ${n - 1}`;
    expect(notSaved?.status).toBe(503);
    expect(await notSaved!.json()).toEqual({ error: { code: "NOT_SAVED", message: NOT_SAVED } });
    freeDisk(run.info.pid);
    await sleep(Number(notSaved!.headers.get("retry-after")) * 1000);
    expect((await send(body)).status).toBe(200);
    const sent = (snapshot: string) =>
      (JSON.parse(snapshot) as { records: { message: Array<{ body: string }> } }).records.message.filter(
        (message) => message.body === body,
      );
    expect(sent(await snapshotOf(run))).toHaveLength(1);
    await stop(run);
    const again = await start(dataFile);
    expect(sent(await snapshotOf(again))).toHaveLength(1);
  });

  it("imports an intake-snapshot/1 JSON file: its state served, the file made SQLite, the JSON kept beside it byte for byte; a second start reads the database", async () => {
    const folder = dir();
    const file = join(folder, "state.json");
    writeFileSync(file, made.snapshot);
    const first = await start(file);
    expect(first.stderr()).toContain(
      `intake-server: ${file} was an intake-snapshot/1 JSON file; it is now an SQLite database holding the same state, and the JSON is kept at ${file}.snapshot.json.\n`,
    );
    const records = (snapshot: string) => (JSON.parse(snapshot) as { records: unknown }).records;
    expect(records(await snapshotOf(first))).toEqual(records(made.snapshot));
    expect(isSqlite(file)).toBe(true);
    expect(readFileSync(`${file}.snapshot.json`, "utf8")).toBe(made.snapshot);
    await stop(first);

    const second = await start(file);
    expect(second.stderr()).not.toContain("intake-snapshot/1 JSON file");
    expect(records(await snapshotOf(second))).toEqual(records(made.snapshot));
    expect((await createContact(second, PHONES[0]!)).status).toBe(200);
    await stop(second);
    expect(readdirSync(folder).sort()).toEqual(["state.json", "state.json.cert.pem", "state.json.key.pem", "state.json.snapshot.json"]);
  });

  it("refuses JSON of another format, and JSON that does not parse", async () => {
    const other = join(dir(), "package.json");
    writeFileSync(other, JSON.stringify({ name: "my-app", version: "1.0.0" }, null, 2));
    const newer = join(dir(), "state.json");
    writeFileSync(newer, made.snapshot.replace('"intake-snapshot/1"', '"intake-snapshot/2"'));
    const broken = join(dir(), "state.json");
    writeFileSync(broken, made.snapshot.slice(0, 100));
    const parseError = (() => {
      try {
        JSON.parse(made.snapshot.slice(0, 100));
      } catch (error) {
        return (error as Error).message;
      }
    })();
    await Promise.all([
      refused(
        other,
        `${other} is JSON but not an intake-snapshot/1 file (it names no format): give --data-file another file, or move this one away.`,
      ),
      refused(
        newer,
        `${newer} is JSON but not an intake-snapshot/1 file (format "intake-snapshot/2"): give --data-file another file, or move this one away.`,
      ),
      refused(
        broken,
        `${broken} is not an Intake data file (JSON that does not parse: ${parseError}): give --data-file another file, or move this one away.`,
      ),
    ]);
  });

  it("takes an empty file and an empty SQLite database as new data files", async () => {
    // What `new Database(path).close()` makes: an empty file (SQLite writes nothing until it must).
    const empty = join(dir(), "state.db");
    new Database(empty).close();
    expect(statSync(empty).size).toBe(0);
    // With a pragma set, it writes its header: a database of one page, and no tables.
    const emptyDatabase = join(dir(), "state.db");
    setPragmas(emptyDatabase, "user_version = 0");
    expect(isSqlite(emptyDatabase)).toBe(true);
    await Promise.all(
      [empty, emptyDatabase].map(async (file) => {
        const run = await start(file);
        // Served, with no state: the key is nobody's.
        expect((await createContact(run, PHONES[0]!)).status).toBe(401);
        await stop(run);
        const db = new Database(file);
        expect([db.pragma("application_id", { simple: true }), db.pragma("user_version", { simple: true })]).toEqual([0x496e746b, 1]);
        db.close();
      }),
    );
  });
});
