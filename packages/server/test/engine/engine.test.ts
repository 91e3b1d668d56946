// The conversation and funnel engine's edge cases, and the engine on the real clock,
// end to end over HTTPS with @intake/client, a real webhook receiver on 127.0.0.1 and a virtual
// clock, so every schedule is exact (test/support/engine.ts has the set-up).
import { realClock } from "@intake/server";
import { describe, expect, it } from "vitest";
import { client, httpsTarget } from "../support/harness.js";
import {
  advance,
  AGENCY_KEY,
  closeServersAfterEach,
  conversation,
  get,
  harness,
  HOUR,
  receiver,
  SECOND,
  seed,
  settle,
  start,
  stop,
} from "../support/engine.js";

closeServersAfterEach();

describe("engine edge cases", () => {
  it("queued openings are charged when they go, and stop when the credits run out", async () => {
    const { bearer } = await start(seed(null, {}, 6), { funnel: { queueIntervalMs: SECOND } });
    const contacts = Array.from({ length: 10 }, (_, i) => ({ phone: `+1415555${String(300 + i).padStart(4, "0")}` }));
    await harness!.admin("POST", "/lists/lst_leads/contacts", { contacts });
    await advance(20 * SECOND);
    const openings = (await get("/messages?accountId=acc_gym")).filter((m: { source: string }) => m.source === "opening");
    expect(openings.map((m: { status: string }) => m.status)).toEqual([...Array(6).fill("sent"), ...Array(4).fill("not_sent")]);
    expect(openings.at(-1).error).toBe("The account has no credits left.");
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(0);
    void bearer;
  });

  it("one contact's messages are answered one at a time: a hand-off stops the ones after it", async () => {
    const hooks = await receiver();
    // A bot that takes its time, as a real model does, so the three could overlap.
    const { query } = await start(seed(hooks.url), {
      bot: async ({ message }) => {
        await new Promise((r) => setTimeout(r, 30));
        return message.body.includes("human") ? { handOff: { reason: "asked for a person" } } : { reply: "hello" };
      },
    });
    const send = (sid: string, body: string) => query.messages.receive({ customData: { messageSid: sid, fromId: "u1", toId: "t", body } });
    const sent = [];
    for (const [sid, body] of [
      ["SM-1", "Can I talk to a human please?"],
      ["SM-2", "hello?"],
      ["SM-3", "anyone?"],
    ] as const)
      sent.push(await send(sid, body));
    await settle();
    const outcomes = await Promise.all(sent.map(async (s) => (await get(`/messages/${s.messageId}`)).botOutcome));
    expect(outcomes).toEqual(["handed_off", "contact_paused", "contact_paused"]);
    expect(hooks.received).toHaveLength(0);
  });

  it("a reset while the bot is thinking leaves nothing of the old state in the new one", async () => {
    const hooks = await receiver();
    let release: () => void = () => {};
    const thinking = new Promise<void>((resolve) => (release = resolve));
    const { query } = await start(seed(hooks.url), {
      bot: async () => {
        await thinking;
        return { reply: "late" };
      },
    });
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    const reset = harness!.admin("POST", "/reset");
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect((await reset).status).toBe(200);
    await settle();
    expect(await get("/messages")).toEqual([]);
    expect(await get("/deliveries")).toEqual([]);
    expect(await get("/jobs")).toEqual([]);
    const credits = await get("/accounts/acc_gym/credits");
    expect(credits.balance).toBe(100);
    expect(credits.transactions.map((t: { amount: number }) => t.amount)).toEqual([100]);
  });

  it("a reset while a webhook attempt is in flight records nothing of it in the new state", async () => {
    const hooks = await receiver();
    hooks.answer(() => ({ status: 500, delayMs: 300 }));
    const { query } = await start(seed(hooks.url));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await new Promise((r) => setTimeout(r, 100));
    expect((await harness!.admin("POST", "/reset")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    await settle();
    const { records } = await get("/snapshot");
    expect({ deliveries: records.delivery, attempts: records.deliveryAttempt, jobs: records.job }).toEqual({
      deliveries: [],
      attempts: [],
      jobs: [],
    });
  });

  it("restoring a snapshot while a delivery is in flight delivers it once", async () => {
    const hooks = await receiver();
    hooks.answer(() => ({ status: 200, delayMs: 200 }));
    const { query } = await start(seed(hooks.url));
    const snapshot = await get("/snapshot");
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await new Promise((r) => setTimeout(r, 50));
    await harness!.admin("PUT", "/snapshot", snapshot);
    await settle();
    expect(hooks.received.length).toBeLessThanOrEqual(1);
    expect(await get("/deliveries")).toEqual([]);
  });

  it("a graceful stop does not wait for a backlog: unsent attempts stay stored", async () => {
    const hooks = await receiver();
    hooks.answer(() => ({ status: 200, delayMs: 2000 }));
    const { h, query } = await start(seed(hooks.url), { webhooks: { concurrencyPerUrl: 1 } });
    for (let i = 0; i < 5; i++)
      await query.messages.receive({ customData: { messageSid: `SM-${i}`, fromId: `u${i}`, toId: "t", body: "hi" } });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await h.intake.close();
    expect(Date.now() - started).toBeLessThan(1000);
    const pending = (await h.intake.admin.jobs()).filter((j) => j.kind === "deliver");
    expect(pending).toHaveLength(5);
    expect(hooks.received.length).toBeLessThanOrEqual(1);
  });

  it("retries go to the webhook URL as it is now, and deliveries to different URLs of one host do not wait for each other", async () => {
    const first = await receiver();
    first.answer(() => ({ status: 500 }));
    const second = await receiver();
    const { query } = await start(seed(first.url), { webhooks: { jitter: 0 } });
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    await harness!.admin("PATCH", "/accounts/acc_gym", { webhookUrl: second.url });
    await advance(5 * SECOND);
    expect(first.received).toHaveLength(1);
    expect(second.received).toHaveLength(1);
    expect((await get("/deliveries"))[0]).toMatchObject({ state: "delivered", url: second.url });

    const slow = await receiver();
    slow.answer(() => ({ status: 200, delayMs: 100 }));
    const otherPath = slow.url.replace("/hooks/intake", "/other");
    const s = seed(slow.url);
    s.accounts!.push({
      id: "acc_two",
      name: "Two",
      apiKey: "ik_engine_second_0000000001",
      webhookUrl: otherPath,
      credits: 10,
      campaigns: [{ name: "C", state: "Live" }],
    });
    await stop();
    const restarted = await start(s, { webhooks: { concurrencyPerUrl: 1 } });
    const two = client(httpsTarget(restarted.h), "query", "ik_engine_second_0000000001");
    await Promise.all([
      restarted.query.messages.receive({ customData: { messageSid: "A", fromId: "u1", toId: "t", body: "hi" } }),
      two.messages.receive({ customData: { messageSid: "B", fromId: "u2", toId: "t", body: "hi" } }),
    ]);
    await settle();
    expect(slow.maxConcurrent).toBe(2);
  });

  it("without a webhook URL a reply costs nothing", async () => {
    const { query } = await start(seed(null));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(100);
  });

  it("a lead who wrote before its queued opening went gets no follow-ups", async () => {
    const { query } = await start(seed(null, { followUps: { enabled: true } }), { funnel: { queueIntervalMs: 60 * SECOND } });
    const contacts = Array.from({ length: 4 }, (_, i) => ({ phone: `+1415555040${i}` }));
    await harness!.admin("POST", "/lists/lst_leads/contacts", { contacts });
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "+14155550403", toId: "t", body: "I saw your ad" } });
    await advance(5 * 60 * SECOND);
    await advance(30 * 24 * HOUR);
    const stored = (await get("/contacts?accountId=acc_gym")) as Array<{ id: string; phone: string }>;
    const sources = async (phone: string) => (await conversation(stored.find((c) => c.phone === phone)!.id)).map((m) => m.source);
    expect(await sources("+14155550403")).toEqual(["api_receive", "bot", "opening"]);
    expect((await sources("+14155550400")).filter((s) => s === "follow_up").length).toBeGreaterThan(0);
  });

  it("an admin debit below the threshold asks the agency too", async () => {
    const hooks = await receiver();
    await start({
      accounts: [
        {
          id: "acc_agency",
          kind: "agency",
          name: "Northwind",
          apiKey: AGENCY_KEY,
          autoRechargeUrl: hooks.url,
          subaccounts: [{ id: "sub_client", email: "client@northwind.example", credits: 50, autoRecharge: { threshold: 10, amount: 100 } }],
        },
      ],
    });
    await harness!.admin("POST", "/accounts/sub_client/credits", { amount: -45 });
    await settle();
    expect(hooks.received.map((r) => r.json.balance)).toEqual([5]);
  });
});

describe("the real clock", () => {
  it("waits out a timer longer than setTimeout can hold (24.8 days) instead of firing at once", async () => {
    const clock = realClock();
    let fired = 0;
    clock.setTimer(() => void fired++, 30 * 24 * HOUR);
    await new Promise((r) => setTimeout(r, 50));
    expect(fired).toBe(0);
    expect(clock.pending()).toBe(1);
  });
});
