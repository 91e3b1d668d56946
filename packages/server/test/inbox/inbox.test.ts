// The webhook inbox the server serves at /__inbox/{accountId}: deliveries to the path reach it in
// process (over HTTPS, under msw, through createIntake alone), each request recorded with whether
// its Standard Webhooks signature verifies; the status it answers makes deliveries fail and retry;
// bounded, emptied by a reset, told on the live events; its errors.
import { createAdminClient, createIntake, type AdminClient, type IntakeOptions, type Seed } from "@intake/server";
import { createIntakeHandlers } from "@intake/server/msw";
import { setupServer } from "msw/node";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";

const KEY = "ik_inbox_business_a_000000001";
const SECRET = "whsec_aW5ib3gtdGVzdC1zZWNyZXQtMDAwMDAx";

function seed(webhookUrl = "/__inbox/acc_a"): Seed {
  return {
    accounts: [
      {
        id: "acc_a",
        name: "A",
        apiKey: KEY,
        webhookUrl,
        webhookSecret: SECRET,
        credits: 1000,
        defaultCampaignId: "cmp_a",
        campaigns: [{ id: "cmp_a", name: "A", state: "Live", faqs: [{ question: "How much is a class?", answer: "18 dollars." }] }],
      },
      { id: "acc_b", name: "B" },
    ],
  };
}

let harness: HttpsHarness | undefined;
const closing: Array<() => unknown> = [];
afterEach(async () => {
  while (closing.length) await closing.pop()!();
  await harness?.close();
  harness = undefined;
});

async function https(options: IntakeOptions = {}) {
  harness = await startHarness({ seed: seed(), clock: "virtual", ...options });
  const admin = createAdminClient({ adminUrl: harness.adminUrl, token: ADMIN_TOKEN, fetch: (request) => harness!.fetch(request) });
  return { h: harness, admin, api: client(httpsTarget(harness), "query", KEY) };
}

/** A message from a custom-channel sender, and the bot's reply to it delivered. */
async function conversation(admin: AdminClient, api: ReturnType<typeof client<"query">>, sid: string) {
  await api.messages.receive({ customData: { messageSid: sid, fromId: `user-${sid}`, toId: "a", body: "How much is a class?" } });
  return admin.waitForDelivery((d) => (d.payload as { toId?: string }).toId === `user-${sid}`, { state: undefined });
}

