// The conversation and funnel engine, end to end over HTTPS with @intake/client, a real webhook
// receiver on 127.0.0.1 and a virtual clock, so every schedule is exact.
import { realClock, type IntakeOptions, type Seed } from "@intake/server";
import { document } from "@intake/spec";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { startReceiver, type Receiver } from "../support/receiver.js";

const KEY = "ik_engine_business_000000001";
const AGENCY_KEY = "ik_engine_agency_0000000001";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const AGENCY_SECRET = "whsec_C2VjcmV0LWZvci10aGUtYWdlbmN5LTAx";
const SECOND = 1000;

/** The contract's schema for an outgoing webhook's body. */
function webhookSchema(name: "ReplyWebhookPayload" | "AutoRechargeWebhookPayload") {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "intake", components: document.components });
  return (body: unknown) => {
    const check = ajv.getSchema(`intake#/components/schemas/${name}`)!;
    return check(body) ? [] : check.errors;
  };
}
const HOUR = 3_600_000;

let harness: HttpsHarness | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  while (receivers.length) await receivers.pop()!.close();
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

type CampaignSeed = NonNullable<NonNullable<Seed["accounts"]>[number]["campaigns"]>[number];

function seed(webhookUrl: string | null, campaign: Partial<CampaignSeed> = {}, credits = 100): Seed {
  return {
    accounts: [
      {
        id: "acc_gym",
        name: "Acme Fitness",
        userId: "usr_gym_owner",
        apiKey: KEY,
        webhookUrl,
        webhookSecret: SECRET,
        credits,
        campaigns: [
          {
            id: "cmp_spring",
            name: "Spring funnel",
            type: "Combined",
            state: "Live",
            companyInfo: "Acme Fitness runs three gyms downtown.",
            goal: "Book a free trial class.",
            faqs: [{ question: "How much is a membership?", answer: "Memberships start at 29 dollars a month." }],
            openingTemplate: { body: "Hi {{firstName}}, thanks for your interest! Want a free trial class?", approval: "approved" },
            triggerOnNewListContacts: true,
            ...campaign,
          },
        ],
        lists: [{ id: "lst_leads", name: "Spring leads", campaignId: "cmp_spring" }],
      },
    ],
  };
}

async function start(s: Seed, options: IntakeOptions = {}) {
  harness = await startHarness({ seed: s, clock: "virtual", ...options });
  const target = httpsTarget(harness);
  return { h: harness, query: client(target, "query", KEY), bearer: client(target, "bearer", KEY), agency: client(target, "header", AGENCY_KEY) };
}

const settle = () => harness!.admin("POST", "/settle");
const advance = async (ms: number) => (await harness!.admin("POST", "/clock/advance", { ms })).body;
const get = async (path: string) => (await harness!.admin("GET", path)).body;
const conversation = async (contactId: string) => (await get(`/contacts/${contactId}`)).messages as Array<Record<string, any>>;
/** The scheduler's stored jobs of one kind. */
const jobsOf = async (kind: string) => ((await get("/jobs")) as Array<{ kind: string; runAt: string }>).filter((j) => j.kind === kind);

