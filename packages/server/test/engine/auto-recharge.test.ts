// Auto-recharge: an agency's sub-account below its threshold is topped up and the agency told,
// end to end over HTTPS with @intake/client, a real webhook receiver on 127.0.0.1 and a virtual
// clock, so every schedule is exact (test/support/engine.ts has the set-up).
import type { IntakeOptions, Seed } from "@intake/server";
import { describe, expect, it } from "vitest";
import {
  AGENCY_KEY,
  AGENCY_SECRET,
  closeServersAfterEach,
  get,
  harness,
  KEY,
  receiver,
  settle,
  start,
  webhookSchema,
} from "../support/engine.js";

closeServersAfterEach();

describe("auto-recharge", () => {
  /** The agency's auto-recharge URL is `url`; the sub-account's replies go to `replies`. */
  function agencySeed(url: string, replies: string, duplicates = false, credits = 12): [Seed, IntakeOptions] {
    return [
      {
        accounts: [
          {
            id: "acc_agency",
            kind: "agency",
            name: "Northwind",
            apiKey: AGENCY_KEY,
            webhookSecret: AGENCY_SECRET,
            autoRechargeUrl: url,
            subaccounts: [
              {
                id: "sub_client",
                email: "client@northwind.example",
                apiKey: KEY,
                credits,
                autoRecharge: { threshold: 10, amount: 500 },
                webhookUrl: replies,
                campaigns: [{ id: "cmp_client", name: "Client bot", state: "Live" }],
              },
            ],
          },
        ],
      },
      { duplicateRechargeWebhooks: duplicates },
    ];
  }

  it("asks the agency once per crossing below the threshold, signed; granting with its idempotency_key grants once", async () => {
    const hooks = await receiver();
    const { query, agency } = await start(...agencySeed(hooks.url, (await receiver()).url));
    const chat = (sid: string) => query.messages.receive({ customData: { messageSid: sid, fromId: "u1", toId: "t", body: "hi" } });
    await chat("SM-1"); // first message + reply: 12 -> 10, not below
    await settle();
    expect(hooks.received).toHaveLength(0);
    await chat("SM-2"); // 10 -> 9: crossing
    await chat("SM-3"); // 9 -> 8: already below, no new request
    await settle();
    expect(hooks.received).toHaveLength(1);
    const [request] = hooks.received;
    expect(request!.json).toEqual({
      idempotency_key: expect.stringMatching(/^rch_/),
      sub_account_id: "sub_client",
      email: "client@northwind.example",
      amount: 500,
      balance: 9,
      threshold: 10,
    });
    expect(() => hooks.verify(request!, AGENCY_SECRET)).not.toThrow();
    expect(webhookSchema("AutoRechargeWebhookPayload")(request!.json)).toEqual([]);

    const key = request!.json.idempotency_key;
    await agency.subaccounts.grantCredits({ email: "client@northwind.example", amount: 500 }, { idempotencyKey: key });
    await agency.subaccounts.grantCredits({ email: "client@northwind.example", amount: 500 }, { idempotencyKey: key });
    expect((await get("/accounts/sub_client/credits")).balance).toBe(508);

    // Above the threshold again, a new crossing asks again, with a new key.
    await harness!.admin("POST", "/accounts/sub_client/credits", { amount: -498, description: "Spent elsewhere" });
    await chat("SM-4");
    await settle();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[1]!.json.idempotency_key).not.toBe(key);
  });

  it("a message that takes two credits asks once, with the balance it left", async () => {
    const hooks = await receiver();
    const { query } = await start(...agencySeed(hooks.url, (await receiver()).url, false, 10));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } }); // first message + reply: 10 -> 8
    await settle();
    expect(hooks.received.map((r) => r.json.balance)).toEqual([8]);
    expect((await get("/accounts/sub_client/credits")).balance).toBe(8);
  });

  it("with duplicates on, each request comes twice with the same idempotency_key", async () => {
    const hooks = await receiver();
    const { query } = await start(...agencySeed(hooks.url, (await receiver()).url, true));
    for (const sid of ["SM-1", "SM-2"])
      await query.messages.receive({ customData: { messageSid: sid, fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[0]!.json).toEqual(hooks.received[1]!.json);
    expect(hooks.received[0]!.headers["webhook-id"]).not.toBe(hooks.received[1]!.headers["webhook-id"]);
    expect((await get("/deliveries?kind=auto_recharge")).map((d: { state: string }) => d.state)).toEqual(["delivered", "delivered"]);
  });
});
