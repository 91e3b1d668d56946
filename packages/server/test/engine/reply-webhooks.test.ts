// Reply webhooks: each answer delivered to the account's URL, signed, retried and recorded,
// end to end over HTTPS with @intake/client, a real webhook receiver on 127.0.0.1 and a virtual
// clock, so every schedule is exact (test/support/engine.ts has the set-up).
import { describe, expect, it } from "vitest";
import {
  advance,
  closeServersAfterEach,
  forgetLastReceiver,
  get,
  harness,
  HOUR,
  receiver,
  SECOND,
  SECRET,
  seed,
  settle,
  start,
} from "../support/engine.js";

closeServersAfterEach();

describe("reply webhook delivery", () => {
  it("a failing receiver is retried on schedule with the same webhook-id, then the reply is Failed with the error kept", async () => {
    const hooks = await receiver();
    hooks.answer(() => ({ status: 500, body: "receiver is down" }));
    const { query } = await start(seed(hooks.url), { webhooks: { jitter: 0, maxAttempts: 4, initialDelayMs: 5 * SECOND, factor: 4 } });
    const t0 = Date.parse((await get("/clock")).now);
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    const [pending] = await get("/deliveries");
    expect(pending).toMatchObject({ state: "pending", attempts: [{ number: 1, status: 500, error: "HTTP 500: receiver is down" }] });
    expect((await get(`/messages/${pending.messageId}`)).status).toBe("pending");

    await advance(5 * SECOND - 1);
    expect(hooks.received).toHaveLength(1);
    await advance(1);
    expect(hooks.received).toHaveLength(2);
    await advance(20 * SECOND);
    expect(hooks.received).toHaveLength(3);
    await advance(80 * SECOND);
    expect(hooks.received).toHaveLength(4);
    await advance(HOUR);
    expect(hooks.received).toHaveLength(4);

    const [failed] = await get("/deliveries");
    expect(failed.attempts.map((a: { startedAt: string }) => Date.parse(a.startedAt) - t0)).toEqual([
      0,
      5 * SECOND,
      25 * SECOND,
      105 * SECOND,
    ]);
    expect(failed).toMatchObject({ state: "failed", lastError: "Failed after 4 attempts; the last: HTTP 500: receiver is down" });
    expect(failed.attempts.at(-1).nextAttemptAt).toBeNull();
    expect(new Set(hooks.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([failed.webhookId]));
    // Each attempt shows the signed headers that the receiver got from it, which verify.
    expect(
      failed.attempts.map((a: { webhookTimestamp: number; webhookSignature: string }) => [String(a.webhookTimestamp), a.webhookSignature]),
    ).toEqual(hooks.received.map((r) => [r.headers["webhook-timestamp"], r.headers["webhook-signature"]]));
    for (const call of hooks.received) expect(() => hooks.verify(call, SECRET)).not.toThrow();
    expect(await get(`/messages/${failed.messageId}`)).toMatchObject({
      status: "failed",
      error: "Failed after 4 attempts; the last: HTTP 500: receiver is down",
    });
  });

  it("backs off exponentially with jitter by default, and honours Retry-After", async () => {
    const hooks = await receiver();
    hooks.answer((_, i) => (i === 0 ? { status: 503, headers: { "retry-after": "42" } } : i === 1 ? { status: 500 } : { status: 204 }));
    const { query } = await start(seed(hooks.url));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    await advance(41 * SECOND);
    expect(hooks.received).toHaveLength(1);
    await advance(SECOND);
    expect(hooks.received).toHaveLength(2);
    const [delivery] = await get("/deliveries");
    const wait = Date.parse(delivery.attempts[1].nextAttemptAt) - Date.parse(delivery.attempts[1].startedAt);
    // The second wait is 20 s, give or take the 20% jitter.
    expect(wait).toBeGreaterThanOrEqual(16 * SECOND);
    expect(wait).toBeLessThanOrEqual(24 * SECOND);
    await advance(24 * SECOND);
    expect((await get("/deliveries"))[0]).toMatchObject({ state: "delivered" });
    expect((await get(`/messages/${delivery.messageId}`)).status).toBe("sent");
  });

  it("a refused connection and a receiver that does not answer in time are failed attempts, with what happened", async () => {
    const slow = await receiver();
    slow.answer(() => ({ status: 200, delayMs: 1000 }));
    const { query } = await start(seed(slow.url), { webhooks: { timeoutMs: 100, maxAttempts: 1 } });
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    expect((await get("/deliveries"))[0]).toMatchObject({
      state: "failed",
      attempts: [{ status: null, error: "No answer within 100 ms." }],
    });
    const closed = await receiver();
    await closed.close();
    forgetLastReceiver();
    await harness!.admin("PATCH", "/accounts/acc_gym", { webhookUrl: closed.url });
    await query.messages.receive({ customData: { messageSid: "SM-2", fromId: "u2", toId: "t", body: "hi" } });
    await settle();
    expect((await get("/deliveries?state=failed"))[1].attempts[0]).toMatchObject({ status: null, error: "The connection was refused." });
  });

  it("a redirect is not a success: the attempt fails and is not followed", async () => {
    const hooks = await receiver();
    hooks.answer(() => ({ status: 302, headers: { location: hooks.url.replace("/hooks/intake", "/elsewhere") } }));
    const { query } = await start(seed(hooks.url), { webhooks: { maxAttempts: 1 } });
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    expect(hooks.received).toHaveLength(1);
    const [delivery] = await get("/deliveries");
    expect(delivery).toMatchObject({ state: "failed", attempts: [{ status: 302 }] });
    expect((await get(`/messages/${delivery.messageId}`)).status).toBe("failed");
  });

  it("without a Custom Channel Webhook URL the reply is Failed and says why", async () => {
    const { query } = await start(seed(null));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    const [delivery] = await get("/deliveries");
    expect(delivery).toMatchObject({ state: "failed", attempts: [] });
    expect((await get(`/messages/${delivery.messageId}`)).error).toBe(
      "No Custom Channel Webhook URL (Settings > Custom Channel Webhook) is set, so there is nowhere to deliver." +
        " Set it with PATCH /__admin/accounts/acc_gym (webhookUrl), or at /__dashboard/settings?account=acc_gym.",
    );
  });

  it("deliveries to one URL run a few at a time", async () => {
    const hooks = await receiver();
    hooks.answer(() => ({ status: 200, delayMs: 30 }));
    const { query } = await start(seed(hooks.url), { webhooks: { concurrencyPerUrl: 2 } });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        query.messages.receive({ customData: { messageSid: `SM-${i}`, fromId: `u${i}`, toId: "t", body: "hi" } }),
      ),
    );
    await settle();
    expect(hooks.received).toHaveLength(8);
    expect(hooks.maxConcurrent).toBe(2);
  });

  it("a reply typed in the app goes out the same way", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url, { botActive: false }));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-9", toId: "t", body: "hello?", channel: "acme-chat" } });
    await settle();
    const contact = (await get("/contacts?accountId=acc_gym"))[0];
    const typed = await harness!.admin("POST", `/contacts/${contact.id}/replies`, { body: "Hi, this is Sam from Acme." });
    expect(typed).toMatchObject({ status: 201, body: { source: "human", status: "pending", channel: "acme-chat" } });
    await settle();
    expect(hooks.received.map((r) => r.json)).toEqual([
      {
        contactId: contact.id,
        messageId: typed.body.id,
        userId: "usr_gym_owner",
        body: "Hi, this is Sam from Acme.",
        toId: "user-9",
        channel: "acme-chat",
      },
    ]);
    expect((await get(`/messages/${typed.body.id}`)).status).toBe("sent");
  });
  it("a reply typed in the app to a lead with no custom channel goes on the campaign's channel, with no webhook", async () => {
    const hooks = await receiver();
    const { bearer } = await start(seed(hooks.url));
    const lead = await bearer.contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
    await bearer.lists.addContact("lst_leads", { contact_id: lead.id });
    const typed = await harness!.admin("POST", `/contacts/${lead.id}/replies`, { body: "Hi Ada, this is Sam." });
    await settle();
    expect(typed).toMatchObject({ status: 201, body: { source: "human", status: "sent", channel: "messaging_app", toId: "+14155550123" } });
    expect(hooks.received).toHaveLength(0);
    expect(await get(`/deliveries?messageId=${typed.body.id}`)).toEqual([]);
  });
});
