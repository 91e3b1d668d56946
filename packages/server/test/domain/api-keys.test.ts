// An API key does not expire and carries its account's whole access.
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("API keys", () => {
  it("do not expire and carry their account's whole access: a key works in every form it is sent in, years on", async () => {
    harness = await startHarness({ clock: "virtual" });
    await harness.admin("POST", "/clock/advance", { ms: 3 * 366 * 24 * 3600 * 1000 });
    const created = await client(httpsTarget(harness), "query", KEYS.acme).contacts.create({ phone: "+14155550123" });
    await expect(
      client(httpsTarget(harness), "bearer", KEYS.acme).lists.addContact("lst_acme", { contact_id: created.id }),
    ).resolves.toMatchObject({ added: true });
    await expect(
      client(httpsTarget(harness), "query", KEYS.acme).messages.receive({
        customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" },
      }),
    ).resolves.toMatchObject({ success: true });
  });
});
