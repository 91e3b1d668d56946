// Each received message keeps which bot was asked about it (name, model, real latency, whether the
// answer was replayed, what went wrong), a bot that gives no answer says why, and GET /__admin/bot
// says which bot answers. Through the public API: /v1, the admin client and the live events.
import { createIntake, type Bot, type Intake, type IntakeOptions, type Seed } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";

const KEY = "ik_bot_runs_00000000000001";
const seed: Seed = {
  accounts: [
    {
      id: "acc_gym",
      name: "Acme Fitness",
      apiKey: KEY,
      webhookUrl: null,
      credits: 100,
      campaigns: [{ id: "cmp_spring", name: "Spring", type: "Combined", state: "Live", goal: "Book a free trial class." }],
    },
  ],
};

let intake: Intake | undefined;
afterEach(async () => {
  await intake?.close();
  intake = undefined;
});

function start(options: IntakeOptions = {}) {
  intake = createIntake({ seed, rateLimit: 0, ...options });
  return intake;
}

async function receive(server: Intake, sid: string, body: string, fromId = "u1") {
  const response = await server.fetch(
    new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${KEY}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customData: { messageSid: sid, fromId, toId: "t", body } }),
    }),
  );
  expect(response.status).toBe(200);
  const { messageId } = (await response.json()) as { messageId: string };
  await server.admin.settle();
  return server.admin.message(messageId);
}

describe("a received message keeps the bot's run", () => {
  it("the deterministic bot by default: its name, no model, the real latency, not replayed, no error", async () => {
    const server = start();
    const message = await receive(server, "SM-1", "Hello");
    expect(message.botOutcome).toBe("replied");
    expect(message.bot).toEqual({ name: "deterministic", model: null, latencyMs: expect.any(Number), replayed: false, error: null });
    expect(message.bot!.latencyMs).toBeGreaterThanOrEqual(0);
    // An outgoing message, and a message no bot was asked about, have none.
    const [, sent] = await server.admin.messages({ contactId: message.contactId });
    expect(sent).toMatchObject({ direction: "outbound", bot: null });
    await server.admin.updateCampaign("cmp_spring", { botActive: false });
    expect(await receive(server, "SM-2", "Anyone?")).toMatchObject({ botOutcome: "bot_inactive", bot: null });
  });

  it("a bot's failure is its outcome and its error, told on the live events; the next message tries again", async () => {
    let calls = 0;
    const bot: Bot = () =>
      ++calls === 1 ? { failed: { outcome: "bot_rate_limited", error: "The endpoint said 429: slow down." } } : { reply: "Back again." };
    const server = start({ bot });
    const told: unknown[] = [];
    server.subscribe({ deliver: (entry) => void (entry.type === "bot.outcome" && told.push(entry.event())), end: () => {} });
    const failed = await receive(server, "SM-1", "Hello");
    expect(failed).toMatchObject({
      botOutcome: "bot_rate_limited",
      bot: { name: "custom", model: null, replayed: false, error: "The endpoint said 429: slow down." },
    });
    expect(told).toEqual([
      expect.objectContaining({
        type: "bot.outcome",
        messageId: failed.id,
        outcome: "bot_rate_limited",
        error: "The endpoint said 429: slow down.",
      }),
    ]);
    // Nothing was sent, nothing charged, and the contact is not paused: the next message is answered.
    expect((await server.admin.messages({ contactId: failed.contactId })).map((m) => m.direction)).toEqual(["inbound"]);
    const next = await receive(server, "SM-2", "Hello?");
    expect(next).toMatchObject({ botOutcome: "replied", bot: { error: null } });
    expect(told.at(-1)).toMatchObject({ outcome: "replied", error: null });
  });

  it("a bot that threw is bot_error, its message in bot.error; a replayed answer says so", async () => {
    const bot: Bot = ({ message }) => {
      if (message.body === "boom") throw new Error("the model exploded");
      return { reply: "From the recording.", replayed: true };
    };
    const server = start({ bot, onError: () => {} });
    expect(await receive(server, "SM-1", "boom")).toMatchObject({
      botOutcome: "bot_error",
      bot: { name: "custom", error: "The bot threw: the model exploded" },
    });
    expect(await receive(server, "SM-2", "hi")).toMatchObject({ botOutcome: "replied", bot: { replayed: true, error: null } });
  });

  it("GET /__admin/bot: deterministic by default, custom for a function, a bot's own info otherwise", async () => {
    const nothing = { model: null, baseUrl: null, mode: null, recording: null, timeoutMs: null, maxTokens: null, historyLimit: null };
    expect(await start().admin.bot()).toEqual({ name: "deterministic", ...nothing });
    await intake!.close();
    expect(await start({ bot: () => null }).admin.bot()).toEqual({ name: "custom", ...nothing });
    await intake!.close();
    const info = {
      name: "model" as const,
      model: "tiny",
      baseUrl: "http://127.0.0.1:1/v1",
      mode: "live" as const,
      recording: null,
      timeoutMs: 5,
      maxTokens: 9,
      historyLimit: 3,
    };
    const server = start({ bot: Object.assign(() => ({ reply: "hi" }), { info }) });
    expect(await server.admin.bot()).toEqual(info);
    expect(await receive(server, "SM-1", "Hello")).toMatchObject({ bot: { name: "model", model: "tiny" } });
  });

  it("messages saved before runs were kept (no bot field) load, and show none", async () => {
    const first = start();
    await receive(first, "SM-1", "Hello");
    const saved = first.snapshot();
    for (const message of saved.records.message as Array<Record<string, unknown>>) delete message.bot;
    await first.close();
    const second = start({ snapshot: saved });
    const [inbound] = await second.admin.messages();
    expect(inbound).toMatchObject({ botOutcome: "replied" });
    expect(inbound).not.toHaveProperty("bot");
  });
});