describe("the webhook inbox", () => {
  it("receives a reply delivered to /__inbox/<account>, in process: headers, body, webhook-id and a verified signature; the delivery keeps the URL as stored", async () => {
    const { admin, api } = await https();
    const delivery = await conversation(admin, api, "SM-1");
    expect(delivery).toMatchObject({ state: "delivered", url: "/__inbox/acc_a", attempts: [{ number: 1, status: 200, error: null }] });
    expect(delivery.attempts[0]!.durationMs).toBeGreaterThan(0);

    const inbox = await admin.inbox("acc_a");
    expect(inbox).toMatchObject({ accountId: "acc_a", url: "/__inbox/acc_a", answerStatus: 200, capacity: 100 });
    expect(inbox.requests).toHaveLength(1);
    const [request] = inbox.requests;
    expect(request).toMatchObject({
      id: expect.stringMatching(/^inb_/),
      method: "POST",
      webhookId: delivery.webhookId,
      signature: { verified: true, reason: null },
      answeredStatus: 200,
    });
    expect(request!.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": delivery.webhookId,
      "webhook-timestamp": String(delivery.attempts[0]!.webhookTimestamp),
      "webhook-signature": delivery.attempts[0]!.webhookSignature,
    });
    expect(JSON.parse(request!.body)).toEqual(delivery.payload);
    // Received on the server's clock.
    expect(request!.receivedAt).toBe((await admin.clock()).now);
  });

  it("records a request whose body was changed on the way as not verified, and says why; an unsigned one too", async () => {
    const { h, admin, api } = await https();
    await conversation(admin, api, "SM-1");
    const [genuine] = (await admin.inbox("acc_a")).requests;
    const post = (body: string, headers: Record<string, string>) =>
      h.fetch(`${h.server.origin}/__inbox/acc_a`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

    // Replayed over the network, as sent: it verifies.
    const signed = {
      "webhook-id": genuine!.headers["webhook-id"]!,
      "webhook-timestamp": genuine!.headers["webhook-timestamp"]!,
      "webhook-signature": genuine!.headers["webhook-signature"]!,
    };
    const replayed = await post(genuine!.body, signed);
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toMatchObject({ received: true, verified: true, answerStatus: 200 });

    const tampered = await post(genuine!.body.replace("18 dollars.", "0 dollars."), signed);
    expect(await tampered.json()).toMatchObject({ received: true, verified: false });
    const unsigned = await post("{}", {});
    expect(unsigned.status).toBe(200);

    const [last, changed] = (await admin.inbox("acc_a")).requests;
    expect(changed!.signature).toEqual({
      verified: false,
      reason: expect.stringContaining("No signature in webhook-signature matches this body"),
    });
    expect(last!.signature).toEqual({
      verified: false,
      reason:
        "The webhook-id, webhook-timestamp and webhook-signature headers are missing: the request is not signed as Standard Webhooks signs it.",
    });
    expect(last!.webhookId).toBeNull();
  });

  it("answers the status the account chose: a 503 makes the delivery fail and retry, a 200 then delivers it", async () => {
    const { admin, api } = await https({ webhooks: { maxAttempts: 3, initialDelayMs: 1000, jitter: 0 } });
    expect(await admin.setInboxAnswer("acc_a", 503)).toMatchObject({ answerStatus: 503 });
    await api.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-1", toId: "a", body: "How much is a class?" } });
    await admin.settle();
    const [delivery] = await admin.deliveries({ accountId: "acc_a" });
    expect(delivery).toMatchObject({ state: "pending", attempts: [{ number: 1, status: 503 }] });
    expect(delivery!.attempts[0]!.error).toMatch(/^HTTP 503: \{"received":true/);
    expect((await admin.inbox("acc_a")).requests[0]).toMatchObject({ answeredStatus: 503, signature: { verified: true } });

    await admin.advanceClock(1000);
    expect(await admin.delivery(delivery!.id)).toMatchObject({ state: "pending", attempts: [{ status: 503 }, { status: 503 }] });
    await admin.setInboxAnswer("acc_a", 200);
    await admin.advanceClock(4000);
    expect(await admin.delivery(delivery!.id)).toMatchObject({
      state: "delivered",
      attempts: [{ status: 503 }, { status: 503 }, { status: 200 }],
    });
    expect((await admin.inbox("acc_a")).requests.map((r) => r.answeredStatus)).toEqual([200, 503, 503]);
  });

  it("keeps the last 100 requests of an account, newest first", async () => {
    const { h, admin } = await https();
    for (let i = 1; i <= 105; i++) await h.fetch(`${h.server.origin}/__inbox/acc_a`, { method: "POST", body: `request ${i}` });
    const { requests } = await admin.inbox("acc_a");
    expect(requests).toHaveLength(100);
    expect(requests[0]!.body).toBe("request 105");
    expect(requests[99]!.body).toBe("request 6");
    // Another account's inbox is its own.
    expect((await admin.inbox("acc_b")).requests).toEqual([]);
  });

  it("keeps a long body's first 64 KiB and a note of its length", async () => {
    const { h, admin } = await https();
    await h.fetch(`${h.server.origin}/__inbox/acc_a`, { method: "POST", body: "x".repeat(70_000) });
    const [request] = (await admin.inbox("acc_a")).requests;
    expect(request!.body.startsWith("x".repeat(65_536))).toBe(true);
    expect(request!.body.slice(65_536)).toBe("\n[... 4464 more characters not kept; 70000 in all]");
  });

  it("DELETE empties it and keeps its answer; a reset empties every inbox and answers 200 again", async () => {
    const { h, admin } = await https();
    const post = () => h.fetch(`${h.server.origin}/__inbox/acc_a`, { method: "POST", body: "{}" });
    await admin.setInboxAnswer("acc_a", 418);
    expect((await post()).status).toBe(418);
    await admin.clearInbox("acc_a");
    expect(await admin.inbox("acc_a")).toMatchObject({ answerStatus: 418, requests: [] });
    await post();
    await admin.reset();
    expect(await admin.inbox("acc_a")).toMatchObject({ answerStatus: 200, requests: [] });
    expect((await post()).status).toBe(200);
  });

  it("is told on the live events (inbox.received), with the signature's verdict and the status answered", async () => {
    const { admin, api } = await https();
    const events = await admin.events({ accountId: "acc_a" });
    closing.push(() => events.close());
    const delivery = await conversation(admin, api, "SM-1");
    const [request] = (await admin.inbox("acc_a")).requests;
    for await (const { event } of events) {
      if (event.type !== "inbox.received") continue;
      expect(event).toEqual({
        type: "inbox.received",
        at: request!.receivedAt,
        accountId: "acc_a",
        requestId: request!.id,
        webhookId: delivery.webhookId,
        verified: true,
        status: 200,
      });
      break;
    }
  });

  it("refuses what is not for it: an unknown account 404, another method 405 with Allow: POST, an admin call for an unknown account 404, an answer out of range 400", async () => {
    const { h, admin } = await https();
    const unknown = await h.fetch(`${h.server.origin}/__inbox/acc_nobody`, { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: "NOT_FOUND", message: expect.stringContaining("No account acc_nobody on this server") },
    });
    const get = await h.fetch(`${h.server.origin}/__inbox/acc_a`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await get.json()).error.code).toBe("METHOD_NOT_ALLOWED");
    expect((await h.fetch(`${h.server.origin}/__inbox/acc_a/more`, { method: "POST" })).status).toBe(404);
    expect((await h.fetch(`${h.server.origin}/__inbox`, { method: "POST" })).status).toBe(404);

    await expect(admin.inbox("acc_nobody")).rejects.toMatchObject({ status: 404 });
    await expect(admin.clearInbox("acc_nobody")).rejects.toMatchObject({ status: 404 });
    await expect(admin.setInboxAnswer("acc_a", 600)).rejects.toMatchObject({ status: 400 });
    await expect(admin.setInboxAnswer("acc_a", 199)).rejects.toMatchObject({ status: 400 });
    expect((await admin.inbox("acc_a")).answerStatus).toBe(200);
  });

  it("is reached in process under msw too: no port, no request to the network", async () => {
    const { handlers, intake, adminUrl, baseUrl } = createIntakeHandlers({ seed: seed(), adminToken: ADMIN_TOKEN, clock: "virtual" });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: "error" });
    closing.push(
      () => server.close(),
      () => intake.close(),
    );
    const admin = createAdminClient({ adminUrl, token: ADMIN_TOKEN });
    const response = await fetch(`${baseUrl}/incoming_custom_channel_message?apiKey=${KEY}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customData: { messageSid: "SM-1", fromId: "user-1", toId: "a", body: "How much is a class?" } }),
    });
    expect(response.status).toBe(200);
    const delivery = await admin.waitForDelivery();
    expect(delivery).toMatchObject({ state: "delivered", url: "/__inbox/acc_a" });
    expect((await admin.inbox("acc_a")).requests[0]).toMatchObject({ webhookId: delivery.webhookId, signature: { verified: true } });
  });

  it("is reached through createIntake alone, with no adapter and no fetch of the test's own", async () => {
    const intake = createIntake({ seed: seed() });
    closing.push(() => intake.close());
    const message = await intake.admin.simulateInbound(
      (await intake.admin.createContact({ accountId: "acc_a", email: "lea@example.com" })).id,
      { body: "How much is a class?" },
    );
    const delivery = await intake.admin.waitForDelivery();
    expect(delivery).toMatchObject({
      state: "delivered",
      url: "/__inbox/acc_a",
      contact: { id: message.contactId, name: "lea@example.com" },
    });
    expect((await intake.admin.inbox("acc_a")).requests[0]!.signature.verified).toBe(true);
  });
});
