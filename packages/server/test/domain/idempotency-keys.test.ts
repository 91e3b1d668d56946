// Idempotency-Key memory: how long a grant's key is kept, and that a snapshot keeps it.
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("Idempotency-Key memory", () => {
  it("is kept for 24 hours, then the key grants again", async () => {
    harness = await startHarness({ clock: "virtual" });
    const agency = client(httpsTarget(harness), "header", KEYS.agency);
    const grant = (key = "rch_1") =>
      agency.subaccounts.grantCredits({ email: "one@northwind.example", amount: 10 }, { idempotencyKey: key });
    const balance = async () => (await harness!.admin("GET", "/accounts/sub_one/credits")).body.balance;
    await grant();
    await harness.admin("POST", "/clock/advance", { ms: 12 * 3600 * 1000 });
    await grant("rch_2");
    await harness.admin("POST", "/clock/advance", { ms: 12 * 3600 * 1000 - 1000 });
    await grant();
    expect(await balance()).toBe(25);
    await harness.admin("POST", "/clock/advance", { ms: 2000 });
    await grant();
    expect(await balance()).toBe(35);
    // The later key is still within its 24 hours.
    await grant("rch_2");
    expect(await balance()).toBe(35);
  });

  it("is kept in a snapshot: a server started from it answers a retried grant as the first time, granting nothing", async () => {
    const grant = (target: HttpsHarness) =>
      client(httpsTarget(target), "header", KEYS.agency).raw.POST("/subaccounts/credits", {
        params: { header: { "Idempotency-Key": "rch_1" } },
        body: { email: "one@northwind.example", amount: 10 },
      });
    const first = await startHarness();
    const sent = await grant(first);
    const saved = JSON.parse(JSON.stringify(first.intake.snapshot()));
    await first.close();
    harness = await startHarness({ snapshot: saved });
    const again = await grant(harness);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(sent.data);
    expect((await harness.admin("GET", "/accounts/sub_one/credits")).body.balance).toBe(15);
  });
});
