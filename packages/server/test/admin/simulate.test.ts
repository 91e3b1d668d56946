// The studio's actions through the admin API over HTTPS: a contact made by hand (POST
// /__admin/contacts, POST /v1/contacts's rules), a message from a contact simulated on its custom
// channel (the receive endpoint's processing) or on a built-in one (the bot answers there, with no
// webhook), a test webhook; and the names a person reads on deliveries, alerts and jobs.
import { createAdminClient, type IntakeOptions, type Seed } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { startReceiver, type Receiver } from "../support/receiver.js";

const KEY = "ik_simulate_business_00000001";
const SECRET = "whsec_c2ltdWxhdGUtdGVzdC1zZWNyZXQtMDE=";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function seed(webhookUrl: string | null = "/__inbox/acc_a"): Seed {
  return {
    accounts: [
      {
        id: "acc_a",
        name: "A",
        apiKey: KEY,
        webhookUrl,
        webhookSecret: SECRET,
        credits: 100,
        defaultCampaignId: "cmp_a",
        campaigns: [
          {
            id: "cmp_a",
            name: "A funnel",
            state: "Live",
            channel: "sms",
            faqs: [{ question: "How much is a class?", answer: "18 dollars." }],
            handOffPhrases: ["a person"],
            openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
            triggerOnNewListContacts: true,
            followUps: { enabled: true, delaysHours: [24] },
          },
        ],
        lists: [{ id: "lst_a", name: "A leads", campaignId: "cmp_a" }],
        contacts: [
          { id: "ct_ada", phone: "+14155550100", firstName: "Ada", lastName: "Lovelace" },
          { id: "ct_sam", phone: "+14155550101" },
          { id: "ct_chat", fromId: "chat-user-7", customChannel: "site_chat" },
        ],
      },
      { id: "acc_b", name: "B", credits: 10 },
    ],
  };
}

let harness: HttpsHarness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await harness?.close();
  await receiver?.close();
  harness = receiver = undefined;
});

async function start(options: IntakeOptions = {}) {
  harness = await startHarness({ seed: seed(), clock: "virtual", ...options });
  const admin = createAdminClient({ adminUrl: harness.adminUrl, token: ADMIN_TOKEN, fetch: (request) => harness!.fetch(request) });
  return { h: harness, admin, api: client(httpsTarget(harness), "query", KEY) };
}

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable("it succeeded"),
    (error: { status: number; code: string; message: string }) => error,
  );

describe("POST /__admin/contacts (New contact)", () => {
  it("creates a contact by POST /v1/contacts's rules: 201 new, 200 with the contact a phone number or email already finds", async () => {
    const { admin, api } = await start();
    const made = await admin.raw.POST("/contacts", {
      body: { accountId: "acc_a", firstName: "Grace", phone: "+1 (415) 555-0199", email: "grace@example.com" },
    });
    expect(made.response.status).toBe(201);
    expect(made.data).toMatchObject({
      accountId: "acc_a",
      firstName: "Grace",
      phone: "+14155550199",
      email: "grace@example.com",
      fromId: null,
    });
    // The API finds it as any other contact.
    await expect(api.contacts.find({ phoneNumber: "+14155550199" })).resolves.toMatchObject({ id: made.data!.id });

    const samePhone = await admin.raw.POST("/contacts", { body: { accountId: "acc_a", phone: "+14155550199", firstName: "Other" } });
    expect(samePhone.response.status).toBe(200);
    expect(samePhone.data).toMatchObject({ id: made.data!.id, firstName: "Grace" });
    const sameEmail = await admin.raw.POST("/contacts", { body: { accountId: "acc_a", email: "GRACE@example.com" } });
    expect(sameEmail.response.status).toBe(200);
    expect(sameEmail.data!.id).toBe(made.data!.id);
    // Another account's contacts are its own.
    expect((await admin.raw.POST("/contacts", { body: { accountId: "acc_b", phone: "+14155550199" } })).response.status).toBe(201);
  });

  it("refuses a contact with neither phone nor email, a phone number without its country code, an unknown account", async () => {
    const { admin } = await start();
    expect(await errorOf(admin.createContact({ accountId: "acc_a", firstName: "Nobody" }))).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      message: "A contact needs a phone number or an email: give phone (with its country code, starting with +) or email, or both.",
    });
    expect(await errorOf(admin.createContact({ accountId: "acc_a", phone: "4155550199" }))).toMatchObject({
      status: 400,
      code: "INVALID_PHONE",
      message: expect.stringContaining("country code"),
    });
    expect(await errorOf(admin.createContact({ accountId: "acc_a", email: "not-an-email" }))).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
    });
    expect(await errorOf(admin.createContact({ accountId: "acc_nobody", email: "x@example.com" }))).toMatchObject({
      status: 404,
      message: "No account with id acc_nobody.",
    });
  });
});

