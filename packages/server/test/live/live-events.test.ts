// GET /__admin/events over HTTPS (and through the fetch-style core): each event type caused through
// the public API and seen with its fields, the account filter, replay with Last-Event-ID, the bound
// on a reader that does not read, and the end of the stream when the server stops.
import { serve } from "@intake/server/node";
import { Agent } from "undici";
import {
  createAdminClient,
  createIntake,
  type AdminEvent,
  type AdminEventOf,
  type EventSubscription,
  type IntakeOptions,
  type ReceivedEvent,
  type Seed,
} from "@intake/server";
import { adminDocument } from "../../src/generated/admin-document.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { ADMIN_TOKEN, client, httpsTarget, startHarness, startMswHarness, type HttpsHarness } from "../support/harness.js";
import { startReceiver, type Receiver } from "../support/receiver.js";
import { KEYS, SEED } from "../support/seed.js";

const KEY_A = "ik_live_business_a_00000001";
const KEY_B = "ik_live_business_b_00000001";

let harness: HttpsHarness | undefined;
let receiver: Receiver | undefined;
const subscriptions: EventSubscription[] = [];
afterEach(async () => {
  while (subscriptions.length) subscriptions.pop()!.close();
  await harness?.close();
  harness = undefined;
  await receiver?.close();
  receiver = undefined;
});

function seed(webhookUrl: string | null): Seed {
  return {
    accounts: [
      {
        id: "acc_a",
        name: "A",
        apiKey: KEY_A,
        webhookUrl,
        credits: 100,
        campaigns: [
          {
            id: "cmp_a",
            name: "A funnel",
            state: "Live",
            openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
            triggerOnNewListContacts: true,
          },
        ],
        lists: [{ id: "lst_a", name: "A leads", campaignId: "cmp_a" }],
      },
      { id: "acc_b", name: "B", apiKey: KEY_B, credits: 100, lists: [{ id: "lst_b", name: "B leads" }] },
    ],
  };
}

/** Hands off when asked for a human, else replies. */
const bot: IntakeOptions["bot"] = ({ message }) =>
  message.body.includes("human") ? { handOff: { reason: "asked for a human" } } : { reply: "Sure." };

async function start(options: IntakeOptions = {}) {
  receiver = await startReceiver();
  harness = await startHarness({ seed: seed(receiver.url), clock: "virtual", bot, ...options });
  const target = httpsTarget(harness);
  const admin = createAdminClient({ adminUrl: harness.adminUrl, token: ADMIN_TOKEN, fetch: (request) => harness!.fetch(request) });
  return { h: harness, admin, a: client(target, "bearer", KEY_A), aq: client(target, "query", KEY_A), b: client(target, "bearer", KEY_B) };
}

