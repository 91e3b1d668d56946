// The bot: which messages it answers, its hand-off and its outcomes,
// end to end over HTTPS with @intake/client, a real webhook receiver on 127.0.0.1 and a virtual
// clock, so every schedule is exact (test/support/engine.ts has the set-up).
import { describe, expect, it } from "vitest";
import { closeServersAfterEach, get, harness, receiver, seed, settle, start } from "../support/engine.js";

closeServersAfterEach();

describe("the bot", () => {
  it("a hand-off phrase raises a team alert and pauses the bot for that contact, until resumed", async () => {
    const hooks = await receiver();
    const { query } = await start(seed(hooks.url));
    const first = await query.messages.receive({
      customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "Can I talk to a human please?" },
    });
    await settle();
    const message = await get(`/messages/${first.messageId}`);
    expect(message.botOutcome).toBe("handed_off");
    const alerts = await get("/alerts?accountId=acc_gym");
    expect(alerts).toEqual([
      expect.objectContaining({
        contactId: message.contactId,
        contact: { id: message.contactId, name: "u1" },
        messageId: first.messageId,
        reason: 'The contact asked for a person ("talk to a human").',
      }),
    ]);
    // A snapshot holding the alert restores it as it was (the stored alert has no display name of its own).
    const snapshot = await get("/snapshot");
    expect((await harness!.admin("PUT", "/snapshot", snapshot)).status).toBe(200);
    expect(await get("/alerts?accountId=acc_gym")).toEqual(alerts);
    expect(hooks.received.map((r) => r.json.body)).toEqual([
      "Of course: I've asked a member of our team to take over, and they will reply here shortly.",
    ]);
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