describe("POST /__admin/contacts/{id}/inbound (Simulate a message)", () => {
  it("on the custom channel: processed as the receive endpoint processes it, from the contact's phone number; the bot's reply is delivered to the webhook URL", async () => {
    const { admin } = await start();
    const message = await admin.simulateInbound("ct_ada", { body: "How much is a class?" });
    expect(message).toMatchObject({
      contactId: "ct_ada",
      direction: "inbound",
      channel: "custom",
      source: "simulated",
      fromId: "+14155550100",
      toId: "acc_a",
      status: "received",
      messageSid: expect.stringMatching(/^sim_/),
    });
    // The phone number is now the contact's custom-channel id, as a receive from it would make it.
    expect((await admin.contact("ct_ada")).contact).toMatchObject({ fromId: "+14155550100", customChannel: "custom", campaignId: "cmp_a" });
    const delivery = await admin.waitForDelivery();
    expect(delivery).toMatchObject({
      state: "delivered",
      contact: { id: "ct_ada", name: "Ada Lovelace" },
      payload: { body: "18 dollars.", toId: "+14155550100", channel: "custom" },
    });
    expect((await admin.message(delivery.messageId!)).status).toBe("sent");

    // A contact with a custom-channel id writes from it, on its channel.
    const chat = await admin.simulateInbound("ct_chat", { body: "hello" });
    expect(chat).toMatchObject({ fromId: "chat-user-7", channel: "site_chat", source: "simulated" });
  });

  it("on a built-in channel: stored there, and the bot answers there, charged and recorded as sent, with no webhook", async () => {
    const { admin } = await start();
    const before = (await admin.credits("acc_a")).balance;
    const message = await admin.simulateInbound("ct_ada", { channel: "messaging_app", body: "How much is a class?" });
    expect(message).toMatchObject({ channel: "messaging_app", source: "simulated", messageSid: null, fromId: "+14155550100", toId: null });
    await admin.settle();
    const { messages, contact } = await admin.contact("ct_ada");
    expect(messages.map((m) => [m.direction, m.channel, m.source, m.status, m.body])).toEqual([
      ["inbound", "messaging_app", "simulated", "received", "How much is a class?"],
      ["outbound", "messaging_app", "bot", "sent", "18 dollars."],
    ]);
    expect(messages[0]!.botOutcome).toBe("replied");
    expect(messages[1]).toMatchObject({ toId: "+14155550100", error: null });
    expect(await admin.deliveries({ accountId: "acc_a" })).toEqual([]);
    expect((await admin.inbox("acc_a")).requests).toEqual([]);
    // The first message to the contact and the bot's reply: 2 credits, as on the custom channel.
    expect((await admin.credits("acc_a")).balance).toBe(before - 2);
    // Its custom-channel identity is untouched.
    expect(contact.fromId).toBeNull();
  });

  it("a reaction is stored and not answered; media by URL is kept; a data URL is checked against its type", async () => {
    const { admin } = await start();
    const text = await admin.simulateInbound("ct_sam", { channel: "sms", body: "Is it open?" });
    const reaction = await admin.simulateInbound("ct_sam", { channel: "sms", body: "👍", messageType: "reaction", reactionTo: text.id });
    const picture = await admin.simulateInbound("ct_sam", {
      body: "my card",
      mediaUrl: "https://example.com/card.png",
      mediaContentType: "image/png",
    });
    const embedded = await admin.simulateInbound("ct_sam", {
      channel: "sms",
      body: "photo",
      mediaUrl: `data:image/png;base64,${PNG}`,
      mediaContentType: "image/png",
    });
    await admin.settle();
    expect(await admin.message(reaction.id)).toMatchObject({ messageType: "reaction", reactionTo: text.id, botOutcome: "reaction" });
    expect(picture).toMatchObject({ mediaUrl: "https://example.com/card.png", mediaContentType: "image/png", channel: "custom" });
    expect(embedded).toMatchObject({ mediaContentType: "image/png", channel: "sms" });
    expect(
      await errorOf(
        admin.simulateInbound("ct_sam", { body: "x", mediaUrl: `data:image/jpeg;base64,${PNG}`, mediaContentType: "image/jpeg" }),
      ),
    ).toMatchObject({
      status: 400,
      message: "mediaContentType is image/jpeg but the file's content is image/png.",
    });
  });

  it("keeps what made a simulated message (via: admin_api by default, dashboard, demo) as its simulatedVia; other messages have none", async () => {
    const { admin, api } = await start();
    const script = await admin.simulateInbound("ct_ada", { body: "from a script" });
    const dashboard = await admin.simulateInbound("ct_sam", { channel: "sms", body: "from the form", via: "dashboard" });
    const demo = await admin.simulateInbound("ct_chat", { body: "from the demo", via: "demo" });
    expect([script.simulatedVia, dashboard.simulatedVia, demo.simulatedVia]).toEqual(["admin_api", "dashboard", "demo"]);
    // As stored, not only as answered.
    expect((await admin.message(dashboard.id)).simulatedVia).toBe("dashboard");
    await api.messages.receive({ customData: { messageSid: "SM_via_1", fromId: "+14155550100", toId: "acc_a", body: "a real one" } });
    await admin.settle();
    const others = (await admin.messages({ accountId: "acc_a" })).filter((m) => m.source !== "simulated");
    expect(others.length).toBeGreaterThan(0);
    for (const message of others) expect(message, message.source).not.toHaveProperty("simulatedVia");
    expect(await errorOf(admin.simulateInbound("ct_ada", { body: "hi", via: "browser" as never }))).toMatchObject({
      status: 400,
      code: "VALIDATION_ERROR",
      message: expect.stringContaining("via"),
    });
  });

  it("refuses what the receive endpoint refuses, in this request's field names; 404 for an unknown contact", async () => {
    const { admin } = await start();
    const refused = (input: Parameters<typeof admin.simulateInbound>[1]) => errorOf(admin.simulateInbound("ct_ada", input));
    expect(await refused({ body: "👍", messageType: "reaction" })).toMatchObject({
      status: 400,
      message: "reactionTo is required for a reaction: the messageSid or id of the message reacted to.",
    });
    expect(await refused({ body: "hi", reactionTo: "msg_1" })).toMatchObject({
      status: 400,
      message: 'reactionTo is only for messageType "reaction".',
    });
    expect(await refused({ body: "hi", mediaUrl: "https://example.com/a.png" })).toMatchObject({
      status: 400,
      message: "mediaContentType is required when mediaUrl is given.",
    });
    expect(await refused({ body: "   " })).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(await refused({ body: "hi", channel: "fax" as never })).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    expect(await refused({ body: "hi", mediaUrl: "ftp://example.com/a.png", mediaContentType: "image/png" })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^mediaUrl must be/),
    });
    expect(await errorOf(admin.simulateInbound("ct_nobody", { body: "hi" }))).toMatchObject({
      status: 404,
      message: "No contact with id ct_nobody.",
    });
    expect((await admin.messages({ contactId: "ct_ada" })).length).toBe(0);
  });

  it("409 when the contact's phone number is another contact's custom-channel id; on a built-in channel it is the contact's own", async () => {
    const { admin } = await start();
    // A sender known by a phone number as its fromId, and a contact with that phone number.
    await admin.seed({
      accounts: [
        {
          id: "acc_c",
          name: "C",
          defaultCampaignId: "cmp_c",
          campaigns: [{ id: "cmp_c", name: "C", state: "Live" }],
          contacts: [
            { id: "ct_c1", fromId: "+14155550188" },
            { id: "ct_c2", phone: "+14155550188" },
          ],
        },
      ],
    });
    expect(await errorOf(admin.simulateInbound("ct_c2", { body: "hi" }))).toMatchObject({
      status: 409,
      code: "CONFLICT",
      message:
        "Contact ct_c2's phone number +14155550188 is the custom-channel id (fromId) of contact ct_c1: a message from it on the custom channel would be that contact's. Simulate it from ct_c1, or on a built-in channel (channel: \"messaging_app\").",
    });
    expect(await admin.messages({ contactId: "ct_c1" })).toEqual([]);
    expect(await admin.simulateInbound("ct_c2", { channel: "sms", body: "hi" })).toMatchObject({ contactId: "ct_c2", channel: "sms" });
  });
});

