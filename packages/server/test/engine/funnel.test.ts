// The funnel: a lead added to a campaign's list gets its opening message, at once or queued,
// end to end over HTTPS with @intake/client, a real webhook receiver on 127.0.0.1 and a virtual
// clock, so every schedule is exact (test/support/engine.ts has the set-up).
import { describe, expect, it } from "vitest";
import {
  advance,
  closeServersAfterEach,
  conversation,
  get,
  harness,
  jobsOf,
  receiver,
  SECOND,
  SECRET,
  seed,
  settle,
  start,
  webhookSchema,
} from "../support/engine.js";

closeServersAfterEach();

describe("the funnel, end to end", () => {
  it("lead created -> added to the list -> opening message -> lead replies -> bot reply delivered, signed -> Sent", async () => {
    const hooks = await receiver();
    const { bearer, query } = await start(seed(hooks.url));

    const lead =
      (await bearer.contacts.find({ phoneNumber: "+14155550123" })) ??
      (await bearer.contacts.create({ phone_number: "+14155550123", first_name: "Ada" }));
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
    const inbound = await query.messages.receive({
      customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "acme", body: "How much is a membership?", channel: "acme-chat" },
    });
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
    expect(call!.json).toEqual({
      contactId: lead.id,
      messageId: reply.id,
      userId: "usr_gym_owner",
      body: reply.body,
      toId: "+14155550123",
      channel: "acme-chat",
    });
    expect(webhookSchema("ReplyWebhookPayload")(call!.json)).toEqual([]);
    expect(() => hooks.verify(call!, SECRET)).not.toThrow();
    expect(() => hooks.verify(call!, "whsec_V3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==")).toThrow();
    expect(call!.headers["webhook-id"]).toBe(reply.id);

    const [delivery] = await get(`/deliveries?messageId=${reply.id}`);
    expect(delivery).toMatchObject({
      kind: "reply",
      state: "delivered",
      attempts: [{ number: 1, status: 200, error: null, nextAttemptAt: null }],
    });
    // 1 credit for the first message (the opening), 1 for the bot reply.
    expect((await get("/accounts/acc_gym/credits")).balance).toBe(98);
  });

  it("nothing is delivered for received messages themselves, and the first bot reply to a new sender introduces the business", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url));
    await query.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-7", toId: "acme", body: "hello", firstName: "Grace" } });
    await settle();
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]!.json.body).toBe(
      "Hi Grace, thanks for your message! Acme Fitness runs three gyms downtown. Can I help you book a free trial class?",
    );
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
    const first = await query.messages.receive({
      customData: { messageSid: "SM-1", fromId: "user-7", toId: "acme", body: "How much is a membership?" },
    });
    await settle();
    const again = await query.messages.receive({
      customData: { messageSid: "SM-1", fromId: "user-7", toId: "acme", body: "How much is a membership?" },
    });
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
    s.accounts![0]!.campaigns!.push({
      id: "cmp_other",
      name: "Other",
      state: "Live",
      faqs: [{ question: "Where are you?", answer: "Downtown." }],
    });
    const { query } = await start(s);
    await query.messages.receive({
      customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "Where are you?", campaignId: "cmp_other" },
    });
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
    const reaction = await query.messages.receive({
      messageType: "reaction",
      customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "👍", reactionTo: "msg_x" },
    });
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

describe("opening messages", () => {
  it("10 contacts imported at once are queued and drained at the configured rate, exactly", async () => {
    const { bearer } = await start(seed(null), { funnel: { queueIntervalMs: 15 * SECOND } });
    const t0 = Date.parse((await get("/clock")).now);
    const contacts = Array.from({ length: 10 }, (_, i) => ({
      phone: `+1415555${String(100 + i).padStart(4, "0")}`,
      firstName: `Lead${i}`,
    }));
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
    expect((await conversation(noPhone.id))[0]).toMatchObject({
      status: "not_sent",
      error: "The contact has no phone number to reach on messaging_app.",
    });
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
