// The engine in a hosted sandbox, as in the Node server: reply webhooks to a receiver on this
// machine, signed and retried; the webhook inbox; the virtual clock moving the funnel's queue and
// follow-ups; credits granted once per Idempotency-Key, the auto-recharge webhook; the model bot
// asking an OpenAI-compatible endpoint over fetch.
import { createAdminClient, type Seed } from "@intake/server";
import { createIntakeClient } from "@intake/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { said, startFakeModel, type FakeModel } from "../../server/test/support/fake-model.js";
import { startReceiver, type Receiver } from "../../server/test/support/receiver.js";
import { createSandbox, startWorker, type LocalWorker, type SandboxInfo } from "./support/worker.js";

let worker: LocalWorker;
let receiver: Receiver;
let count = 0;
beforeAll(async () => {
  worker = await startWorker();
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.answer(() => ({ status: 200 }));
});

const CAMPAIGN = {
  id: "cmp_trial",
  name: "Trial",
  state: "Live",
  faqs: [{ question: "How much is a class?", answer: "A class is 18 dollars." }],
  openingTemplate: { body: "Hi {{firstName}}, want a free class?", approval: "approved" },
  triggerOnNewListContacts: true,
  followUps: { enabled: true, delaysHours: [24], cycles: 1, messagesPerCycle: 1, messages: ["Still keen on a free class?"] },
} as const;

function business(webhookUrl: string): Seed {
  return {
    accounts: [
      {
        id: "acc_a",
        name: "A",
        credits: 100,
        webhookUrl,
        defaultCampaignId: "cmp_trial",
        campaigns: [CAMPAIGN as never],
        lists: [{ id: "lst_leads", name: "Leads", campaignId: "cmp_trial" }],
      },
    ],
  };
}

async function sandbox(request: Record<string, unknown>) {
  const made = await createSandbox(worker, { name: `engine-${++count}`, ...request });
  const admin = createAdminClient({ adminUrl: made.adminUrl, token: made.adminToken, fetch: (r) => worker.fetch(r) });
  const api = (key = made.accounts[0]!.apiKey) =>
    createIntakeClient({ auth: "query", apiKey: key, baseUrl: made.baseUrl, fetch: (r) => worker.fetch(r), maxRetries: 0 });
  return { made, admin, api };
}

const receive = (made: SandboxInfo, sid: string, body: string) =>
  createIntakeClient({
    auth: "query",
    apiKey: made.accounts[0]!.apiKey,
    baseUrl: made.baseUrl,
    fetch: (r) => worker.fetch(r),
  }).messages.receive({
    customData: { messageSid: sid, fromId: `user-${sid}`, toId: "a", body },
  });

describe("reply webhooks from a sandbox", () => {
  it("reach a receiver on this machine, signed with the account's secret, and a refused one is retried until it is taken", async () => {
    receiver.answer((_, index) => ({ status: index === 0 ? 503 : 200 }));
    const { made, admin } = await sandbox({ seed: business(receiver.url), clock: "virtual" });
    await receive(made, "SM-1", "How much is a class?");
    await admin.settle();
    expect(receiver.received).toHaveLength(1);
    // The retry waits its backoff on the sandbox's clock.
    await admin.advanceClock(60_000);
    await admin.settle();
    expect(receiver.received).toHaveLength(2);
    const secret = made.accounts[0]!.webhookSecret;
    for (const request of receiver.received)
      expect(receiver.verify(request, secret)).toMatchObject({ body: "A class is 18 dollars.", toId: "user-SM-1" });
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(receiver.received[1]!.headers["webhook-id"]);
    const [delivery] = await admin.deliveries();
    expect(delivery).toMatchObject({ state: "delivered", attempts: [{ status: 503 }, { status: 200 }] });
  });

  it("to the sandbox's own inbox (/__inbox/<account>): kept with a verified signature, and its answer status picked", async () => {
    const { made, admin } = await sandbox({ seed: business("/__inbox/acc_a"), clock: "virtual" });
    await admin.setInboxAnswer("acc_a", 500);
    await receive(made, "SM-2", "How much is a class?");
    await admin.settle();
    await admin.setInboxAnswer("acc_a", 200);
    await admin.advanceClock(60_000);
    await admin.settle();
    const inbox = await admin.inbox("acc_a");
    expect(inbox.requests.map((request) => [request.answeredStatus, request.signature.verified])).toEqual([
      [200, true],
      [500, true],
    ]);
  });
});

