// The write-through as a hosted sandbox runs it (commit "at-once", @intake/server/hosting): each
// operation's changes are written before its answer resolves, with no hold of the server's own
// (the platform holds the answer until the write is durable); a write that fails is handed to
// `abandon` once, and nothing is retried.
import { createIntake, type Snapshot } from "@intake/server";
import { internals, NotSavedError, writeThrough, type StateStore } from "@intake/server/hosting";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it, vi } from "vitest";

const KEY = "ik_at_once_business_0000001";

function setUp(write: StateStore["write"], abandon: (error: NotSavedError) => void) {
  const intake = createIntake({ seed: { accounts: [{ id: "acc_a", name: "A", apiKey: KEY }] }, rateLimit: 0 });
  const store: StateStore = {
    path: "the test's store",
    read: () => undefined as Snapshot | undefined,
    write,
    replace: () => {},
    explain: (error) => `The store refused a write (${(error as Error).message}).`,
    close: () => {},
  };
  const through = writeThrough(internals(intake), store, { commit: "at-once", abandon });
  const create = (phone: string) =>
    intake.fetch(
      new Request(`https://sandbox.test/v1/contacts?apiKey=${KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone }),
      }),
    );
  return { intake, through, create };
}

it("writes an operation's changes before its answer resolves, one write for the operation's changes", async () => {
  const happened: string[] = [];
  const { create, through } = setUp(
    (changes) => void happened.push(`write ${[...changes.keys()].join(",")}`),
    () => happened.push("abandoned"),
  );
  const answer = await create("+14155550100");
  happened.push(`answer ${answer.status}`);
  expect(happened).toEqual(["write contact", "answer 201"]);
  through.stop();
});

it("hands a write that fails to abandon once, saying why, and tries it no more", async () => {
  const abandon = vi.fn();
  let writes = 0;
  const { create, through } = setUp(() => {
    writes++;
    throw new Error("string or blob too big");
  }, abandon);
  await create("+14155550101");
  await sleep(1_500);
  expect(writes).toBe(1);
  expect(abandon).toHaveBeenCalledTimes(1);
  const [error] = abandon.mock.calls[0]! as [NotSavedError];
  expect(error).toBeInstanceOf(NotSavedError);
  expect(error.message).toMatch(
    /^The store refused a write \(string or blob too big\)\. The answers it would have confirmed are not given/,
  );
  through.stop();
});
