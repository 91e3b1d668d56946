// One kind of record on its own (src/store/table.ts): kept by id in the order made, found through
// its lookups, groups and tallies with no scan, re-indexed by update when a field an index reads
// changed, and every write told to the store.
import { describe, expect, it } from "vitest";
import { DuplicateId, Table, type KindSpec } from "../../src/store/table.js";

interface Contact {
  id: string;
  accountId: string;
  email: string | null;
  listId: string | null;
  bytes: number;
}

const spec: KindSpec<Contact, "email", "list", "bytes"> = {
  table: "contacts",
  lookups: { email: { scope: (c) => c.accountId, value: (c) => c.email } },
  groups: { list: (c) => c.listId },
  tallies: { bytes: { key: (c) => c.accountId, amount: (c) => c.bytes, reads: ["accountId", "bytes"] } },
};

function setUp(order?: "created" | "written") {
  const writes: Array<[string, object | undefined]> = [];
  const table = new Table<Contact, "email", "list", "bytes">(
    "contact",
    { ...spec, ...(order ? { order } : {}) },
    (fields) => ({ ...fields }),
    (id, record) => void writes.push([id, record]),
  );
  return { table, writes };
}

const contact = (id: string, fields: Partial<Contact> = {}): Contact => ({
  id,
  accountId: "acc_1",
  email: `${id}@example.com`,
  listId: null,
  bytes: 0,
  ...fields,
});
const ids = (records: Iterable<Contact>) => [...records].map((r) => r.id);