describe("the funnel on a sandbox's virtual clock", () => {
  it("sends 1 to 3 openings at once and queues more at the safe rate; a day of silence brings the follow-up", async () => {
    const { admin, api } = await sandbox({ seed: business("/__inbox/acc_a"), clock: "virtual" });
    const leads = await Promise.all(
      ["+14155550101", "+14155550102", "+14155550103", "+14155550104", "+14155550105"].map((phone, i) =>
        api().contacts.create({ phone, firstName: `Lead${i}` }),
      ),
    );
    // Added within the burst window: "at once".
    for (const lead of leads) await api().lists.addContact("lst_leads", { contactId: lead.id });
    await admin.settle();
    const openings = async () =>
      (await admin.messages({ accountId: "acc_a" }))
        .filter((message) => message.source === "opening" && message.status === "sent")
        .map((message) => Date.parse(message.createdAt));
    const atOnce = await openings();
    // The first three at once; from the fourth on, the queue's slots, one per interval (the first may be now).
    expect(atOnce.length).toBeGreaterThanOrEqual(3);
    expect(atOnce.length).toBeLessThan(5);
    await admin.advanceClock(60_000);
    const sent = (await openings()).sort((x, y) => x - y);
    expect(sent).toHaveLength(5);
    expect(new Set(sent.slice(0, 3)).size).toBe(1);
    expect(sent[4]! - sent[3]!).toBeGreaterThanOrEqual(10_000);
    await admin.advanceClock(24 * 3600_000);
    const followUps = (await admin.messages({ accountId: "acc_a" })).filter((message) => message.source === "follow_up");
    expect(followUps.map((message) => message.body)).toEqual(Array(5).fill("Still keen on a free class?"));
    expect((await admin.clock()).now).toBe("2026-01-02T00:01:00.000Z");
  });
});

describe("credits in a sandbox", () => {
  it("a grant retried with its Idempotency-Key grants once; the sub-account's fall below its threshold sends the auto-recharge webhook, signed", async () => {
    const seed: Seed = {
      accounts: [
        {
          id: "acc_agency",
          kind: "agency",
          name: "Agency",
          autoRechargeUrl: receiver.url,
          subaccounts: [{ id: "sub_one", email: "one@agency.example", credits: 5, autoRecharge: { threshold: 3, amount: 50 } }],
        },
      ],
    };
    const { made, admin } = await sandbox({ seed, clock: "virtual" });
    const agency = createIntakeClient({
      auth: "header",
      apiKey: made.accounts[0]!.apiKey,
      baseUrl: made.baseUrl,
      fetch: (r) => worker.fetch(r),
    });
    const first = await agency.subaccounts.grantCredits({ email: "one@agency.example", amount: 10 }, { idempotencyKey: "pay_1" });
    const again = await agency.subaccounts.grantCredits({ email: "one@agency.example", amount: 10 }, { idempotencyKey: "pay_1" });
    expect([first.new_balance, again.new_balance]).toEqual([15, 15]);
    await admin.adjustCredits("sub_one", -13, "spent");
    await admin.settle();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.verify(receiver.received[0]!, made.accounts[0]!.webhookSecret)).toMatchObject({
      idempotency_key: expect.any(String),
      sub_account_id: "sub_one",
      amount: 50,
    });
  });
});

describe("the model bot in a sandbox", () => {
  let model: FakeModel;
  beforeAll(async () => {
    model = await startFakeModel();
  });
  afterAll(() => model?.close());

  it("asks an OpenAI-compatible endpoint over fetch, with the campaign's instructions, and its answer is the reply", async () => {
    model.answer(() => said("Classes are 18 dollars; your first one is free."));
    const { made, admin } = await sandbox({
      seed: business("/__inbox/acc_a"),
      clock: "virtual",
      bot: { model: "llama3.2", baseUrl: model.baseUrl },
    });
    expect(await admin.bot()).toMatchObject({ name: "model", model: "llama3.2", baseUrl: model.baseUrl });
    await receive(made, "SM-9", "How much is a class?");
    await admin.settle();
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "How much is a class?" });
    const [reply] = (await admin.messages({ accountId: "acc_a" })).filter((message) => message.source === "bot");
    expect(reply).toMatchObject({ body: "Classes are 18 dollars; your first one is free." });
  });
});
