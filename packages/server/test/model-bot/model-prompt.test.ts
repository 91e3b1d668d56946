// The model bot's prompt builder: a pure function from the campaign, the contact and the
// conversation to the chat messages a model is asked.
import { describe, expect, it } from "vitest";
import type { AdminComponents } from "@intake/server";
import { buildPrompt, languageName, type PromptInput } from "../../src/model-bot/prompt.js";

type Schemas = AdminComponents["schemas"];

const campaign: Schemas["Campaign"] = {
  id: "cmp_spring",
  accountId: "acc_gym",
  name: "Spring funnel",
  type: "Combined",
  language: "es",
  state: "Live",
  channel: "messaging_app",
  botInstructions: "Be warm. Never promise discounts.",
  companyInfo: "Acme Fitness runs three gyms downtown.",
  faqs: [
    { question: "How much is a membership?", answer: "29 dollars a month." },
    { question: "Where are you?", answer: "Main Street 1." },
  ],
  resources: [{ title: "Timetable", url: "https://acme.example/timetable", content: "Classes from 7 am." }, { title: "Parking" }],
  goal: "Book a free trial class.",
  openingTemplate: null,
  triggerOnNewListContacts: true,
  followUps: { enabled: false, delaysHours: [24], cycles: 1, messagesPerCycle: 1, messages: [] },
  botActive: true,
  handOffPhrases: ["human"],
  createdAt: "2026-01-01T00:00:00.000Z",
};

const contact: Schemas["Contact"] = {
  id: "ct_1",
  accountId: "acc_gym",
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+14155550123",
  email: null,
  customFields: {},
  fromId: "+14155550123",
  customChannel: null,
  botPaused: false,
  campaignId: "cmp_spring",
  createdAt: "2026-01-01T00:00:00.000Z",
};

let serial = 0;
function message(direction: "inbound" | "outbound", body: string, fields: Partial<Schemas["Message"]> = {}): Schemas["Message"] {
  serial += 1;
  return {
    id: `msg_${serial}`,
    accountId: "acc_gym",
    contactId: "ct_1",
    direction,
    channel: "custom",
    messageSid: direction === "inbound" ? `SM-${serial}` : null,
    fromId: null,
    toId: null,
    messageType: "text",
    body,
    status: direction === "inbound" ? "received" : "sent",
    mediaUrl: null,
    mediaContentType: null,
    reactionTo: null,
    campaignId: "cmp_spring",
    source: direction === "inbound" ? "api_receive" : "bot",
    error: null,
    botOutcome: null,
    createdAt: `2026-01-01T00:00:0${serial % 10}.000Z`,
    ...fields,
  };
}

const input = (fields: Partial<PromptInput> = {}): PromptInput => ({
  campaign,
  contact,
  account: { name: "Acme Fitness" },
  conversation: [message("inbound", "Hola")],
  historyLimit: 20,
  handOffBy: "tool",
  maxChars: 4096,
  ...fields,
});

describe("buildPrompt", () => {
  it("a system prompt from the campaign's language, instructions, company info, FAQs, resources and goal, and the contact's names", () => {
    const [system] = buildPrompt(input());
    expect(system!.role).toBe("system");
    expect(system!.content).toBe(
      [
        'You are the assistant of Acme Fitness, writing to a contact in a text conversation (campaign "Spring funnel").',
        "Write in Spanish (es). Keep answers short and friendly, in plain text: a few sentences, never more than 4096 characters.",
        "Instructions:\nBe warm. Never promise discounts.",
        "About the company:\nAcme Fitness runs three gyms downtown.",
        "Frequently asked questions (answer with these when they fit):\nQ: How much is a membership?\nA: 29 dollars a month.\nQ: Where are you?\nA: Main Street 1.",
        "Resources you may share:\n- Timetable (https://acme.example/timetable): Classes from 7 am.\n- Parking",
        "The goal of this conversation: Book a free trial class.\nSteer toward it, without being pushy.",
        "The contact's name: Ada Lovelace.",
        "If the contact asks for a person, or you cannot help, call hand_off_to_person with the reason, and a short reply telling the contact a person will take over.",
      ].join("\n\n"),
    );
  });

  it("leaves out what the campaign does not say, and says when the contact's name is unknown", () => {
    const bare = { ...campaign, botInstructions: " ", companyInfo: "", faqs: [], resources: [], goal: "" };
    const [system] = buildPrompt(input({ campaign: bare, contact: { ...contact, firstName: null, lastName: null } }));
    expect(system!.content).not.toMatch(/Instructions:|About the company|Frequently asked|Resources|goal/);
    expect(system!.content).toContain("The contact's name is not known.");
  });

  it("without tools, the model is told to hand off with a first line HANDOFF: <reason>", () => {
    const [system] = buildPrompt(input({ handOffBy: "text" }));
    expect(system!.content).toContain('answer with a first line "HANDOFF: <the reason>", then a short reply');
    expect(system!.content).not.toContain("hand_off_to_person");
  });

  it("the conversation in order: the contact as the user, the business as the assistant; a person's and the business system's messages marked", () => {
    const conversation = [
      message("outbound", "Hi Ada! Want a free trial class?", { source: "opening" }),
      message("inbound", "Maybe. How much is it?"),
      message("outbound", "29 dollars a month.", { source: "bot" }),
      message("outbound", "Ana here, happy to help.", { source: "human" }),
      message("outbound", "Your booking code is 42.", { source: "api_send" }),
      message("outbound", "Still there?", { source: "follow_up" }),
      message("inbound", "👍", { messageType: "reaction", reactionTo: "SM-1" }),
      message("inbound", "Here is my card", { mediaUrl: "data:image/png;base64,iVBORw0KGgo=", mediaContentType: "image/png" }),
    ];
    expect(buildPrompt(input({ conversation })).slice(1)).toEqual([
      { role: "assistant", content: "Hi Ada! Want a free trial class?" },
      { role: "user", content: "Maybe. How much is it?" },
      { role: "assistant", content: "29 dollars a month." },
      { role: "assistant", content: "[A member of the team wrote this] Ana here, happy to help." },
      { role: "assistant", content: "[The business's own system sent this] Your booking code is 42." },
      { role: "assistant", content: "Still there?" },
      { role: "user", content: "[reacted with 👍]" },
      { role: "user", content: "Here is my card [attached: image/png]" },
    ]);
  });

  it("bounded to the last historyLimit messages; messages that were never sent are left out", () => {
    const conversation = [
      message("inbound", "one"),
      message("outbound", "two"),
      message("outbound", "not sent: no credits", { status: "not_sent" }),
      message("inbound", "three"),
      message("outbound", "four"),
      message("inbound", "five"),
    ];
    expect(
      buildPrompt(input({ conversation, historyLimit: 3 }))
        .slice(1)
        .map((m) => m.content),
    ).toEqual(["three", "four", "five"]);
  });

  it("is pure: the same input, the same messages; nothing of the time or ids", () => {
    const conversation = [message("inbound", "Hola")];
    const first = buildPrompt(input({ conversation }));
    const later = buildPrompt(
      input({ conversation: conversation.map((m) => ({ ...m, id: "msg_other", createdAt: "2027-05-05T00:00:00.000Z" })) }),
    );
    expect(later).toEqual(first);
    expect(JSON.stringify(first)).not.toMatch(/msg_|2026-/);
  });
});

describe("languageName", () => {
  it("names a language code, and keeps anything else as written", () => {
    expect(languageName("en")).toBe("English (en)");
    expect(languageName("pt-BR")).toBe("Brazilian Portuguese (pt-BR)");
    expect(languageName("Español neutro")).toBe("Español neutro");
  });
});