describe("POST /__admin/accounts/{id}/test-webhook", () => {
  it("sends one signed POST to the account's URL with a sample reply payload, test: true; not a delivery", async () => {
    const { admin } = await start();
    const result = await admin.sendTestWebhook("acc_a");
    expect(result).toMatchObject({
      url: "/__inbox/acc_a",
      webhookId: expect.stringMatching(/^test_/),
      payload: {
        test: true,
        contactId: expect.stringMatching(/^test_/),
        messageId: result.webhookId,
        channel: "custom",
        body: expect.any(String),
      },
      status: 200,
      ok: true,
      error: null,
    });
    // Real milliseconds, though the clock is virtual.
    expect(result.durationMs).toBeGreaterThan(0);
    const [request] = (await admin.inbox("acc_a")).requests;
    expect(request).toMatchObject({ webhookId: result.webhookId, signature: { verified: true } });
    expect(JSON.parse(request!.body)).toEqual(result.payload);
    expect(await admin.deliveries()).toEqual([]);
  });

  it("says what a receiver that fails answered, and sends once: no retry", async () => {
    receiver = await startReceiver();
    receiver.answer(() => ({ status: 500, body: "down" }));
    const { admin } = await start();
    await admin.updateAccount("acc_a", { webhookUrl: receiver.url });
    expect(await admin.sendTestWebhook("acc_a")).toMatchObject({ url: receiver.url, status: 500, ok: false, error: "HTTP 500: down" });
    await admin.advanceClock(3_600_000);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.verify(receiver.received[0]!, SECRET)).toMatchObject({ test: true });
    await receiver.close();
    expect(await admin.sendTestWebhook("acc_a")).toMatchObject({ status: null, ok: false, error: "The connection was refused." });
  });

  it("409 when the account has no webhook URL, saying how to set one; 404 for an unknown account", async () => {
    const { admin } = await start();
    expect(await errorOf(admin.sendTestWebhook("acc_b"))).toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: expect.stringContaining(
        "Account acc_b has no Custom Channel Webhook URL to test: set one with PATCH /__admin/accounts/acc_b with a webhookUrl (/__inbox/acc_b is this server's own inbox for it)",
      ),
    });
    expect(await errorOf(admin.sendTestWebhook("acc_nobody"))).toMatchObject({ status: 404 });
  });
});

