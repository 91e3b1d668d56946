// A commit to the data file that fails: answered 503 NOT_SAVED, its change undone.
import { openDataFile, persist } from "@intake/server/node";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { KEYS } from "../support/seed.js";
import { lockFolder, post, rethrowingIntake } from "../support/in-process.js";

describe("the data file", () => {
  it("a commit that fails is answered 503 NOT_SAVED and reported to onError once; its change is undone, in memory too, and the file keeps its last commit", async () => {
    const { path } = lockFolder();
    const { intake, errors, console_ } = rethrowingIntake();
    const saver = persist(intake, openDataFile(path));
    const create = (phone: string) => post(intake, JSON.stringify({ phone }));
    const find = (phone: string) =>
      intake.fetch(new Request(`https://intake.test/v1/contacts?apiKey=${KEYS.acme}&phoneNumber=${encodeURIComponent(phone)}`));
    // Another program holds the file's write lock (a sqlite3 shell in a transaction, say).
    const other = new Database(path);
    try {
      expect((await create("+14155550100")).status).toBe(201);
      other.exec("BEGIN IMMEDIATE");
      const refused = await create("+14155550101");
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toEqual({
        error: {
          code: "NOT_SAVED",
          message:
            "The server could not save this change to its data file (its log says why), so nothing of it was saved or applied. Retry after 1 second.",
        },
      });
      expect((errors[0] as Error).message).toBe(
        `${path} is locked by another program (database is locked): close what holds it (a sqlite3 shell in a transaction, say). Changes are undone, and answered 503 NOT_SAVED, until a save works again (tried each second).`,
      );
      // Reported once while it keeps failing; reads answer, from memory, which no longer has the refused change.
      expect((await create("+14155550103")).status).toBe(503);
      expect(errors).toHaveLength(1);
      expect((await find("+14155550100")).status).toBe(200);
      expect((await find("+14155550101")).status).toBe(404);
      const phones = () => other.prepare("SELECT json_extract(record, '$.phone') FROM contacts").pluck().all();
      expect(phones()).toEqual(["+14155550100"]);
      other.exec("ROLLBACK");
      expect((await create("+14155550102")).status).toBe(201);
      // The changes refused are not saved later either: nothing of them is left.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(phones()).toEqual(["+14155550100", "+14155550102"]);
      expect((await find("+14155550101")).status).toBe(404);
    } finally {
      other.close();
      console_.mockRestore();
      saver.stop();
      await intake.close();
    }
  });
});
