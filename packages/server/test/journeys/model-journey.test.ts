// The funnel journey with the model bot, end to end over HTTPS with @intake/client: the lead is
// created and added to the list, the opening message goes, the lead replies, and the model's
// answer (asked of a fake OpenAI-compatible endpoint on 127.0.0.1) is delivered to the account's
// webhook inbox, signed.
import { createModelBot } from "@intake/server/node";
import { afterEach, describe, expect, it } from "vitest";
import { handsOff, said, startFakeModel, type FakeModel } from "../support/fake-model.js";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { gymSeed } from "../support/model-bot.js";

const KEY = "ik_model_journey_0000000001";
const seed = gymSeed(
  KEY,
  {
    botInstructions: "Answer in one or two sentences.",
    companyInfo: "Acme Fitness runs three gyms downtown.",
    openingTemplate: { body: "Hi {{firstName}}, thanks for your interest! Want a free trial class?", approval: "approved" },
    triggerOnNewListContacts: true,
  },
  { userId: "usr_gym_owner", lists: [{ id: "lst_leads", name: "Spring leads", campaignId: "cmp_spring" }] },
);

let harness: HttpsHarness | undefined;
let fake: FakeModel | undefined;
afterEach(async () => {
  await harness?.close();
  await fake?.close();
  harness = undefined;
  fake = undefined;
});

describe("the funnel with the model bot, over HTTPS", () => {
  it("lead -> list -> opening -> the lead replies -> the model's answer delivered to the inbox; a hand-off by the model raises the alert", async () => {
    fake = await startFakeModel();
    fake.answer((request) =>
      request.body.messages.at(-1)!.content === "How much is a membership?"
        ? said("Memberships start at 29 dollars a month, Ada. Shall I book you a free trial class?")
        : handsOff({ reason: "Wants a corporate plan.", reply: "A colleague will write to you shortly." }),
    );
    harness = await startHarness({
      seed,
      clock: "virtual",
      bot: createModelBot({ model: "tiny-model", baseUrl: fake.baseUrl, apiKey: "sk-test" }),
    });
    const bearer = client(httpsTarget(harness), "bearer", KEY);
    const query = client(httpsTarget(harness), "query", KEY);
    const admin = harness.intake.admin;

    const lead =
      (await bearer.contacts.find({ phoneNumber: "+14155550123" })) ??
      (await bearer.contacts.create({ phone_number: "+14155550123", first_name: "Ada" }));
    await bearer.lists.addContact("lst_leads", { contact_id: lead.id });
    await admin.settle();
    // The lead answers the opening on the custom channel, as their phone number.
    const inbound = await query.messages.receive({
      customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "acme", body: "How much is a membership?", channel: "acme-chat" },
    });
    await admin.settle();

    const { messages } = await admin.contact(lead.id);
    expect(messages.map((m) => [m.direction, m.source, m.body])).toEqual([
      ["outbound", "opening", "Hi Ada, thanks for your interest! Want a free trial class?"],
      ["inbound", "api_receive", "How much is a membership?"],
      ["outbound", "bot", "Memberships start at 29 dollars a month, Ada. Shall I book you a free trial class?"],
    ]);
    expect(messages[1]).toMatchObject({
      id: inbound.messageId,
      botOutcome: "replied",
      bot: { name: "model", model: "tiny-model", replayed: false, error: null },
    });
    // The model saw the opening as the business's turn, then the lead's reply.
    expect(fake.requests[0]!.body.messages.slice(1)).toEqual([
      { role: "assistant", content: "Hi Ada, thanks for your interest! Want a free trial class?" },
      { role: "user", content: "How much is a membership?" },
    ]);
    expect(fake.requests[0]!.body.messages[0]!.content).toContain("Acme Fitness runs three gyms downtown.");

    const inbox = await admin.inbox("acc_gym");
    expect(inbox.requests).toHaveLength(1);
    expect(inbox.requests[0]).toMatchObject({ method: "POST", webhookId: messages[2]!.id, signature: { verified: true } });
    expect(JSON.parse(inbox.requests[0]!.body)).toEqual({
      contactId: lead.id,
      messageId: messages[2]!.id,
      userId: "usr_gym_owner",
      body: messages[2]!.body,
      toId: "+14155550123",
      channel: "acme-chat",
    });

    // The lead asks for what the model hands to a person.
    await query.messages.receive({
      customData: { messageSid: "SM-2", fromId: "+14155550123", toId: "acme", body: "And for my company of 40?", channel: "acme-chat" },
    });
    await admin.settle();
    expect(await admin.alerts("acc_gym")).toMatchObject([{ contactId: lead.id, reason: "Wants a corporate plan." }]);
    expect((await admin.contact(lead.id)).contact.botPaused).toBe(true);
    expect((await admin.inbox("acc_gym")).requests.map((r) => (JSON.parse(r.body) as { body: string }).body)).toEqual([
      "A colleague will write to you shortly.",
      "Memberships start at 29 dollars a month, Ada. Shall I book you a free trial class?",
    ]);
  });
});