describe("the funnel, end to end", () => {
  it("lead created -> added to the list -> opening message -> lead replies -> bot reply delivered, signed -> Sent", async () => {
    const hooks = await receiver();
    const { bearer, query } = await start(seed(hooks.url));

    const lead = (await bearer.contacts.find({ phoneNumber: "+14155550123" })) ?? (await bearer.contacts.create({ phone_number: "+14155550123", first_name: "Ada" }));
    await bearer.lists.addContact("lst_leads", { contact_id: lead.id });
    await settle();
    const [opening] = await conversation(lead.id);
    expect(opening).toMatchObject({
      direction: "outbound",
      source: "opening",
      channel: "messaging_app",
      status: "sent",
      toId: "+14155550123",
      body: "Hi Ada, thanks for your interest! Want a free trial class?",
      campaignId: "cmp_spring",
    });
    expect(hooks.received).toHaveLength(0);

    // The lead answers on the custom channel, as their phone number.
    const inbound = await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "acme", body: "How much is a membership?", channel: "acme-chat" } });
    await settle();
    const messages = await conversation(lead.id);
    expect(messages.map((m) => [m.direction, m.source, m.status])).toEqual([
      ["outbound", "opening", "sent"],
      ["inbound", "api_receive", "received"],
      ["outbound", "bot", "sent"],
    ]);
    expect(messages[1]).toMatchObject({ id: inbound.messageId, botOutcome: "replied" });
    const reply = messages[2]!;
    expect(reply.body).toBe("Memberships start at 29 dollars a month.");

    expect(hooks.received).toHaveLength(1);
    const [call] = hooks.received;
    expect([call!.method, call!.headers["content-type"]]).toEqual(["POST", "application/json"]);
    expect(call!.json).toEqual({ contactId: lead.id, messageId: reply.id, userId: "usr_gym_owner", body: reply.body, toId: "+14155550123", channel: "acme-chat" });
    expect(webhookSchema("ReplyWebhookPayload")(call!.json)).toEqual([]);
    expect(() => hooks.verify(call!, SECRET)).not.toThrow();
    expect(() => hooks.verify(call!, "whsec_V3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==")).toThrow();
    expect(call!.headers["webhook-id"]).toBe(reply.id);

    const [delivery] = await get(`/deliveries?messageId=${reply.id}`);
    expect(delivery).toMatchObject({ kind: "reply", state: "delivered", attempts: [{ number: 1, status: 200, error: null, nextAttemptAt: null }] });
    // 1 credit for the first message (the opening), 1 for the bot reply.
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(98);
  });

  it("nothing is delivered for received messages themselves, and the first bot reply to a new sender introduces the business", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-7", toId: "acme", body: "hello", firstName: "Grace" } });
    await settle();
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]!.json.body).toBe("Hi Grace, thanks for your message! Acme Fitness runs three gyms downtown. Can I help you book a free trial class?");
    expect(hooks.received[0]!.json.channel).toBe("custom");
    await query.messages.receive({ customData: { messageSid: "SM-2", fromId: "user-7", toId: "acme", body: "maybe later" } });
    await settle();
    expect(hooks.received[1]!.json.body).toBe("Thanks Grace! Shall we book a free trial class?");
    // The first message costs 1, each bot reply 1.
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(97);
  });

  it("a messageSid sent again is answered, delivered and charged once", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url));
    const first = await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-7", toId: "acme", body: "How much is a membership?" } });
    await settle();
    const again = await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-7", toId: "acme", body: "How much is a membership?" } });
    await settle();
    expect(again).toEqual({ success: true, messageId: first.messageId, duplicate: true });
    expect(hooks.received.map((r) => r.json.body)).toEqual(["Memberships start at 29 dollars a month."]);
    const { contactId } = await get(`/messages/${first.messageId}`);
    expect((await conversation(contactId)).map((m) => [m.direction, m.source])).toEqual([
      ["inbound", "api_receive"],
      ["outbound", "bot"],
    ]);
    // The first message and one bot reply.
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(98);
  });

  it("routes by campaignId, else the contact's campaign, else the account's default", async () => {
    const hooks = await receiver();
    const s = seed(hooks.url);
    s.accounts![0]!.campaigns!.push({ id: "cmp_other", name: "Other", state: "Live", faqs: [{ question: "Where are you?", answer: "Downtown." }] });
    const { query } = await start(s);
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "Where are you?", campaignId: "cmp_other" } });
    await query.messages.receive({ customData: { messageSid: "SM-2", fromId: "u2", toId: "t", body: "Where are you?" } });
    await settle();
    // u1 now belongs to cmp_other's conversation; u2 went to the default, the first campaign.
    await query.messages.receive({ customData: { messageSid: "SM-3", fromId: "u1", toId: "t", body: "Where are you?" } });
    await settle();
    const byRecipient = (toId: string) => hooks.received.filter((r) => r.json.toId === toId).map((r) => r.json.body);
    expect(byRecipient("u1")).toEqual(["Downtown.", "Downtown."]);
    expect(byRecipient("u2")).toEqual([expect.stringMatching(/^Hi, thanks for your message! Acme Fitness/)]);
  });

  it("a reaction gets no bot reply", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url));
    const reaction = await query.messages.receive({ messageType: "reaction", customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "👍", reactionTo: "msg_x" } });
    await settle();
    expect(hooks.received).toHaveLength(0);
    expect((await get(`/messages/${reaction.messageId}`)).botOutcome).toBe("reaction");
  });

  it.each([
    [{ state: "Paused" as const }, "campaign_not_live"],
    [{ type: "Outgoing" as const }, "outgoing_campaign"],
    [{ botActive: false }, "bot_inactive"],
  ])("no bot reply when the campaign is %o: outcome %s", async (campaign, outcome) => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url, campaign));
    const sent = await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    expect(hooks.received).toHaveLength(0);
    expect((await get(`/messages/${sent.messageId}`)).botOutcome).toBe(outcome);
  });
});

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
    expect(failed.attempts.map((a: { startedAt: string }) => Date.parse(a.startedAt) - t0)).toEqual([0, 5 * SECOND, 25 * SECOND, 105 * SECOND]);
    expect(failed).toMatchObject({ state: "failed", lastError: "Failed after 4 attempts; the last: HTTP 500: receiver is down" });
    expect(failed.attempts.at(-1).nextAttemptAt).toBeNull();
    expect(new Set(hooks.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([failed.webhookId]));
    // Each attempt shows the signed headers that the receiver got from it, which verify.
    expect(failed.attempts.map((a: { webhookTimestamp: number; webhookSignature: string }) => [String(a.webhookTimestamp), a.webhookSignature])).toEqual(
      hooks.received.map((r) => [r.headers["webhook-timestamp"], r.headers["webhook-signature"]]),
    );
    for (const call of hooks.received) expect(() => hooks.verify(call, SECRET)).not.toThrow();
    expect(await get(`/messages/${failed.messageId}`)).toMatchObject({ status: "failed", error: "Failed after 4 attempts; the last: HTTP 500: receiver is down" });
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
    expect((await get("/deliveries"))[0]).toMatchObject({ state: "failed", attempts: [{ status: null, error: "No answer within 100 ms." }] });
    const closed = await receiver();
    await closed.close();
    receivers.pop();
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
    await Promise.all(Array.from({ length: 8 }, (_, i) => query.messages.receive({ customData: { messageSid: `SM-${i}`, fromId: `u${i}`, toId: "t", body: "hi" } })));
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
      { contactId: contact.id, messageId: typed.body.id, userId: "usr_gym_owner", body: "Hi, this is Sam from Acme.", toId: "user-9", channel: "acme-chat" },
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

describe("the bot", () => {
  it("a hand-off phrase raises a team alert and pauses the bot for that contact, until resumed", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url));
    const first = await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "Can I talk to a human please?" } });
    await settle();
    const message = await get(`/messages/${first.messageId}`);
    expect(message.botOutcome).toBe("handed_off");
    const alerts = await get("/alerts?accountId=acc_gym");
    expect(alerts).toEqual([
      expect.objectContaining({ contactId: message.contactId, contact: { id: message.contactId, name: "u1" }, messageId: first.messageId, reason: 'The contact asked for a person ("talk to a human").' }),
    ]);
    // A snapshot holding the alert restores it as it was (the stored alert has no display name of its own).
    const snapshot = await get("/snapshot");
    expect((await harness!.admin("PUT", "/snapshot", snapshot)).status).toBe(200);
    expect(await get("/alerts?accountId=acc_gym")).toEqual(alerts);
    expect(hooks.received.map((r) => r.json.body)).toEqual(["Of course: I've asked a member of our team to take over, and they will reply here shortly."]);
    expect((await get(`/contacts/${message.contactId}`)).contact.botPaused).toBe(true);

    const second = await query.messages.receive({ customData: { messageSid: "SM-2", fromId: "u1", toId: "t", body: "hello?" } });
    await settle();
    expect((await get(`/messages/${second.messageId}`)).botOutcome).toBe("contact_paused");
    expect(hooks.received).toHaveLength(1);

    await harness!.admin("PATCH", `/contacts/${message.contactId}`, { botPaused: false });
    await query.messages.receive({ customData: { messageSid: "SM-3", fromId: "u1", toId: "t", body: "How much is a membership?" } });
    await settle();
    expect(hooks.received.at(-1)!.json.body).toBe("Memberships start at 29 dollars a month.");
  });

  it("is pluggable: the bot option answers instead, and a bot that throws is recorded", async () => {
    const hooks = await receiver();
    const seen: unknown[] = [];
    const { query } = await start(seed(hooks.url), {
      bot: ({ message, conversation, contact, campaign }) => {
        seen.push({ body: message.body, turns: conversation.length, contact: contact.fromId, campaign: campaign.id });
        if (message.body === "boom") throw new Error("model unavailable");
        return { reply: `echo: ${message.body}` };
      },
      onError: () => {},
    });
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hello" } });
    const broken = await query.messages.receive({ customData: { messageSid: "SM-2", fromId: "u1", toId: "t", body: "boom" } });
    await settle();
    expect(hooks.received.map((r) => r.json.body)).toEqual(["echo: hello"]);
    expect(seen).toEqual([
      { body: "hello", turns: 1, contact: "u1", campaign: "cmp_spring" },
      { body: "boom", turns: 3, contact: "u1", campaign: "cmp_spring" },
    ]);
    expect((await get(`/messages/${broken.messageId}`)).botOutcome).toBe("bot_error");
  });

  it("a bot that answers after its campaign left Live, or its bot was turned off, sends nothing", async () => {
    const hooks = await receiver();
    const asked: Array<() => void> = [];
    const { query } = await start(seed(hooks.url), {
      bot: ({ message }) => new Promise((resolve) => asked.push(() => resolve({ reply: `late answer to ${message.body}` }))),
    });
    const answered = async (body: string, change: Record<string, unknown>) => {
      await harness!.admin("PATCH", "/campaigns/cmp_spring", { state: "Live", botActive: true });
      const sent = await query.messages.receive({ customData: { messageSid: `SM-${body}`, fromId: `u-${body}`, toId: "t", body } });
      await expect.poll(() => asked.length).toBe(1);
      await harness!.admin("PATCH", "/campaigns/cmp_spring", change);
      asked.pop()!();
      await settle();
      return (await get(`/messages/${sent.messageId}`)).botOutcome;
    };
    expect(await answered("paused", { state: "Paused" })).toBe("campaign_not_live");
    expect(await answered("off", { botActive: false })).toBe("bot_inactive");
    expect(await answered("on", {})).toBe("replied");
    expect(hooks.received.map((r) => r.json.body)).toEqual(["late answer to on"]);
    const balance = (await get("/accounts/acc_gym/credits")).balance;
    expect(balance).toBe(98);
  });

  it("stops when the account has no credits, and says why", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url, {}, 1));
    const sent = await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    // A first bot reply costs 2 (first message + reply); the account has 1.
    expect((await get(`/messages/${sent.messageId}`)).botOutcome).toBe("no_credits");
    expect(hooks.received).toHaveLength(0);
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(1);
  });
});