describe("Table", () => {
  it("inserts a record made from the fields, gets it by id, keeps the order made, and tells the store", () => {
    const { table, writes } = setUp();
    const fields = contact("ct_2");
    const stored = table.insert(fields);
    table.insert(contact("ct_1"));
    expect(stored).toEqual(fields);
    expect(stored).not.toBe(fields);
    expect(table.get("ct_2")).toBe(stored);
    expect(table.get("ct_9")).toBeUndefined();
    expect(table.size).toBe(2);
    expect(ids(table.all())).toEqual(["ct_2", "ct_1"]);
    expect(writes).toEqual([
      ["ct_2", stored],
      ["ct_1", table.get("ct_1")],
    ]);
  });

  it("refuses a second record with an id, storing nothing and telling nobody", () => {
    const { table, writes } = setUp();
    const first = table.insert(contact("ct_1"));
    expect(() => table.insert(contact("ct_1", { email: "other@example.com" }))).toThrow("There are two contact records with the id ct_1.");
    expect(table.get("ct_1")).toBe(first);
    expect(table.find("email", "acc_1", "other@example.com")).toBeUndefined();
    expect(writes).toHaveLength(1);
  });

  it("finds by a lookup within its scope, the oldest record with the value first; a record without a value is in no entry", () => {
    const { table } = setUp();
    table.insert(contact("ct_1", { email: "a@example.com" }));
    table.insert(contact("ct_2", { email: "a@example.com" }));
    table.insert(contact("ct_3", { email: "a@example.com", accountId: "acc_2" }));
    table.insert(contact("ct_4", { email: null }));
    expect(table.find("email", "acc_1", "a@example.com")?.id).toBe("ct_1");
    expect(table.find("email", "acc_2", "a@example.com")?.id).toBe("ct_3");
    expect(table.find("email", "acc_3", "a@example.com")).toBeUndefined();
    table.remove("ct_1");
    expect(table.find("email", "acc_1", "a@example.com")?.id).toBe("ct_2");
    table.remove("ct_2");
    expect(table.find("email", "acc_1", "a@example.com")).toBeUndefined();
  });

  it("groups records by a value, in the order they joined, and sums a tally per key", () => {
    const { table } = setUp();
    table.insert(contact("ct_1", { listId: "lst_a", bytes: 10 }));
    table.insert(contact("ct_2", { listId: "lst_b", bytes: 5 }));
    table.insert(contact("ct_3", { listId: "lst_a", bytes: 1, accountId: "acc_2" }));
    table.insert(contact("ct_4", { listId: null }));
    expect(ids(table.group("list", "lst_a"))).toEqual(["ct_1", "ct_3"]);
    expect(table.group("list", "lst_c")).toEqual([]);
    expect(table.tally("bytes", "acc_1")).toBe(15);
    expect(table.tally("bytes", "acc_2")).toBe(1);
    expect(table.tally("bytes", "acc_9")).toBe(0);
  });

  it("updates a record in place and moves it between index entries when a field an index reads changed", () => {
    const { table, writes } = setUp();
    const record = table.insert(contact("ct_1", { email: "old@example.com", listId: "lst_a", bytes: 10 }));
    table.insert(contact("ct_2", { listId: "lst_b" }));
    const updated = table.update(record, { email: "new@example.com", listId: "lst_b", bytes: 4, accountId: "acc_2" });
    expect(updated).toBe(record);
    expect(record).toMatchObject({ email: "new@example.com", listId: "lst_b", bytes: 4, accountId: "acc_2" });
    expect(table.find("email", "acc_1", "old@example.com")).toBeUndefined();
    expect(table.find("email", "acc_2", "new@example.com")).toBe(record);
    expect(ids(table.group("list", "lst_a"))).toEqual([]);
    // It joins its new group last.
    expect(ids(table.group("list", "lst_b"))).toEqual(["ct_2", "ct_1"]);
    expect(table.tally("bytes", "acc_1")).toBe(0);
    expect(table.tally("bytes", "acc_2")).toBe(4);
    expect(writes.at(-1)).toEqual(["ct_1", record]);
    // A record keeps its place in the order made.
    expect(ids(table.all())).toEqual(["ct_1", "ct_2"]);
  });

  it('moves a record written again to the end when its order is "written"', () => {
    const { table } = setUp("written");
    const first = table.insert(contact("ct_1"));
    table.insert(contact("ct_2"));
    table.update(first, { bytes: 1 });
    expect(ids(table.all())).toEqual(["ct_2", "ct_1"]);
  });

  it("refuses to update a record that is not the one stored (replaced by a load)", () => {
    const { table } = setUp();
    const old = table.insert(contact("ct_1"));
    table.fill([contact("ct_1")]);
    expect(() => table.update(old, { bytes: 1 })).toThrow(
      "The contact record ct_1 is not the one stored: it was replaced (a reset, a load).",
    );
    expect(() => table.update(contact("ct_9"), { bytes: 1 })).toThrow("The contact record ct_9 is not the one stored");
  });

  it("removes a record from its id and every index, telling the store; removing one not there is false", () => {
    const { table, writes } = setUp();
    table.insert(contact("ct_1", { listId: "lst_a", bytes: 7 }));
    expect(table.remove("ct_1")).toBe(true);
    expect(table.get("ct_1")).toBeUndefined();
    expect(table.size).toBe(0);
    expect(table.find("email", "acc_1", "ct_1@example.com")).toBeUndefined();
    expect(table.group("list", "lst_a")).toEqual([]);
    expect(table.tally("bytes", "acc_1")).toBe(0);
    expect(writes.at(-1)).toEqual(["ct_1", undefined]);
    expect(table.remove("ct_1")).toBe(false);
    expect(writes).toHaveLength(2);
  });

  it("fills with records as a whole, telling nobody, and refuses an id given twice with its place", () => {
    const { table, writes } = setUp();
    table.insert(contact("ct_old"));
    table.fill([contact("ct_1", { listId: "lst_a", bytes: 2 }), contact("ct_2", { listId: "lst_a", bytes: 3 })]);
    expect(ids(table.all())).toEqual(["ct_1", "ct_2"]);
    expect(table.get("ct_old")).toBeUndefined();
    expect(ids(table.group("list", "lst_a"))).toEqual(["ct_1", "ct_2"]);
    expect(table.tally("bytes", "acc_1")).toBe(5);
    expect(writes).toHaveLength(1);
    const twice = (() => {
      try {
        table.fill([contact("ct_1"), contact("ct_2"), contact("ct_1")]);
      } catch (error) {
        return error;
      }
    })();
    expect(twice).toBeInstanceOf(DuplicateId);
    expect(twice).toMatchObject({ table: "contact", index: 2, id: "ct_1", message: "There are two contact records with the id ct_1." });
  });

  it("clears every record and index", () => {
    const { table } = setUp();
    table.insert(contact("ct_1", { listId: "lst_a", bytes: 2 }));
    table.clear();
    expect(table.size).toBe(0);
    expect(table.find("email", "acc_1", "ct_1@example.com")).toBeUndefined();
    expect(table.group("list", "lst_a")).toEqual([]);
    expect(table.tally("bytes", "acc_1")).toBe(0);
  });

  it("reads a tally's amount again only when the update touches a field the tally reads", () => {
    let reads = 0;
    const counted: KindSpec<Contact, "email", "list", "bytes"> = {
      ...spec,
      tallies: { bytes: { key: (c) => c.accountId, amount: (c) => (reads++, c.bytes), reads: ["bytes"] } },
    };
    const table = new Table<Contact, "email", "list", "bytes">(
      "contact",
      counted,
      (fields) => ({ ...fields }),
      () => {},
    );
    const record = table.insert(contact("ct_1", { bytes: 3 }));
    reads = 0;
    table.update(record, { email: "other@example.com" });
    expect(reads).toBe(0);
    table.update(record, { bytes: 8 });
    expect(reads).toBeGreaterThan(0);
    expect(table.tally("bytes", "acc_1")).toBe(8);
  });
});
