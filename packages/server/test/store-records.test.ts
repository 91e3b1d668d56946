// The store's record table makes exactly the records @mswjs/data's models make, and finds them by id.
import { ENTITY_TYPE, PRIMARY_KEY } from "@mswjs/data";
import { describe, expect, it, vi } from "vitest";
import { MODELS, MODEL_NAMES, createDatabase, recordTable, type Database, type ModelName } from "../src/store/models.js";

/** Values for every field of a model: strings, numbers, booleans, and null where a field may be. */
function valuesFor(model: ModelName, variant: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  Object.entries(MODELS[model]).forEach(([name, kind], i) => {
    if (name === "id") values.id = `${model}_${variant}`;
    else if (typeof kind === "object") values[name] = (i + variant) % 2 ? null : `${name} ${variant}`;
    else if (kind === Number) values[name] = i * 1.5 + variant;
    else if (kind === Boolean) values[name] = variant % 2 === 0;
    else values[name] = `${name} ${variant}`;
  });
  return values;
}

const models = Object.keys(MODELS) as ModelName[];

describe("the store's record writer", () => {
  it.each(models)("makes %s records identical to the model's create, that the model's queries find", (model) => {
    for (const variant of [1, 2]) {
      const reference = createDatabase();
      const fast = createDatabase();
      const values = valuesFor(model, variant);
      const expected = (reference[model].create as unknown as (v: object) => Record<string | symbol, unknown>)(values);
      const made = recordTable(fast).create(model, values as never) as unknown as Record<string | symbol, unknown>;
      expect(Object.keys(made)).toEqual(Object.keys(expected));
      expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(expected));
      expect({ ...made }).toEqual({ ...expected });
      expect([made[ENTITY_TYPE], made[PRIMARY_KEY]]).toEqual([expected[ENTITY_TYPE], expected[PRIMARY_KEY]]);
      const enumerable = (record: object) => Reflect.ownKeys(record).map((key) => Object.getOwnPropertyDescriptor(record, key)!.enumerable);
      expect(enumerable(made)).toEqual(enumerable(expected));
      expect(Object.getOwnPropertySymbols(made)).toHaveLength(Object.getOwnPropertySymbols(expected).length);
      const api = fast[model] as unknown as { findFirst(q: object): unknown; getAll(): unknown[]; count(): number };
      expect(api.findFirst({ where: { id: { equals: values.id } } })).toBe(made);
      expect(api.getAll()).toEqual([made]);
      expect(api.count()).toBe(1);
    }
  });

  it("refuses what the model's create refuses, with its words: a duplicate id, null where a field may not be", () => {
    const reference = createDatabase();
    const fast = createDatabase();
    const { create: write } = recordTable(fast);
    const values = valuesFor("contact", 1);
    reference.contact.create(values as never);
    write("contact", values as never);
    const referenceError = (() => {
      try {
        reference.contact.create(values as never);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(referenceError).toMatch(/same primary key/);
    expect(() => write("contact", values as never)).toThrow(referenceError!);
    expect(() => write("contact", { ...valuesFor("contact", 3), accountId: null } as never)).toThrow(/non-nullable property "accountId"/);
  });

  it("builds complete records itself, without the model's create (the speed it exists for), and stores those very objects", () => {
    const db = createDatabase();
    const create = vi.spyOn(db.message, "create");
    const stored = recordTable(db).create("message", valuesFor("message", 1) as never);
    expect(create).not.toHaveBeenCalled();
    expect(db.message.getAll()[0]).toBe(stored);
  });

  it("fills a missing field as the model's create does (by handing the record to it)", () => {
    const reference = createDatabase();
    const fast = createDatabase();
    const { lastName: _omitted, ...values } = valuesFor("contact", 2);
    const expected = reference.contact.create(values as never);
    expect({ ...recordTable(fast).create("contact", values as never) }).toEqual({ ...expected });
  });

  it("finds each record by its model and id, the very object stored, and nothing under another model", () => {
    const table = recordTable(createDatabase());
    const contact = table.create("contact", valuesFor("contact", 1) as never);
    const message = table.create("message", { ...valuesFor("message", 1), id: "shared_1" } as never);
    const list = table.create("list", { ...valuesFor("list", 1), id: "shared_1" } as never);
    expect(table.get("contact", contact.id)).toBe(contact);
    expect(table.get("message", "shared_1")).toBe(message);
    expect(table.get("list", "shared_1")).toBe(list);
    expect(table.get("message", contact.id)).toBeUndefined();
    expect(table.get("contact", "contact_2")).toBeUndefined();
  });

  it("keeps its own map of ids where the database is not built as expected, and forgets it on clear", () => {
    const db = createDatabase();
    // The models' API without the database instance behind it: what a changed @mswjs/data would look like.
    const unexpected = Object.fromEntries(MODEL_NAMES.map((name) => [name, db[name]])) as unknown as Database;
    const table = recordTable(unexpected);
    const create = vi.spyOn(db.contact, "create");
    const contact = table.create("contact", valuesFor("contact", 1) as never);
    expect(create).toHaveBeenCalledTimes(1);
    expect(table.get("contact", contact.id)).toBe(contact);
    expect(db.contact.getAll()).toEqual([contact]);
    expect(table.get("message", contact.id)).toBeUndefined();
    table.clear();
    expect(table.get("contact", contact.id)).toBeUndefined();
  });

  it("where code cannot be generated (a page's Content-Security-Policy), makes the same records through the model's create", () => {
    const reference = createDatabase();
    const db = createDatabase();
    const values = valuesFor("message", 1);
    const expected = reference.message.create(values as never);
    vi.stubGlobal("Function", function refused() {
      throw new EvalError("Refused to evaluate a string as JavaScript");
    });
    let table: ReturnType<typeof recordTable>;
    try {
      table = recordTable(db);
    } finally {
      vi.unstubAllGlobals();
    }
    const create = vi.spyOn(db.message, "create");
    const made = table.create("message", values as never);
    expect(create).toHaveBeenCalledTimes(1);
    expect({ ...made }).toEqual({ ...expected });
    expect(table.get("message", values.id as string)).toBe(made);
  });

  it("keeps its own map where something listens to the database (cross-tab sync), so another tab's writes do not replace the store's records", () => {
    const db = createDatabase();
    const instance = Object.getOwnPropertySymbols(db)
      .map((symbol) => (db as unknown as Record<symbol, { events?: { on(event: string, listener: () => void): void }; getModel?: (model: string) => Map<string, object> }>)[symbol])
      .find((candidate) => candidate?.events && candidate.getModel)!;
    instance.events!.on("delete", () => {});
    const table = recordTable(db);
    const contact = table.create("contact", valuesFor("contact", 1) as never);
    // What @mswjs/data's sync does with another tab's create of the same id.
    instance.getModel!("contact").set(contact.id, { ...contact, firstName: "another tab" });
    expect(table.get("contact", contact.id)).toBe(contact);
    instance.getModel!("contact").delete(contact.id);
    expect(table.get("contact", contact.id)).toBe(contact);
  });

  it("reads the database's own maps where nothing listens: a record made through the model's create is found too", () => {
    const db = createDatabase();
    const table = recordTable(db);
    const made = db.contact.create(valuesFor("contact", 4) as never);
    expect(table.get("contact", made.id)).toBe(made);
  });
});