/** Reads a subscription in the background; `waitFor` the first event that matches. */
function follow(subscription: EventSubscription) {
  subscriptions.push(subscription);
  const seen: ReceivedEvent[] = [];
  let wake = () => {};
  const done = (async () => {
    for await (const received of subscription) {
      seen.push(received);
      wake();
    }
  })();
  return {
    seen,
    done,
    types: () => seen.map((e) => e.event.type),
    async waitFor<T extends AdminEvent["type"]>(type: T, match: (event: AdminEventOf<T>) => boolean = () => true, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = seen.find((e) => e.event.type === type && match(e.event as AdminEventOf<T>));
        if (found) return found.event as AdminEventOf<T>;
        if (Date.now() > deadline) throw new Error(`No ${type} event came; saw ${seen.map((e) => e.event.type).join(", ") || "none"}.`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

/** The admin contract's AdminEvent schema, to check every event seen against. */
function eventSchema() {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "admin", components: adminDocument.components });
  const check = ajv.getSchema("admin#/components/schemas/AdminEvent")!;
  return (event: unknown) => (check(event) ? [] : check.errors);
}

describe("GET /__admin/events", () => {
  it("answers a text/event-stream, and needs the admin token", async () => {
    const { h } = await start();
    const denied = await h.fetch(`${h.adminUrl}/events`);
    expect(denied.status).toBe(401);
    const controller = new AbortController();
    const open = await h.fetch(`${h.adminUrl}/events`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, signal: controller.signal });
    expect(open.status).toBe(200);
    expect(open.headers.get("content-type")).toBe("text/event-stream");
    expect(open.headers.get("cache-control")).toBe("no-store");
    controller.abort();
  });

  it("sends each kind of happening, caused through the public API, with its fields", async () => {
    const { h, admin, a, aq } = await start();
    const live = follow(await admin.events());
    const valid = eventSchema();

    // A request answered, and the contact it created.
    const contact = await a.contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
    const created = await live.waitFor("contact.created", (e) => e.contactId === contact.id);
    expect(created.accountId).toBe("acc_a");
    const answered = await live.waitFor("request.answered", (e) => e.path === "/v1/contacts" && e.method === "POST");
    expect(answered).toMatchObject({ accountId: "acc_a", status: 201, code: null });
    expect(answered.requestId).toMatch(/^req_/);
    expect(answered.durationMs).toBeGreaterThanOrEqual(0);

    // An error answered carries its code; a request with no valid key has no account.
    const missing = await h.fetch(`${h.baseUrl}/contacts`, { headers: { authorization: "Bearer ik_test_nobody_000000000001" } });
    const refused = await live.waitFor("request.answered", (e) => e.requestId === missing.headers.get("x-request-id"));
    expect(refused).toMatchObject({ status: 401, accountId: null });
    expect(refused.code).toEqual(expect.any(String));

    // The funnel: a job queued for the opening message, run, and the message sent.
    await a.lists.addContact("lst_a", { contact_id: contact.id });
    const queued = await live.waitFor("job.queued", (e) => e.kind === "opening");
    expect(queued).toMatchObject({ accountId: "acc_a", contactId: contact.id });
    expect(Date.parse(queued.runAt)).not.toBeNaN();
    await admin.settle();
    await live.waitFor("job.ran", (e) => e.jobId === queued.jobId);
    expect(await live.waitFor("message.sent", (e) => e.kind === "opening")).toMatchObject({ accountId: "acc_a", contactId: contact.id });

    // A message received, the bot's outcome, its reply sent and delivered to the webhook.
    const inbound = await aq.messages.receive({ customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "a", body: "How much?" } });
    expect(await live.waitFor("message.received", (e) => e.messageId === inbound.messageId)).toMatchObject({
      accountId: "acc_a",
      contactId: contact.id,
    });
    await admin.settle();
    expect(await live.waitFor("bot.outcome", (e) => e.messageId === inbound.messageId)).toMatchObject({
      accountId: "acc_a",
      contactId: contact.id,
      outcome: "replied",
    });
    const reply = await live.waitFor("message.sent", (e) => e.kind === "bot");
    expect(await live.waitFor("delivery.attempted", (e) => e.messageId === reply.messageId)).toMatchObject({
      accountId: "acc_a",
      attempt: 1,
      status: 200,
      error: null,
      state: "delivered",
    });

    // A hand-off raises an alert.
    await aq.messages.receive({ customData: { messageSid: "SM-2", fromId: "+14155550123", toId: "a", body: "a human please" } });
    await admin.settle();
    expect(await live.waitFor("alert.raised")).toMatchObject({ accountId: "acc_a", contactId: contact.id });
    expect(await live.waitFor("bot.outcome", (e) => e.outcome === "handed_off")).toMatchObject({ contactId: contact.id });

    // The virtual clock advanced.
    const clock = await admin.advanceClock(60_000);
    expect(await live.waitFor("clock.advanced")).toMatchObject({ accountId: null, now: clock.now, at: clock.now });

    // Every event has the shape the admin contract gives it, ids increasing.
    for (const { event } of live.seen) expect(valid(event)).toEqual([]);
    const ids = live.seen.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("tells every change a dashboard page follows: accounts, campaigns, lists and members, contacts, messages, deliveries, credits, jobs, the inbox, a state replaced", async () => {
    const { admin, a, aq } = await start();
    const live = follow(await admin.events());
    const valid = eventSchema();

    // Settings: an account, a campaign and a list, created and changed; credits moved.
    const account = await admin.createAccount({ name: "C" });
    expect(await live.waitFor("account.created", (e) => e.accountId === account.id)).toMatchObject({ accountId: account.id });
    await admin.updateAccount("acc_a", { name: "A renamed" });
    await live.waitFor("account.updated", (e) => e.accountId === "acc_a");
    const campaign = await admin.createCampaign({ accountId: "acc_a", name: "Second" });
    expect(await live.waitFor("campaign.created")).toMatchObject({ accountId: "acc_a", campaignId: campaign.id });
    await admin.updateCampaign(campaign.id, { state: "Paused" });
    expect(await live.waitFor("campaign.updated")).toMatchObject({ campaignId: campaign.id });
    const list = await admin.createList({ accountId: "acc_a", name: "Second list" });
    expect(await live.waitFor("list.created")).toMatchObject({ accountId: "acc_a", listId: list.id });
    await admin.updateList(list.id, { name: "Renamed list" });
    expect(await live.waitFor("list.updated")).toMatchObject({ listId: list.id });
    await admin.adjustCredits("acc_a", 5);
    expect(await live.waitFor("credits.changed", (e) => e.amount === 5)).toMatchObject({ accountId: "acc_a", balance: 105 });

    // The funnel: the contact joins the list, gets its campaign, the opening charged, a follow-up queued.
    await admin.updateCampaign("cmp_a", { followUps: { enabled: true } });
    const contact = await a.contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
    await a.lists.addContact("lst_a", { contact_id: contact.id });
    expect(await live.waitFor("list.joined")).toMatchObject({ accountId: "acc_a", listId: "lst_a", contactId: contact.id, source: "api" });
    await admin.settle();
    expect(await live.waitFor("contact.updated", (e) => e.contactId === contact.id)).toMatchObject({ accountId: "acc_a" });
    const followUp = await live.waitFor("job.queued", (e) => e.kind === "follow_up");
    expect(await live.waitFor("credits.changed", (e) => e.amount === -1)).toMatchObject({ balance: 104 });

    // The lead answers: the follow-up is called off; the reply's delivery is queued, attempted, its message updated.
    await aq.messages.receive({ customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "a", body: "How much?" } });
    await admin.settle();
    expect(await live.waitFor("job.cancelled", (e) => e.jobId === followUp.jobId)).toMatchObject({ accountId: "acc_a", kind: "follow_up" });
    const queued = await live.waitFor("delivery.queued");
    expect(queued).toMatchObject({ accountId: "acc_a", state: "pending", messageId: expect.stringMatching(/^msg_/) });
    expect(await live.waitFor("message.updated", (e) => e.messageId === queued.messageId)).toMatchObject({
      contactId: contact.id,
      status: "sent",
    });

    // Nowhere to send a reply: its delivery ends with no attempt.
    await admin.updateAccount("acc_a", { webhookUrl: null });
    await admin.reply(contact.id, "A person here.");
    await admin.settle();
    expect(await live.waitFor("delivery.updated")).toMatchObject({ accountId: "acc_a", state: "failed" });

    // The inbox received a request.
    await admin.updateAccount("acc_a", { webhookUrl: "/__inbox/acc_a" });
    const test = await admin.sendTestWebhook("acc_a");
    expect(await live.waitFor("inbox.received")).toMatchObject({
      accountId: "acc_a",
      webhookId: test.webhookId,
      verified: true,
      status: 200,
    });

    // Openings queued at the safe rate, and a snapshot restored: they are moved, and the state was replaced.
    const imported = await admin.importContacts("lst_a", { contacts: [1, 2, 3, 4, 5].map((i) => ({ phone: `+1415555020${i}` })) });
    expect(imported).toMatchObject({ added: 5 });
    await live.waitFor("list.joined", (e) => e.source === "manual" || e.source === "import");
    await admin.restore(await admin.snapshot());
    expect(await live.waitFor("state.replaced")).toMatchObject({ accountId: null, cause: "restore" });
    expect(await live.waitFor("job.rescheduled")).toMatchObject({ accountId: "acc_a", kind: "opening" });
    await admin.reset();
    await live.waitFor("state.replaced", (e) => e.cause === "reset");

    for (const { event } of live.seen) expect(valid(event), event.type).toEqual([]);
  });

  it("leaves out the keys grants are remembered by: a keyed grant, its repeat and the key's expiry show as requests and credits", async () => {
    const { h, admin } = await start({ seed: SEED });
    const agency = client(httpsTarget(h), "header", KEYS.agency);
    const live = follow(await admin.events());
    // What happened inside, as code in the process hears it: the keys saved and expired.
    const inside: string[] = [];
    const stop = h.intake.events.subscribe((event) => inside.push(event.type));
    onTestFinished(stop);
    const grant = () => agency.subaccounts.grantCredits({ email: "one@northwind.example", amount: 10 }, { idempotencyKey: "rch_1" });
    await grant();
    // A repeat answers the first result and grants nothing.
    await grant();
    // A day on, the key is forgotten (expired when the next grant comes) and grants again.
    await admin.advanceClock(25 * 3600 * 1000);
    await grant();

    const events = () => live.seen.map((e) => e.event);
    const grants = () => events().filter((e) => e.type === "request.answered" && e.path === "/v1/subaccounts/credits");
    await vi.waitFor(() => expect(grants()).toHaveLength(3));
    expect(grants().map((e) => e.type === "request.answered" && e.status)).toEqual([200, 200, 200]);
    expect(events().flatMap((e) => (e.type === "credits.changed" && e.accountId === "sub_one" ? [e.amount] : []))).toEqual([10, 10]);
    expect(inside.filter((type) => type.startsWith("idempotency"))).toEqual([
      "idempotency.saved",
      "idempotency.expired",
      "idempotency.saved",
    ]);
    expect(live.types().filter((type) => type.startsWith("idempotency"))).toEqual([]);
  });

  it("durations are real milliseconds under a virtual clock: the journal, request.answered, webhook attempts", async () => {
    const { admin, a, aq } = await start();
    const live = follow(await admin.events());
    await a.contacts.create({ phone_number: "+14155550123" });
    const answered = await live.waitFor("request.answered", (e) => e.method === "POST");
    expect(answered.durationMs).toBeGreaterThan(0);
    const [entry] = await admin.journal({ operationId: "createContact" });
    expect(entry!.durationMs).toBeGreaterThan(0);
    expect(entry!.durationMs).toBe(answered.durationMs);
    // The clock did not move: the time is real time.
    expect(entry!.at).toBe((await admin.clock()).now);
    await aq.messages.receive({ customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "a", body: "hi" } });
    const delivery = await admin.waitForDelivery();
    expect(delivery.attempts[0]!.durationMs).toBeGreaterThan(0);
  });

  it("a failed webhook attempt says so, and the delivery's state after it", async () => {
    const { admin, aq } = await start({ webhooks: { maxAttempts: 2, jitter: 0 } });
    receiver!.answer(() => ({ status: 500, body: "down" }));
    const live = follow(await admin.events());
    await aq.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "a", body: "hi" } });
    await admin.settle();
    const first = await live.waitFor("delivery.attempted");
    expect(first).toMatchObject({ attempt: 1, status: 500, state: "pending" });
    expect(first.error).toContain("500");
    await admin.advanceClock(3_600_000);
    await admin.settle();
    expect(await live.waitFor("delivery.attempted", (e) => e.attempt === 2)).toMatchObject({
      status: 500,
      state: "failed",
      deliveryId: first.deliveryId,
    });
  });

  it("accountId keeps one account's events: not another's, nor those of no account", async () => {
    const { admin, a, b } = await start();
    const onlyA = follow(await admin.events({ accountId: "acc_a" }));
    const all = follow(await admin.events());
    await b.contacts.create({ email: "b@example.com" });
    await admin.advanceClock(1000);
    const mine = await a.contacts.create({ email: "a@example.com" });
    await onlyA.waitFor("request.answered", (e) => e.accountId === "acc_a");
    await onlyA.waitFor("contact.created", (e) => e.contactId === mine.id);
    await all.waitFor("request.answered", (e) => e.accountId === "acc_a");
    expect(all.seen.some((e) => e.event.accountId === "acc_b")).toBe(true);
    expect(all.types()).toContain("clock.advanced");
    expect(onlyA.seen.length).toBeGreaterThan(0);
    expect(onlyA.seen.every((e) => e.event.accountId === "acc_a")).toBe(true);
  });

  it("replays the events held after Last-Event-ID (or lastEventId), then goes on live", async () => {
    const { h, admin, a } = await start({ liveEvents: { replay: 3 } });
    const first = follow(await admin.events());
    await a.contacts.create({ email: "one@example.com" });
    const answered = await first.waitFor("request.answered");
    const mark = first.seen.find((e) => e.event === answered)!.id;
    first.seen.length = 0;
    for (const email of ["two@example.com", "three@example.com"]) await a.contacts.create({ email });
    await first.waitFor(
      "request.answered",
      (e) => e.status === 201 && first.seen.filter((s) => s.event.type === "request.answered").length === 2,
    );
    // Four events after the mark, the ring holds the last three: those are replayed, in order.
    const after = first.seen.map((e) => e.id);
    expect(after).toHaveLength(4);

    const resumed = follow(await admin.events({ lastEventId: mark }));
    await resumed.waitFor("request.answered", () => resumed.seen.length >= 3);
    expect(resumed.seen.map((e) => e.id)).toEqual(after.slice(1));
    await a.contacts.create({ email: "four@example.com" });
    await resumed.waitFor("contact.created", () => resumed.seen.length >= 4);
    expect(resumed.seen[3]!.id).toBe(after[3]! + 1);

    // The query form, for a reader that cannot set the header.
    const controller = new AbortController();
    const response = await h.fetch(`${h.adminUrl}/events?lastEventId=${after[2]}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let text = "";
    while (!text.includes(`id: ${after[3]! + 2}`)) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(new RegExp(`^id: ${after[3]}\\nevent: request.answered\\ndata: \\{`));
    controller.abort();

    const bad = await h.fetch(`${h.adminUrl}/events`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "last-event-id": "yesterday" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("VALIDATION_ERROR");
  });

  it("a reader that never reads is dropped once it is maxQueued behind, holding nothing more; the others go on", async () => {
    const intake = createIntake({ seed: seed(null), adminToken: ADMIN_TOKEN, liveEvents: { maxQueued: 50 } });
    try {
      const request = () => new Request("https://intake.test/__admin/events", { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const stuck = await intake.fetch(request());
      const reading = await intake.fetch(request());
      const reader = reading.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      const read = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += value;
        }
      })();
      const contacts = Array.from({ length: 200 }, (_, i) => ({ email: `c${i}@example.com` }));
      const imported = await intake.fetch(
        new Request("https://intake.test/__admin/lists/lst_b/contacts", {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({ contacts }),
        }),
      );
      expect(imported.status).toBe(200);
      // The reader that reads has every one of them.
      await expect.poll(() => text.match(/event: contact\.created/g)?.length ?? 0).toBe(200);
      // The one that never read was ended a second later: its stream failed, what it held was let go.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await expect(stuck.body!.getReader().read()).rejects.toThrow(/behind/);
      expect(text.match(/event: contact\.created/g)).toHaveLength(200);
      await intake.close();
      await read;
    } finally {
      await intake.close();
    }
  });

  it("over HTTPS, a subscriber that never reads holds up no other", async () => {
    const { h, admin } = await start();
    const controller = new AbortController();
    const stuck = await h.fetch(`${h.adminUrl}/events`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, signal: controller.signal });
    expect(stuck.status).toBe(200);
    const live = follow(await admin.events());
    const contacts = Array.from({ length: 300 }, (_, i) => ({ email: `c${i}@example.com` }));
    await admin.importContacts("lst_b", { contacts });
    await live.waitFor("contact.created", () => live.seen.filter((e) => e.event.type === "contact.created").length === 300);
    controller.abort();
  });

  it("is served through msw too", async () => {
    const msw = await startMswHarness({ seed: seed(null) });
    try {
      const admin = createAdminClient({ adminUrl: msw.adminUrl, token: ADMIN_TOKEN });
      const live = follow(await admin.events({ accountId: "acc_b" }));
      await msw.fetch(`${msw.baseUrl}/contacts`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY_B}`, "content-type": "application/json" },
        body: JSON.stringify({ email: "msw@example.com" }),
      });
      expect(await live.waitFor("request.answered")).toMatchObject({ accountId: "acc_b", status: 201, path: "/v1/contacts" });
      await msw.intake.close();
      await live.done;
    } finally {
      await msw.close();
    }
  });

  it("over HTTPS, a stream outlives the server's request timeouts and gets keep-alive comments when quiet", async () => {
    const intake = createIntake({ seed: seed(null), adminToken: ADMIN_TOKEN, clock: "virtual", liveEvents: { keepAliveMs: 100 } });
    const server = await serve(intake, { headersTimeoutMs: 200, requestTimeoutMs: 300 });
    const dispatcher = new Agent({ connect: { ca: server.certificate } });
    try {
      const response = await fetch(`${server.adminUrl}/events`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        dispatcher,
      } as RequestInit);
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      const read = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += value;
        }
      })();
      // Well past both timeouts, and the node server's check of them.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(text).toContain(": keep-alive\n\n");
      await fetch(`${server.adminUrl}/clock/advance`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
        body: '{"ms":5}',
        dispatcher,
      } as RequestInit);
      await expect.poll(() => text).toContain("event: clock.advanced");
      await server.close();
      await read;
    } finally {
      await server.close();
      await intake.close();
      await dispatcher.close();
    }
  });

  it("a server stop ends open streams, which end cleanly", async () => {
    const { h, admin } = await start();
    const live = follow(await admin.events());
    const stopped = h.server.close();
    await live.done;
    await stopped;
  });

  it("intake.close() ends open streams (the fetch-style core)", async () => {
    const intake = createIntake({ adminToken: ADMIN_TOKEN });
    const admin = createAdminClient({
      adminUrl: "https://intake.test/__admin",
      token: ADMIN_TOKEN,
      fetch: (request) => intake.fetch(request),
    });
    const live = follow(await admin.events());
    await intake.close();
    await live.done;
    // A subscription after the stop ends at once.
    const late = follow(await admin.events());
    await late.done;
  });

  it("refuses bounds that would spin or drop every reader", () => {
    expect(() => createIntake({ liveEvents: { keepAliveMs: 0 } })).toThrow(
      "liveEvents.keepAliveMs must be a whole number, 1 or more (got 0).",
    );
    expect(() => createIntake({ liveEvents: { maxQueued: 0.5 } })).toThrow(
      "liveEvents.maxQueued must be a whole number, 1 or more (got 0.5).",
    );
    expect(() => createIntake({ liveEvents: { replay: -1 } })).toThrow("liveEvents.replay must be a whole number, 0 or more (got -1).");
  });

  it("the typed client's subscription is refused with an AdminApiError, and ends when its signal aborts", async () => {
    const { h, admin, a } = await start();
    const wrong = createAdminClient({ adminUrl: h.adminUrl, token: "adm_wrong_token", fetch: (request) => h.fetch(request) });
    await expect(wrong.events()).rejects.toMatchObject({ name: "AdminApiError", status: 401 });
    await expect(admin.events({ lastEventId: -1 })).rejects.toMatchObject({ name: "AdminApiError", status: 400 });
    const stop = new AbortController();
    const live = follow(await admin.events({ signal: stop.signal }));
    const created = await a.contacts.create({ email: "signal@example.com" });
    await live.waitFor("contact.created", (e) => e.contactId === created.id);
    // As a fetch body read does: the loop ends with the AbortError.
    stop.abort();
    await expect(live.done).rejects.toMatchObject({ name: "AbortError" });
  });
});
