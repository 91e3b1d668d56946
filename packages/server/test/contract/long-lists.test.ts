// A check over a list costs time in proportion to the list and reports a bounded number of
// problems: a body of many bad entries (a snapshot's records, a seed's contacts, an import's
// rows) is refused as soon as it is read, naming the first, and leaves the state as it was.
// Before the validators gathered errors in place (src/shared/gather-errors.ts), 20,000 bad
// records took minutes: these fail by their time limit if that comes back.
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type HttpsHarness } from "../support/harness.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const MANY = 20_000;
const bad = () => Array.from({ length: MANY }, () => ({}));

async function contactCount(h: HttpsHarness): Promise<number> {
  const { body } = await h.admin("GET", "/snapshot");
  return body.records.contact?.length ?? 0;
}

describe("a list of many bad entries", () => {
  it("a snapshot whose records all lack their ids: refused, the first named, nothing changed", async () => {
    harness = await startHarness();
    const before = await harness.admin("GET", "/snapshot");
    const records = { ...before.body.records, contact: bad() };
    const answer = await harness.admin("PUT", "/snapshot", { ...before.body, records });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/^records\.contact\[0\]\.\w+ is required\./);
    expect((await harness.admin("GET", "/snapshot")).body.records).toEqual(before.body.records);
  });

  it("a seed of contacts with a number for a name, and an import of ids not an id: refused, nothing added", async () => {
    harness = await startHarness();
    const count = await contactCount(harness);
    const seed = await harness.admin("POST", "/seed", {
      accounts: [
        {
          id: "acc_many",
          name: "Many",
          apiKey: "ik_test_many_000000000001",
          contacts: Array.from({ length: MANY }, () => ({ firstName: 5 })),
        },
      ],
    });
    expect(seed.status).toBe(400);
    expect(seed.body.error.message).toContain("accounts[0].contacts[0].firstName");
    const rows = Array.from({ length: MANY }, (_, i) => ({ id: `bad id ${i}` }));
    const imported = await harness.admin("POST", "/lists/lst_acme/contacts", { contacts: rows });
    expect(imported.status).toBe(400);
    expect(imported.body.error.message).toContain("contacts[0].id");
    expect(await contactCount(harness)).toBe(count);
  });
});
