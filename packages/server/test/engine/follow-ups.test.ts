// Follow-ups: sent after the campaign's quiet times and cancelled by a reply,
// end to end over HTTPS with @intake/client, a real webhook receiver on 127.0.0.1 and a virtual
// clock, so every schedule is exact (test/support/engine.ts has the set-up).
import { describe, expect, it } from "vitest";
import { advance, closeServersAfterEach, conversation, harness, HOUR, jobsOf, receiver, seed, settle, start } from "../support/engine.js";

closeServersAfterEach();

describe("follow-ups", () => {
  it("fire after 24 h, 72 h and 7 days of quiet, and a reply cancels the rest", async () => {
    const hooks = await receiver();
    const { bearer, query } = await start(
      seed(hooks.url, {
        followUps: {
          enabled: true,
          cycles: 2,
          messagesPerCycle: 3,
          messages: ["Still keen, {{firstName}}?", "Last call for the spring offer!"],
        },
      }),
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
  ])(
    "one that falls due while the campaign %s is dropped with the rest: none is sent then, nor after it sends again",
    async (_, stop, resume) => {
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
    },
  );

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
