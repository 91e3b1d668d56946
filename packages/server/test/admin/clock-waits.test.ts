// No virtual-clock traps: a wait for a delivery whose next attempt is due at a virtual time says so
// at once (over HTTPS through @intake/server/testing, and through the msw handlers), a real-clock
// wait's timeout says what it waited for, the default wait ends before the test runner's 5 s, and
// a reset rewinds a virtual clock to where the server started unless told to keep it.
import { createIntakeClient } from "@intake/client";
import { createIntake, type Seed } from "@intake/server";
import { createIntakeHandlers } from "@intake/server/msw";
import {
  AdminApiError,
  createAdminClient,
  DeliveryWaitError,
  startIntakeServer,
  type AdminClient,
  type IntakeTestServer,
} from "@intake/server/testing";
import { setupServer } from "msw/node";
import { afterEach, describe, expect, it } from "vitest";
import { startReceiver } from "../support/receiver.js";

const KEY = "ik_clock_waits_business_0001";
const START = "2026-03-02T09:00:00.000Z";
const seed: Seed = {
  accounts: [
    {
      id: "acc_demo",
      name: "Demo",
      apiKey: KEY,
      webhookUrl: "/__inbox/acc_demo",
      credits: 100,
      defaultCampaignId: "cmp_demo",
      campaigns: [{ id: "cmp_demo", name: "Demo", state: "Live", faqs: [{ question: "How much is a class?", answer: "18 dollars." }] }],
    },
  ],
};

let server: IntakeTestServer | undefined;
const closing: Array<() => unknown> = [];
afterEach(async () => {
  while (closing.length) await closing.pop()!();
  await server?.stop();
  server = undefined;
});

/** A message from a custom-channel sender: the bot's reply goes to the account's inbox, which answers `status`. */
async function replyTo(admin: AdminClient, baseUrl: string, fetch: ((request: Request) => Promise<Response>) | undefined, status: number) {
  await admin.setInboxAnswer("acc_demo", status);
  const client = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl, ...(fetch ? { fetch } : {}) });
  await client.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-1", toId: "demo", body: "How much is a class?" } });
}

const isReply = (d: { kind: string }) => d.kind === "reply";

/** How a wait ended: it must have failed, with a DeliveryWaitError. */
async function failureOf(wait: Promise<unknown>): Promise<DeliveryWaitError> {
  const error = await wait.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DeliveryWaitError);
  return error as DeliveryWaitError;
}

/** A wait given a whole minute: one that fails promptly fails long before. */
const stuckWait = (admin: AdminClient) => failureOf(admin.waitForDelivery(isReply, { timeoutMs: 60_000 }));

