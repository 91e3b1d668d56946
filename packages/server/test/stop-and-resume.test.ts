import { createIntake, type Seed } from "@intake/server";
import { describe, expect, it } from "vitest";

const KEY = "ik_stop_resume_000000000001";
const seed: Seed = {
  accounts: [{ id: "acc_gym", name: "Acme Fitness", apiKey: KEY, webhookUrl: null, credits: 10, campaigns: [{ id: "cmp_spring", name: "Spring", type: "Combined", state: "Live" }] }],
};
const receive = (intake: ReturnType<typeof createIntake>, sid: string) =>
  intake.fetch(
    new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${KEY}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customData: { messageSid: sid, fromId: "u1", toId: "t", body: "How much is it?" } }),
    }),
  );

describe("a graceful stop while the bot is answering", () => {
  it("keeps the job only if its work was not done: a restart from the saved state answers once", async () => {
    let release!: () => void;
    const asked: string[] = [];
    const bot = async ({ message }: { message: { body: string } }) => {
      asked.push(message.body);
      if (asked.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return { reply: "29 a month." };
    };
    const first = createIntake({ seed, rateLimit: 0, bot });
    expect((await receive(first, "SM-1")).status).toBe(200);
    while (!asked.length) await new Promise((r) => setTimeout(r, 5));
    const closing = first.close();
    release();
    await closing;
    const saved = first.admin.snapshot();
    // The job whose work was done is not kept for the restart.
    expect(first.engine.pending().map((j) => j.kind)).not.toContain("inbound");

    const second = createIntake({ snapshot: saved, rateLimit: 0, bot });
    await second.engine.settle();
    expect(asked).toHaveLength(1);
    const messages = second.admin.listMessages({}).map((m) => [m.direction, m.source, m.botOutcome ?? null]);
    expect(messages).toEqual([
      ["inbound", "api_receive", "replied"],
      ["outbound", "bot", null],
    ]);
    expect(second.engine.pending()).toEqual([]);
    await second.close();
  });
});
