import { createIntake, type Seed } from "@intake/server";
import { describe, expect, it } from "vitest";

const KEY = "ik_stop_resume_000000000001";
const seed: Seed = {
  accounts: [
    {
      id: "acc_gym",
      name: "Acme Fitness",
      apiKey: KEY,
      webhookUrl: null,
      credits: 10,
      campaigns: [{ id: "cmp_spring", name: "Spring", type: "Combined", state: "Live" }],
    },
  ],
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
    let answering!: () => void;
    const firstAsked = new Promise<void>((resolve) => (answering = resolve));
    const asked: string[] = [];
    const bot = async ({ message }: { message: { body: string } }) => {
      asked.push(message.body);
      if (asked.length === 1) {
        answering();
        await new Promise<void>((resolve) => (release = resolve));
      }
      return { reply: "29 a month." };
    };
    const first = createIntake({ seed, rateLimit: 0, bot });
    expect((await receive(first, "SM-1")).status).toBe(200);
    await firstAsked;
    const closing = first.close();
    release();
    await closing;
    const saved = first.snapshot();
    // The job whose work was done is not kept for the restart.
    expect((await first.admin.jobs()).map((j) => j.kind)).not.toContain("inbound");

    const second = createIntake({ snapshot: saved, rateLimit: 0, bot });
    await second.admin.settle();
    expect(asked).toHaveLength(1);
    const messages = (await second.admin.messages()).map((m) => [m.direction, m.source, m.botOutcome ?? null]);
    expect(messages).toEqual([
      ["inbound", "api_receive", "replied"],
      ["outbound", "bot", null],
    ]);
    expect(await second.admin.jobs()).toEqual([]);
    await second.close();
  });
});

describe("a data file saved by an earlier version, with the job of an answered message still in it", () => {
  it("does not answer the message again", async () => {
    const asked: string[] = [];
    const bot = async ({ message }: { message: { body: string } }) => {
      asked.push(message.body);
      return { reply: "29 a month." };
    };
    const first = createIntake({ seed, rateLimit: 0, bot });
    expect((await receive(first, "SM-1")).status).toBe(200);
    await first.admin.settle();
    const saved = first.snapshot();
    await first.close();
    const [inbound] = saved.records.message as unknown as Array<{ id: string; contactId: string; botOutcome: string | null }>;
    expect(inbound!.botOutcome).toBe("replied");
    // Such versions kept the job when a stop came after its work was done.
    (saved.records.job as unknown[]).push({
      id: "job_old",
      kind: "inbound",
      runAt: null,
      key: `inbound:${inbound!.contactId}`,
      payload: JSON.stringify({ messageId: inbound!.id }),
      createdAt: saved.clock.now,
    });

    const second = createIntake({ snapshot: saved, rateLimit: 0, bot });
    await second.admin.settle();
    expect(asked).toHaveLength(1);
    expect((await second.admin.messages()).filter((m) => m.direction === "outbound")).toHaveLength(1);
    expect(await second.admin.jobs()).toEqual([]);
    await second.close();
  });
});

describe("a data file holding a job of a kind the server does not run (written by hand)", () => {
  it("lists it as about nobody, whatever its payload names", async () => {
    const first = createIntake({ seed, rateLimit: 0 });
    expect((await receive(first, "SM-1")).status).toBe(200);
    await first.admin.settle();
    await first.close();
    const saved = first.snapshot();
    const [contact] = saved.records.contact as unknown as Array<{ id: string }>;
    const runAt = Date.parse(saved.clock.now) + 24 * 60 * 60 * 1000;
    (saved.records.job as unknown[]).push({
      id: "job_odd",
      kind: "reminder",
      runAt,
      key: null,
      payload: JSON.stringify({ contactId: contact!.id }),
      createdAt: saved.clock.now,
    });

    const second = createIntake({ snapshot: saved, rateLimit: 0 });
    expect((await second.admin.jobs()).find((job) => job.id === "job_odd")).toMatchObject({ kind: "reminder", contact: null });
    await second.close();
  });
});
