// What a rehearsal needs to see of a conversation, over the admin API on a virtual clock: where
// the contact's follow-ups stand (the next due, or why they stopped), a failed bot answer asked
// again, the contact each inbox request is about, and an import that moves contacts to another
// campaign saying so.
import type { Bot, IntakeOptions, Seed } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";

const KEY = "ik_rehearsal_business_000001";
const HOUR = 3_600_000;
const START = Date.parse("2026-01-01T00:00:00.000Z");

function seed(followUps: Record<string, unknown> = { enabled: true, cycles: 1, messagesPerCycle: 2, delaysHours: [24, 72] }): Seed {
  const campaign = {
    type: "Combined" as const,
    state: "Live" as const,
    openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" as const },
    triggerOnNewListContacts: true,
    followUps,
  };
  return {
    accounts: [
      {
        id: "acc_r",
        name: "Rehearsal",
        apiKey: KEY,
        webhookUrl: "/__inbox/acc_r",
        credits: 100,
        campaigns: [
          { id: "cmp_spring", name: "Spring", ...campaign },
          { id: "cmp_summer", name: "Summer", ...campaign },
        ],
        lists: [
          { id: "lst_spring", name: "Spring leads", campaignId: "cmp_spring" },
          { id: "lst_summer", name: "Summer leads", campaignId: "cmp_summer" },
        ],
      },
    ],
  };
}

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(s: Seed = seed(), options: IntakeOptions = {}) {
  await harness?.close();
  harness = await startHarness({ seed: s, clock: "virtual", ...options });
  return { api: client(httpsTarget(harness), "query", KEY) };
}
const admin = async (method: string, path: string, body?: unknown) => harness!.admin(method, path, body);
const get = async (path: string) => (await admin("GET", path)).body;
const followUpsOf = async (contactId: string) => (await get(`/contacts/${contactId}`)).followUps;

/** A lead made and added to a list, its opening sent. */
async function lead(listId = "lst_spring", phone = "+14155550123") {
  const contact = (await admin("POST", "/contacts", { accountId: "acc_r", phone, firstName: "Ada" })).body as { id: string };
  await admin("POST", `/lists/${listId}/contacts`, { source: "manual", contactIds: [contact.id] });
  await admin("POST", "/settle");
  return contact.id;
}

describe("GET /__admin/contacts/{id} followUps", () => {
  it("names the next follow-up due, then says they stopped because the lead wrote", async () => {
    const { api } = await start();
    const id = await lead();
    expect(await followUpsOf(id)).toEqual({
      next: { at: new Date(START + 24 * HOUR).toISOString(), number: 1, of: 2, campaignId: "cmp_spring" },
      stopped: null,
    });
    await admin("POST", "/clock/advance", { ms: 24 * HOUR });
    expect((await followUpsOf(id)).next).toMatchObject({ at: new Date(START + 96 * HOUR).toISOString(), number: 2, of: 2 });

    await api.messages.receive({ customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "r", body: "Yes please" } });
    await admin("POST", "/settle");
    const stopped = await followUpsOf(id);
    expect(stopped).toMatchObject({ next: null, stopped: { reason: "lead_wrote" } });
    expect(stopped.stopped.message).toMatch(/the lead wrote/);
  });

  it("says when the one due will be dropped because the campaign left Live, and why none goes after", async () => {
    await start();
    const id = await lead();
    await admin("PATCH", "/campaigns/cmp_spring", { state: "Paused" });
    const paused = await followUpsOf(id);
    expect(paused).toMatchObject({ next: { number: 1 }, stopped: { reason: "campaign_not_sending" } });
    expect(paused.stopped.message).toMatch(/Spring.*Paused/);
    await admin("POST", "/clock/advance", { ms: 24 * HOUR });
    expect(await followUpsOf(id)).toMatchObject({ next: null, stopped: { reason: "campaign_not_sending" } });
  });

  it("says follow-ups are off, all were sent, or no campaign reached the contact", async () => {
    await start(seed({ enabled: false }));
    expect(await followUpsOf(await lead())).toMatchObject({ next: null, stopped: { reason: "follow_ups_off" } });
    const loner = (await admin("POST", "/contacts", { accountId: "acc_r", phone: "+14155550199" })).body as { id: string };
    expect(await followUpsOf(loner.id)).toMatchObject({ next: null, stopped: { reason: "no_campaign" } });

    await start(seed({ enabled: true, cycles: 1, messagesPerCycle: 1, delaysHours: [1] }));
    const id = await lead();
    await admin("POST", "/clock/advance", { ms: HOUR });
    const done = await followUpsOf(id);
    expect(done).toMatchObject({ next: null, stopped: { reason: "all_sent" } });
  });
});