describe("names a person reads", () => {
  it("deliveries, alerts and jobs name their contact: first and last name, else phone, email or custom-channel id; a queued delivery's job too", async () => {
    receiver = await startReceiver();
    receiver.answer(() => ({ status: 503 }));
    const { admin, api } = await start({ webhooks: { maxAttempts: 3, jitter: 0 } });
    await admin.updateAccount("acc_a", { webhookUrl: receiver.url });
    await api.lists.addContact("lst_a", { contactId: "ct_sam" });
    await admin.simulateInbound("ct_chat", { body: "I want a person" });
    await admin.settle();

    const [alert] = await admin.alerts("acc_a");
    expect(alert).toMatchObject({ contactId: "ct_chat", contact: { id: "ct_chat", name: "chat-user-7" } });
    expect((await admin.contact("ct_chat")).alerts[0]!.contact).toEqual({ id: "ct_chat", name: "chat-user-7" });
    const [delivery] = await admin.deliveries({ state: "pending" });
    expect(delivery!.contact).toEqual({ id: "ct_chat", name: "chat-user-7" });

    const jobs = await admin.jobs();
    const retry = jobs.find((job) => job.kind === "deliver");
    expect(retry).toMatchObject({ payload: { deliveryId: delivery!.id }, contact: { id: "ct_chat", name: "chat-user-7" } });
    expect(jobs.find((job) => job.kind === "follow_up")).toMatchObject({ contact: { id: "ct_sam", name: "+14155550101" } });

    // An auto-recharge request names no contact.
    await admin.seed({
      accounts: [
        {
          id: "acc_ag",
          kind: "agency",
          name: "Ag",
          autoRechargeUrl: "/__inbox/acc_ag",
          subaccounts: [{ id: "sub_x", email: "x@ag.example", credits: 10, autoRecharge: { threshold: 10, amount: 50 } }],
        },
      ],
    });
    await admin.adjustCredits("sub_x", -1);
    const recharge = await admin.waitForDelivery((d) => d.kind === "auto_recharge");
    expect(recharge).toMatchObject({ state: "delivered", contact: null });
  });
});