describe("opening messages", () => {
  it("10 contacts imported at once are queued and drained at the configured rate, exactly", async () => {
    const { bearer } = await start(seed(null), { funnel: { queueIntervalMs: 15 * SECOND } });
    const t0 = Date.parse((await get("/clock")).now);
    const contacts = Array.from({ length: 10 }, (_, i) => ({ phone: `+1415555${String(100 + i).padStart(4, "0")}`, firstName: `Lead${i}` }));
    const imported = await harness!.admin("POST", "/lists/lst_leads/contacts", { contacts });
    expect(imported.body.added).toBe(10);
    await settle();
    const openings = async () => (await get("/messages?accountId=acc_gym")).filter((m: { source: string }) => m.source === "opening");
    expect((await openings()).map((m: { status: string }) => m.status)).toEqual(["sent"]);
    const scheduled = await jobsOf("opening");
    expect(scheduled.map((j) => (Date.parse(j.runAt) - t0) / SECOND)).toEqual([15, 30, 45, 60, 75, 90, 105, 120, 135]);
    await advance(44 * SECOND);
    expect(await openings()).toHaveLength(3);
    await advance(SECOND);
    expect(await openings()).toHaveLength(4);
    await advance(90 * SECOND);
    const sent = await openings();
    expect(sent.map((m: { status: string }) => m.status)).toEqual(Array(10).fill("sent"));
    expect(sent.map((m: { body: string }) => m.body)[9]).toBe("Hi Lead9, thanks for your interest! Want a free trial class?");
    // Each was a first message: 1 credit apiece, charged as it went.
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(90);
    void bearer;
  });

  it("by default the queue sends one opening per campaign every 10 seconds", async () => {
    await start(seed(null));
    const t0 = Date.parse((await get("/clock")).now);
    const contacts = Array.from({ length: 4 }, (_, i) => ({ phone: `+1415555${String(500 + i).padStart(4, "0")}` }));
    await harness!.admin("POST", "/lists/lst_leads/contacts", { contacts });
    await settle();
    expect((await jobsOf("opening")).map((j) => (Date.parse(j.runAt) - t0) / SECOND)).toEqual([10, 20, 30]);
  });

  it("1 to 3 added at once are sent at once; through the API, a burst's fourth add onward is queued", async () => {
    const { bearer } = await start(seed(null), { funnel: { queueIntervalMs: 10 * SECOND } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const contact = await bearer.contacts.create({ phone_number: `+1415555${String(200 + i).padStart(4, "0")}` });
      await bearer.lists.addContact("lst_leads", { contact_id: contact.id });
      ids.push(contact.id);
    }
    await settle();
    const statuses = async () => (await Promise.all(ids.map(conversation))).map((m) => m[0]?.status ?? "waiting");
    // The 4th is queued in the first slot (now), the 5th one interval later.
    expect(await statuses()).toEqual(["sent", "sent", "sent", "sent", "waiting"]);
    await advance(10 * SECOND - 1);
    expect(await statuses()).toEqual(["sent", "sent", "sent", "sent", "waiting"]);
    await advance(1);
    expect(await statuses()).toEqual(["sent", "sent", "sent", "sent", "sent"]);
    // Outside the burst window, adds are "at once" again.
    await advance(60 * SECOND);
    const later = await bearer.contacts.create({ phone_number: "+14155550999" });
    await bearer.lists.addContact("lst_leads", { contact_id: later.id });
    await settle();
    expect((await conversation(later.id))[0]!.status).toBe("sent");
  });

  it("a campaign that leaves Live stops at once: queued openings are not sent, with the reason, and go again only for new adds once Live", async () => {
    const { bearer } = await start(seed(null), { funnel: { queueIntervalMs: 10 * SECOND } });
    const contacts = Array.from({ length: 5 }, (_, i) => ({ phone: `+1415555${String(300 + i).padStart(4, "0")}` }));
    await harness!.admin("POST", "/lists/lst_leads/contacts", { contacts });
    await settle();
    await harness!.admin("PATCH", "/campaigns/cmp_spring", { state: "Paused" });
    await advance(60 * SECOND);
    const openings = (await get("/messages?accountId=acc_gym")).filter((m: { source: string }) => m.source === "opening");
    expect(openings.map((m: { status: string; error: string | null }) => [m.status, m.error])).toEqual([
      ["sent", null],
      ...Array(4).fill(["not_sent", "The campaign is Paused; only a Live campaign sends."]),
    ]);
    // Any state may follow any other: Paused -> Completed -> Live.
    expect((await harness!.admin("PATCH", "/campaigns/cmp_spring", { state: "Completed" })).status).toBe(200);
    expect((await harness!.admin("PATCH", "/campaigns/cmp_spring", { state: "Live" })).status).toBe(200);
    const later = await bearer.contacts.create({ phone_number: "+14155550999" });
    await bearer.lists.addContact("lst_leads", { contact_id: later.id });
    await settle();
    expect((await conversation(later.id))[0]!.status).toBe("sent");
  });

  it("is not sent, with the reason kept, when the template is not approved or the contact has no phone", async () => {
    const { bearer } = await start(seed(null, { openingTemplate: { body: "Hi {{firstName}}", approval: "submitted" } }));
    const contact = await bearer.contacts.create({ phone_number: "+14155550123" });
    await bearer.lists.addContact("lst_leads", { contact_id: contact.id });
    const noPhone = await bearer.contacts.create({ email: "nophone@example.com" });
    await harness!.admin("PATCH", "/campaigns/cmp_spring", { openingTemplate: { body: "Hi {{firstName}}", approval: "approved" } });
    await bearer.lists.addContact("lst_leads", { contact_id: noPhone.id });
    await settle();
    expect((await conversation(contact.id))[0]).toMatchObject({
      status: "not_sent",
      error: "The opening template is submitted, not approved: a template is sent only once the messaging channel approves it.",
    });
    expect((await conversation(noPhone.id))[0]).toMatchObject({ status: "not_sent", error: "The contact has no phone number to reach on messaging_app." });
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(100);
  });

  it("the trigger does not fire for a campaign that is not Live or has the toggle off", async () => {
    const { bearer } = await start(seed(null, { state: "Draft" }));
    const contact = await bearer.contacts.create({ phone_number: "+14155550123" });
    await bearer.lists.addContact("lst_leads", { contact_id: contact.id });
    await harness!.admin("PATCH", "/campaigns/cmp_spring", { state: "Live", triggerOnNewListContacts: false });
    const second = await bearer.contacts.create({ phone_number: "+14155550124" });
    await bearer.lists.addContact("lst_leads", { contact_id: second.id });
    await settle();
    expect(await conversation(contact.id)).toEqual([]);
    expect(await conversation(second.id)).toEqual([]);
  });

  it("queued openings are not sent, with the reason, once the campaign turns Incoming or its trigger off", async () => {
    const { h } = await start(seed(null), { funnel: { queueIntervalMs: 10 * SECOND } });
    const contacts = Array.from({ length: 8 }, (_, i) => ({ phone: `+1415555${String(400 + i).padStart(4, "0")}` }));
    await h.admin("POST", "/lists/lst_leads/contacts", { contacts });
    await settle();
    expect((await jobsOf("opening")).length).toBe(7);
    await h.admin("PATCH", "/campaigns/cmp_spring", { triggerOnNewListContacts: false });
    await advance(25 * SECOND);
    await h.admin("PATCH", "/campaigns/cmp_spring", { triggerOnNewListContacts: true, type: "Incoming" });
    await advance(60 * SECOND);
    const openings = (await get("/messages?accountId=acc_gym")).filter((m: { source: string }) => m.source === "opening");
    expect(openings.map((m: { status: string; error: string | null }) => [m.status, m.error])).toEqual([
      ["sent", null],
      ...Array(2).fill(["not_sent", "The campaign's Trigger on New Contacts Added to List is off."]),
      ...Array(5).fill(["not_sent", "The campaign is Incoming; it sends no opening messages."]),
    ]);
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(99);
  });

  it("fires for manual adds as for API adds, and a contact gets a campaign's opening message once", async () => {
    const s = seed(null);
    s.accounts![0]!.lists!.push({ id: "lst_second", name: "Second list", campaignId: "cmp_spring" });
    const { bearer } = await start(s);
    const contact = await bearer.contacts.create({ phone_number: "+14155550123" });
    await harness!.admin("POST", "/lists/lst_leads/contacts", { source: "manual", contactIds: [contact.id] });
    await bearer.lists.addContact("lst_second", { contact_id: contact.id });
    await settle();
    expect((await conversation(contact.id)).map((m) => [m.status, m.error])).toEqual([
      ["sent", null],
      ["not_sent", "The contact has already received this campaign's opening message."],
    ]);
  });

  it("is not sent when the account has no credits left", async () => {
    const { bearer } = await start(seed(null, {}, 0));
    const contact = await bearer.contacts.create({ phone_number: "+14155550123" });
    await bearer.lists.addContact("lst_leads", { contact_id: contact.id });
    await settle();
    expect((await conversation(contact.id))[0]).toMatchObject({ status: "not_sent", error: "The account has no credits left." });
  });
});

describe("follow-ups", () => {
  it("fire after 24 h, 72 h and 7 days of quiet, and a reply cancels the rest", async () => {
    const hooks = await receiver();
    const { bearer, query } = await start(
      seed(hooks.url, { followUps: { enabled: true, cycles: 2, messagesPerCycle: 3, messages: ["Still keen, {{firstName}}?", "Last call for the spring offer!"] } }),
    );
    const lead = await bearer.contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
    await bearer.lists.addContact("lst_leads", { contact_id: lead.id });
    await settle();
    const followUps = async () => (await conversation(lead.id)).filter((m) => m.source === "follow_up");
    await advance(24 * HOUR - 1);
    expect(await followUps()).toHaveLength(0);
    await advance(1);
    expect((await followUps()).map((m) => [m.body, m.channel, m.status])).toEqual([["Still keen, Ada?", "messaging_app", "sent"]]);
    await advance(72 * HOUR);
    expect((await followUps()).map((m) => m.body)).toEqual(["Still keen, Ada?", "Last call for the spring offer!"]);
    await advance(168 * HOUR);
    expect(await followUps()).toHaveLength(3);
    await advance(24 * HOUR);
    expect(await followUps()).toHaveLength(4);

    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "t", body: "Yes, I'm in" } });
    await settle();
    expect(await jobsOf("follow_up")).toEqual([]);
    await advance(60 * 24 * HOUR);
    expect(await followUps()).toHaveLength(4);
  });

  it.each([
    ["is not Live", { state: "Paused" }, { state: "Live" }],
    ["has become Incoming", { type: "Incoming" }, { type: "Combined" }],
  ])("one that falls due while the campaign %s is dropped with the rest: none is sent then, nor after it sends again", async (_, stop, resume) => {
    const { bearer } = await start(seed(null, { followUps: { enabled: true, cycles: 1, messagesPerCycle: 3, delaysHours: [1, 2, 3] } }));
    const lead = await bearer.contacts.create({ phone_number: "+14155550123" });
    await bearer.lists.addContact("lst_leads", { contact_id: lead.id });
    await settle();
    const followUps = async () => (await conversation(lead.id)).filter((m) => m.source === "follow_up");
    expect(await jobsOf("follow_up")).toHaveLength(1);
    await harness!.admin("PATCH", "/campaigns/cmp_spring", stop);
    await advance(1 * HOUR);
    expect(await followUps()).toEqual([]);
    expect(await jobsOf("follow_up")).toEqual([]);
    await harness!.admin("PATCH", "/campaigns/cmp_spring", resume);
    await advance(30 * 24 * HOUR);
    expect(await followUps()).toEqual([]);
  });

  it("stop after the campaign's cycles", async () => {
    const { bearer } = await start(seed(null, { followUps: { enabled: true, cycles: 1, messagesPerCycle: 2, delaysHours: [1, 2] } }));
    const lead = await bearer.contacts.create({ phone_number: "+14155550123" });
    await bearer.lists.addContact("lst_leads", { contact_id: lead.id });
    await settle();
    await advance(30 * 24 * HOUR);
    const followUps = (await conversation(lead.id)).filter((m) => m.source === "follow_up");
    expect(followUps.map((m) => m.body)).toEqual([
      "Hi there, just checking in on my last message: are you still interested?",
      "Hi there, just checking in on my last message: are you still interested?",
    ]);
  });
});

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
    expect(request!.json).toEqual({ idempotency_key: expect.stringMatching(/^rch_/), sub_account_id: "sub_client", email: "client@northwind.example", amount: 500, balance: 9, threshold: 10 });
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
    for (const sid of ["SM-1", "SM-2"]) await query.messages.receive({ customData: { messageSid: sid, fromId: "u1", toId: "t", body: "hi" } });
    await settle();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[0]!.json).toEqual(hooks.received[1]!.json);
    expect(hooks.received[0]!.headers["webhook-id"]).not.toBe(hooks.received[1]!.headers["webhook-id"]);
    expect((await get("/deliveries?kind=auto_recharge")).map((d: { state: string }) => d.state)).toEqual(["delivered", "delivered"]);
  });
});

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
    for (const [sid, body] of [["SM-1", "Can I talk to a human please?"], ["SM-2", "hello?"], ["SM-3", "anyone?"]] as const) sent.push(await send(sid, body));
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
    expect({ deliveries: records.delivery, attempts: records.deliveryAttempt, jobs: records.job }).toEqual({ deliveries: [], attempts: [], jobs: [] });
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
    for (let i = 0; i < 5; i++) await query.messages.receive({ customData: { messageSid: `SM-${i}`, fromId: `u${i}`, toId: "t", body: "hi" } });
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
    s.accounts!.push({ id: "acc_two", name: "Two", apiKey: "ik_engine_second_0000000001", webhookUrl: otherPath, credits: 10, campaigns: [{ name: "C", state: "Live" }] });
    await harness!.close();
    harness = undefined;
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