describe("waiting for a delivery", () => {
  it("under a virtual clock, a delivery whose retry is due later fails the wait at once, saying what is pending, its last error, when it is due and how to advance the clock", async () => {
    server = await startIntakeServer({ seed, clock: "virtual", clockStart: START });
    await replyTo(server.admin, server.baseUrl, server.fetch, 500);

    const error = await stuckWait(server.admin);
    const [delivery] = error.deliveries;
    expect(error.reason).toBe("clock");
    expect(delivery).toMatchObject({ state: "pending", lastError: expect.stringContaining("HTTP 500") });
    const due = delivery!.nextAttemptAt!;
    expect(Date.parse(due)).toBeGreaterThan(Date.parse(START));
    expect(error.message).toContain(
      `No matching delivery can be finished until the virtual clock is advanced: the server's clock is virtual, at ${START}`,
    );
    expect(error.message).toContain(`${delivery!.id} (reply to /__inbox/acc_demo): pending after 1 attempt, last error "HTTP 500`);
    expect(error.message).toContain(`next attempt due at ${due}`);
    expect(error.message).toContain(`\`await admin.advanceClock({ to: "${due}" })\` (POST /__admin/clock/advance)`);

    // Advanced as it says, with the receiver fixed: the wait finishes.
    await server.admin.setInboxAnswer("acc_demo", 200);
    await server.admin.advanceClock({ to: due });
    expect(await server.admin.waitForDelivery(isReply, { timeoutMs: 60_000 })).toMatchObject({
      state: "delivered",
      attempts: [{ status: 500 }, { status: 200 }],
    });
  });

  it("through the msw handlers too", async () => {
    const mock = createIntakeHandlers({ seed, clock: "virtual", clockStart: START, adminToken: "adm_clock_waits" });
    const msw = setupServer(...mock.handlers);
    msw.listen({ onUnhandledRequest: "error" });
    closing.push(
      () => msw.close(),
      () => mock.intake.close(),
    );
    const admin = createAdminClient({ adminUrl: mock.adminUrl, token: "adm_clock_waits" });
    await replyTo(admin, mock.baseUrl, undefined, 503);

    const error = await stuckWait(admin);
    expect(error.message).toMatch(
      /pending after 1 attempt, last error "HTTP 503[^]*next attempt due at 2026-03-02T09:00:0\d\.\d{3}Z[^]*advanceClock/,
    );
    await admin.setInboxAnswer("acc_demo", 200);
    await admin.advanceClock(60_000);
    expect(await admin.waitForDelivery(isReply)).toMatchObject({ state: "delivered" });
  });

  it("under a real clock, it waits until its timeout, whose message has the last error and when the next attempt is due", async () => {
    server = await startIntakeServer({ seed });
    await replyTo(server.admin, server.baseUrl, server.fetch, 500);
    // The first retry is due about 5 s after the first attempt: long after this wait gives up.
    const error = await failureOf(server.admin.waitForDelivery(isReply, { timeoutMs: 300 }));
    expect(error.reason).toBe("timeout");
    expect(error.message).toMatch(
      /^No matching delivery finished within 300 ms\. Matching deliveries: whd_\w+ \(reply to \/__inbox\/acc_demo\): pending after 1 attempt, last error "HTTP 500[^]*", next attempt due at \d{4}-\d\d-\d\dT[\d:.]+Z \(in \d+\.\d s\)\.$/,
    );
  });

  it("a receiver that does not answer holds it no longer than its timeout, and its message says the attempt is under way", async () => {
    const hooks = await startReceiver();
    closing.push(() => hooks.close());
    hooks.answer(() => ({ status: 200, delayMs: 3000 }));
    server = await startIntakeServer({ seed: { accounts: [{ ...seed.accounts![0]!, webhookUrl: hooks.url }] } });
    await replyTo(server.admin, server.baseUrl, server.fetch, 200);
    const error = await failureOf(server.admin.waitForDelivery(isReply, { timeoutMs: 300 }));
    expect(error.message).toMatch(
      /^No matching delivery finished within 300 ms\. Matching deliveries: whd_\w+ \(reply to http:[^)]+\): pending after 0 attempts, next attempt due at [\d:.TZ-]+ \(due now: under way, or waiting its turn\)\.$/,
    );
  }, 5000);

  it("when nothing matches in time under a virtual clock, its message names the jobs waiting for a later time and the call that runs them", async () => {
    server = await startIntakeServer({ seed, clock: "virtual", clockStart: START });
    await replyTo(server.admin, server.baseUrl, server.fetch, 500);
    const [retry] = await server.admin.jobs();
    expect(retry).toMatchObject({ kind: "deliver", runAt: expect.any(String) });
    const error = await failureOf(server.admin.waitForDelivery((d) => d.kind === "auto_recharge", { timeoutMs: 50 }));
    expect(error.message).toContain("No matching delivery finished within 50 ms. Deliveries: whd_");
    expect(error.message).toContain(
      `The server's clock is virtual, at ${START}: 1 job waits for a later time (the soonest, deliver, at ${retry!.runAt}). Advance the clock to run it: \`await admin.advanceClock({ to: "${retry!.runAt}" })\``,
    );
  });

  it("its default timeout ends the wait with its own message before the test runner's 5000 ms", async () => {
    server = await startIntakeServer({ seed: { accounts: [{ name: "Demo", apiKey: KEY }] } });
    await expect(server.admin.waitForDelivery()).rejects.toThrow("No matching delivery finished within 4000 ms. Deliveries: none.");
  }, 5000);
});

describe("reset and the clock", () => {
  const clockNow = async () => (await server!.admin.clock()).now;

  it("a reset rewinds a virtual clock to where the server started it (the default); { clock: 'keep' } leaves it", async () => {
    server = await startIntakeServer({ seed, clock: "virtual", clockStart: START });
    await server.admin.advanceClock(36 * 3600_000);
    await server.admin.reset();
    expect(await clockNow()).toBe(START);
    expect((await server.admin.account("acc_demo")).createdAt).toBe(START);

    await server.admin.advanceClock(3600_000);
    await server.admin.reset({ clock: "keep" });
    expect(await clockNow()).toBe("2026-03-02T10:00:00.000Z");
    await server.admin.reset(seed, { clock: "keep" });
    expect(await clockNow()).toBe("2026-03-02T10:00:00.000Z");
    await server.admin.reset({ seed: { accounts: [{ id: "acc_other", name: "Other" }] }, clock: "rewind" });
    expect(await clockNow()).toBe(START);
    expect((await server.admin.accounts()).map((a) => a.id)).toEqual(["acc_other"]);
  });

  it("a server started from a saved state (a data file's) rewinds to where the seed starts, not to the time saved", async () => {
    const first = createIntake({ seed, clock: "virtual", clockStart: START });
    await first.admin.advanceClock(48 * 3600_000);
    const saved = first.snapshot();
    await first.close();
    const restarted = createIntake({ seed, clock: "virtual", clockStart: START, snapshot: saved });
    closing.push(() => restarted.close());
    expect((await restarted.admin.clock()).now).toBe("2026-03-04T09:00:00.000Z");
    await restarted.admin.reset();
    expect((await restarted.admin.clock()).now).toBe(START);
  });

  it("a reset of a real clock leaves it; asked to rewind it, 409 says why", async () => {
    server = await startIntakeServer({ seed });
    await expect(server.admin.reset()).resolves.toMatchObject({ accounts: 1 });
    const error = await server.admin.reset({ clock: "rewind" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error).toMatchObject({
      status: 409,
      code: "CONFLICT",
      message: expect.stringContaining("The clock is real; a reset cannot rewind it."),
    });
    expect(Math.abs(Date.parse(await clockNow()) - Date.now())).toBeLessThan(60_000);
  });
});
