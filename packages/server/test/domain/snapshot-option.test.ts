// A snapshot given to createIntake is checked as PUT /__admin/snapshot checks one.
import { createIntake } from "@intake/server";
import { describe, expect, it } from "vitest";
import { SEED } from "../support/seed.js";

describe("a snapshot given to createIntake", () => {
  it("is checked as PUT /__admin/snapshot checks one: a record that breaks its kind's schema or shares another's API key is refused by its path", async () => {
    const first = createIntake({ seed: SEED });
    const snapshot = first.snapshot() as unknown as { records: { account: Array<Record<string, unknown>> } };
    await first.close();
    const count = snapshot.records.account.length;
    const withAccount = (account: object) =>
      ({ ...snapshot, records: { ...snapshot.records, account: [...snapshot.records.account, account] } }) as never;
    expect(() => createIntake({ snapshot: withAccount({ id: 42 }) })).toThrow(
      `records.account[${count}].kind is required. Nothing was changed.`,
    );
    expect(() => createIntake({ snapshot: withAccount({ ...snapshot.records.account[0], id: 42, apiKey: "ik_other" }) })).toThrow(
      `records.account[${count}].id must be a string.`,
    );
    expect(() => createIntake({ snapshot: withAccount({ ...snapshot.records.account[1], id: "acc_twin" }) })).toThrow(
      `records.account[${count}].apiKey is also the API key of account ${String(snapshot.records.account[1]!.id)}: an API key belongs to one account. Nothing was changed.`,
    );
    expect(() =>
      createIntake({ snapshot: withAccount({ ...snapshot.records.account[0], id: "acc_more", apiKey: "ik_more", credits: Infinity }) }),
    ).toThrow(`records.account[${count}].credits must be a finite number`);
    const intake = createIntake({ snapshot: snapshot as never });
    expect(await intake.admin.accounts()).toHaveLength(count);
    await intake.close();
  });
});
