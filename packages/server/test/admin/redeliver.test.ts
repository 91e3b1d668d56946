// POST /__admin/deliveries/{id}/redeliver over HTTPS: a finished webhook sent again to a real
// receiver, the same webhook-id, freshly signed, its attempts numbered on.
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { startReceiver, type Receiver } from "../support/receiver.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await harness?.close();
  await receiver?.close();
  harness = receiver = undefined;
});

describe("redelivering a webhook", () => {
  it("lists a conversation's deliveries; sends a delivered or failed webhook again with its webhook-id, numbering attempts on; 409 while pending, 404 when unknown", async () => {
    receiver = await startReceiver();
    harness = await startHarness({ clock: "virtual" });
    const { admin } = harness;
    const account = (await admin("PATCH", "/accounts/acc_acme", { webhookUrl: receiver.url })).body;
    await client(httpsTarget(harness), "query", KEYS.acme).messages.receive({
      customData: { messageSid: "SM-re-1", fromId: "user-re", toId: "acme", body: "Hello" },
    });
    await admin("POST", "/settle");
    const contactId = (await admin("GET", "/messages?accountId=acc_acme&direction=inbound")).body.find(
      (m: any) => m.fromId === "user-re",
    ).contactId;
    const reply = (await admin("POST", `/contacts/${contactId}/replies`, { body: "Thanks, we will call you." })).body;
    await admin("POST", "/settle");
    const [first] = (await admin("GET", `/deliveries?messageId=${reply.id}`)).body;
    expect(first).toMatchObject({ state: "delivered", attempts: [{ number: 1, status: 200 }] });
    // A conversation's webhooks at once: its bot answer's and the reply's, no other contact's.
    const conversation = (await admin("GET", `/contacts/${contactId}`)).body.messages.map((m: any) => m.id);
    const ofContact = (await admin("GET", `/deliveries?contactId=${contactId}`)).body;
    expect(ofContact.map((d: any) => d.id)).toContain(first.id);
    expect(ofContact.every((d: any) => conversation.includes(d.messageId))).toBe(true);
    expect((await admin("GET", "/deliveries?contactId=ct_nobody")).body).toEqual([]);

    const again = await admin("POST", `/deliveries/${first.id}/redeliver`);
    expect(again).toMatchObject({ status: 200, body: { id: first.id, state: "pending", completedAt: null } });
    await admin("POST", "/settle");
    expect((await admin("GET", `/deliveries/${first.id}`)).body).toMatchObject({
      state: "delivered",
      attempts: [{ number: 1 }, { number: 2, status: 200 }],
    });
    const sent = receiver.received.filter((r) => r.json?.body === "Thanks, we will call you.");
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers["webhook-id"]).toBe(sent[0]!.headers["webhook-id"]);
    for (const request of sent)
      expect(receiver.verify(request, account.webhookSecret)).toMatchObject({ body: "Thanks, we will call you." });

    // A failing receiver: the redelivery is retried, and while it waits it cannot be redelivered.
    receiver.answer(() => ({ status: 500 }));
    await admin("POST", `/deliveries/${first.id}/redeliver`);
    await admin("POST", "/settle");
    const retrying = (await admin("GET", `/deliveries/${first.id}`)).body;
    expect(retrying).toMatchObject({ state: "pending", attempts: [{ number: 1 }, { number: 2 }, { number: 3, status: 500 }] });
    expect(await admin("POST", `/deliveries/${first.id}/redeliver`)).toMatchObject({
      status: 409,
      body: { error: { code: "CONFLICT", message: expect.stringContaining("still under way") } },
    });
    expect((await admin("POST", "/deliveries/whd_nope/redeliver")).status).toBe(404);
  });
});
