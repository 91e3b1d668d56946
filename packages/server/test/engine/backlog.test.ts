// A backlog of webhook deliveries: attempts go out through a bounded pool (per receiver URL and in
// all), and a receiver that is slow or down holds up only its own deliveries, which wait as stored
// records. In process, with an injected fetch that counts the calls in flight and a virtual clock.
import { createIntake, type Intake, type Seed, type VirtualClock } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";

const SLOW = "https://slow.example/hooks";
const DOWN = "https://down.example/hooks";
const FINE = "https://fine.example/hooks";

function seed(urls: string[]): Seed {
  return {
    accounts: urls.map((url, i) => ({
      id: `acc_${i}`,
      name: `Account ${i}`,
      apiKey: `ik_backlog_account_00000000${i}`,
      webhookUrl: url,
      credits: 10_000,
      campaigns: [{ id: `cmp_${i}`, name: "Bot", type: "Combined", state: "Live" }],
    })),
  };
}

/** A fetch that counts the calls in flight per host and in all; `answer` says how each host answers. */
function countingFetch(answer: (host: string) => "hang" | number) {
  const now = new Map<string, number>();
  const most = new Map<string, number>();
  const hanging: Array<() => void> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const fetch = async (request: Request) => {
    const { host } = new URL(request.url);
    now.set(host, (now.get(host) ?? 0) + 1);
    most.set(host, Math.max(most.get(host) ?? 0, now.get(host)!));
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    try {
      const how = answer(host);
      if (how === "hang") {
        await new Promise<void>((resolve) => {
          hanging.push(resolve);
          request.signal.addEventListener("abort", () => resolve());
        });
        throw new Error("aborted");
      }
      return new Response(null, { status: how });
    } finally {
      inFlight--;
      now.set(host, now.get(host)! - 1);
    }
  };
  return {
    fetch,
    most: (host: string) => most.get(host) ?? 0,
    mostInFlight: () => mostInFlight,
    release: () => hanging.splice(0).forEach((r) => r()),
  };
}

let intake: Intake | undefined;
afterEach(async () => {
  await intake?.close();
  intake = undefined;
});