describe("POST /__admin/messages/{id}/retry-bot", () => {
  it("asks the bot again about a failed answer, which is then answered and delivered; any other message is 409", async () => {
    let calls = 0;
    const bot: Bot = () => {
      calls++;
      if (calls === 1) throw new Error("the model is down");
      return { reply: "Here now." };
    };
    const { api } = await start(seed(), { bot, onError: () => {} });
    await admin("PATCH", "/accounts/acc_r", { defaultCampaignId: "cmp_spring" });
    const { messageId } = await api.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-1", toId: "r", body: "Hello?" } });
    await admin("POST", "/settle");
    expect(await get(`/messages/${messageId}`)).toMatchObject({
      botOutcome: "bot_error",
      bot: { error: expect.stringContaining("the model is down") },
    });

    const retried = await admin("POST", `/messages/${messageId}/retry-bot`);
    expect(retried.status).toBe(200);
    await admin("POST", "/settle");
    const message = await get(`/messages/${messageId}`);
    expect(message).toMatchObject({ botOutcome: "replied", bot: { error: null } });
    const replies = (
      (await get(`/contacts/${message.contactId}`)).messages as Array<{ id: string; source: string; body: string; status: string }>
    ).filter((m) => m.source === "bot");
    expect(replies.map((m) => [m.body, m.status])).toEqual([["Here now.", "sent"]]);
    expect(calls).toBe(2);

    // Answered now: nothing to try again, nor for an outgoing message or an unknown one.
    const again = await admin("POST", `/messages/${messageId}/retry-bot`);
    expect(again).toMatchObject({ status: 409, body: { error: { code: "CONFLICT" } } });
    expect(again.body.error.message).toMatch(/did not fail/);
    expect((await admin("POST", `/messages/${replies[0]!.id}/retry-bot`)).body.error.message).toMatch(/outgoing/);
    expect((await admin("POST", "/messages/msg_nope/retry-bot")).status).toBe(404);
    expect(calls).toBe(2);
  });
});

describe("the inbox names each request's contact", () => {
  it("a reply webhook's contact by its name now; a test webhook's none", async () => {
    const { api } = await start();
    await admin("PATCH", "/accounts/acc_r", { defaultCampaignId: "cmp_spring" });
    await api.messages.receive({
      customData: { messageSid: "SM-1", fromId: "user-1", toId: "r", body: "Hi", firstName: "Grace", lastName: "Hopper" },
    });
    await admin("POST", "/settle");
    await admin("POST", "/accounts/acc_r/test-webhook");
    const [test, reply] = (await get("/inbox/acc_r")).requests;
    expect(reply.contact).toEqual({ id: expect.stringMatching(/^ct_/), name: "Grace Hopper" });
    expect(test.contact).toBeNull();
  });
});

describe("an import into a list of another campaign", () => {
  it("answers the contacts whose conversation moves, from which campaign to which; none for a list of their own campaign", async () => {
    await start();
    const id = await lead("lst_spring");
    expect((await get(`/contacts/${id}`)).contact.campaignId).toBe("cmp_spring");
    const summer = await admin("POST", "/lists/lst_summer/contacts", { source: "manual", contactIds: [id] });
    expect(summer.body.campaignMoves).toEqual([{ contactId: id, fromCampaignId: "cmp_spring", toCampaignId: "cmp_summer" }]);
    await admin("POST", "/settle");
    expect((await get(`/contacts/${id}`)).contact.campaignId).toBe("cmp_summer");

    const other = await lead("lst_summer", "+14155550124");
    await admin("POST", "/lists/lst_spring/contacts", { source: "import", contacts: [{ phone: "+14155550125" }] });
    expect((await admin("POST", "/lists/lst_summer/contacts", { source: "manual", contactIds: [other] })).body).toMatchObject({
      alreadyMembers: 1,
      campaignMoves: [],
    });
  });
});