let sent = 0;
async function receive(account: number, count: number) {
  for (let i = 0; i < count; i++) {
    const response = await intake!.fetch(
      new Request(`https://intake.local/v1/incoming_custom_channel_message?apiKey=ik_backlog_account_00000000${account}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData: { messageSid: `SM-${account}-${sent++}`, fromId: `user-${i}`, toId: "t", body: "hi" } }),
      }),
    );
    expect(response.status).toBe(200);
  }
}

const deliveries = (accountId: string, state?: "pending" | "delivered" | "failed") =>
  intake!.admin.deliveries({ accountId, limit: 10_000, ...(state ? { state } : {}) });
const until = async (check: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await check()).toBe(true);
};

describe("a backlog of webhook deliveries", () => {
  it("never has more attempts in flight than the pool allows, per URL and in all", async () => {
    const counter = countingFetch(() => "hang");
    intake = createIntake({
      clock: "virtual",
      rateLimit: 0,
      fetch: counter.fetch,
      seed: seed([SLOW, DOWN, FINE]),
      webhooks: { concurrencyPerUrl: 4, concurrency: 10, timeoutMs: 3_600_000 },
    });
    for (const account of [0, 1, 2]) await receive(account, 40);
    await until(() => counter.mostInFlight() >= 10);
    await new Promise((r) => setTimeout(r, 50));
    expect(counter.mostInFlight()).toBe(10);
    for (const host of ["slow.example", "down.example", "fine.example"]) expect(counter.most(host)).toBeLessThanOrEqual(4);
    // The rest wait as records: pending, no attempt made, their jobs stored.
    const pending = (await Promise.all(["acc_0", "acc_1", "acc_2"].map((id) => deliveries(id, "pending")))).flat();
    expect(pending).toHaveLength(120);
    expect((await intake.admin.jobs()).filter((j) => j.kind === "deliver")).toHaveLength(120);
    counter.release();
  });

  it("a receiver that does not answer holds up only its own deliveries", async () => {
    const counter = countingFetch((host) => (host === "fine.example" ? 204 : "hang"));
    intake = createIntake({
      clock: "virtual",
      rateLimit: 0,
      fetch: counter.fetch,
      seed: seed([SLOW, FINE]),
      webhooks: { concurrencyPerUrl: 4, timeoutMs: 3_600_000 },
    });
    await receive(0, 100);
    await receive(1, 30);
    await until(async () => (await deliveries("acc_1", "delivered")).length === 30);
    expect(counter.most("slow.example")).toBe(4);
    const waiting = await deliveries("acc_0", "pending");
    expect(waiting).toHaveLength(100);
    expect(waiting.filter((d) => d.attempts.length === 0)).toHaveLength(100);
    expect((await intake.admin.jobs()).filter((j) => j.kind === "deliver")).toHaveLength(100);
    counter.release();
  });

  it("a receiver's waiting deliveries go out first come, first served", async () => {
    const order: string[] = [];
    const fetch = async (request: Request) => {
      order.push(request.headers.get("webhook-id")!);
      return new Response(null, { status: 204 });
    };
    intake = createIntake({ clock: "virtual", rateLimit: 0, fetch, seed: seed([FINE]), webhooks: { concurrencyPerUrl: 1 } });
    await receive(0, 300);
    await until(() => order.length === 300);
    expect(order).toEqual((await deliveries("acc_0")).map((d) => d.webhookId));
  });

  it("works through a failing receiver's backlog on the clock: every delivery ends failed after its attempts, never over the limit", async () => {
    const counter = countingFetch(() => 500);
    intake = createIntake({
      clock: "virtual",
      rateLimit: 0,
      fetch: counter.fetch,
      seed: seed([DOWN]),
      webhooks: { concurrencyPerUrl: 2, concurrency: 3, maxAttempts: 3, jitter: 0 },
    });
    await receive(0, 150);
    await intake.admin.settle();
    expect((await deliveries("acc_0")).every((d) => d.attempts.length === 1)).toBe(true);
    const clock = intake.clock as VirtualClock;
    await clock.advance(5_000);
    await intake.admin.settle();
    await clock.advance(20_000);
    await intake.admin.settle();
    const all = await deliveries("acc_0");
    expect(all).toHaveLength(150);
    expect(all.every((d) => d.state === "failed" && d.attempts.length === 3)).toBe(true);
    expect(await intake.admin.jobs()).toEqual([]);
    expect(counter.most("down.example")).toBeLessThanOrEqual(2);
  });

  it("messages waiting for a slow bot wait as jobs: a bounded number are answered at once, one per contact", async () => {
    let thinking = 0;
    let most = 0;
    const answers: Array<() => void> = [];
    const bot = async () => {
      most = Math.max(most, ++thinking);
      await new Promise<void>((resolve) => answers.push(resolve));
      thinking--;
      return null;
    };
    intake = createIntake({ clock: "virtual", rateLimit: 0, bot, seed: seed([FINE]) });
    // 200 senders, and a second message from each of the first 10.
    await receive(0, 200);
    await receive(0, 10);
    await until(() => most >= 64);
    await new Promise((r) => setTimeout(r, 50));
    const waiting = (await intake.admin.jobs()).filter((j) => j.kind === "inbound").length;
    const thinkingAtOnce = most;
    // Answered before asserting, so a failure does not leave the bot hanging.
    while (answers.length) {
      answers.splice(0).forEach((answer) => answer());
      await new Promise((r) => setTimeout(r, 5));
    }
    await intake.admin.settle();
    expect({ thinkingAtOnce, waiting }).toEqual({ thinkingAtOnce: 64, waiting: 210 });
    expect(most).toBe(64);
    expect(await intake.admin.jobs()).toEqual([]);
  });
});
