import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createIntakeClient } from "@intake/client";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ATTACHMENT_ONLY_TEXT, createBridge } from "../src/bridge.js";
import { memoryPlatform, TINY_PNG } from "../src/platform.js";

const KEY = "ik_example_custom_channel_bridge_1";
const ACCOUNT = "acc_bridge";
let intake: IntakeTestServer;
let server: Server;
let bridgeUrl: string;
let secret: string;
const platform = memoryPlatform({
  photo: { bytes: TINY_PNG, contentType: "image/png" },
  mislabelled: { bytes: TINY_PNG, contentType: "image/jpeg" },
});

beforeAll(async () => {
  intake = await startIntakeServer({
    // Retries a few milliseconds apart, so the platform-outage case runs quickly.
    webhooks: { initialDelayMs: 20, jitter: 0 },
    seed: {
      accounts: [
        {
          id: ACCOUNT,
          name: "Acme Fitness",
          apiKey: KEY,
          credits: 100,
          campaigns: [
            {
              id: "cmp_chat",
              name: "Chat",
              type: "Incoming",
              state: "Live",
              faqs: [{ question: "How much is a membership?", answer: "29 dollars a month." }],
            },
          ],
        },
      ],
    },
  });
  secret = (await intake.admin.account(ACCOUNT)).webhookSecret;
  ({ server, url: bridgeUrl } = await startBridge(KEY));
  await intake.admin.updateAccount(ACCOUNT, { webhookUrl: `${bridgeUrl}/intake/webhook` });
});
afterAll(async () => {
  server?.close();
  await intake?.stop();
});
beforeEach(async () => {
  // Replies to an earlier case's messages land before this case looks at what was sent.
  await intake.admin.settle();
  platform.sent.length = 0;
});

async function startBridge(apiKey: string) {
  const bridge = createBridge({
    intake: createIntakeClient({ auth: "query", apiKey, baseUrl: intake.baseUrl, fetch: intake.fetch }),
    webhookSecret: secret,
    platform,
    businessId: "acme",
    channel: "chatly",
  });
  const started = createServer((req, res) => void bridge.handle(req, res));
  await new Promise<void>((resolve) => started.listen(0, "127.0.0.1", resolve));
  return { server: started, url: `http://127.0.0.1:${(started.address() as AddressInfo).port}` };
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${bridgeUrl}${path}`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
const userWrites = (message: object) => post("/platform/messages", JSON.stringify(message));
const contactOf = async (fromId: string) => (await intake.admin.contacts({ accountId: ACCOUNT })).find((c) => c.fromId === fromId);

describe("the custom-channel bridge", () => {
  it("forwards a user's message with its photo as a data URL, and delivers the bot's reply to the user", async () => {
    const response = await userWrites({
      id: "m_1",
      userId: "u_1",
      firstName: "Lin",
      text: "How much is a membership?",
      attachmentId: "photo",
    });
    expect(response.status).toBe(200);
    const { messageId } = (await response.json()) as { messageId: string };

    const delivery = await intake.admin.waitForDelivery((d) => d.kind === "reply");
    expect(delivery.state).toBe("delivered");
    expect(platform.sent).toEqual([{ userId: "u_1", text: "29 dollars a month." }]);

    const inbound = await intake.admin.message(messageId);
    expect(inbound).toMatchObject({
      direction: "inbound",
      channel: "chatly",
      mediaContentType: "image/png",
      mediaUrl: `data:image/png;base64,${Buffer.from(TINY_PNG).toString("base64")}`,
    });
    expect(await contactOf("u_1")).toMatchObject({ firstName: "Lin", customChannel: "chatly" });
  });

  it("gives Intake the same platform message twice and Intake processes it once", async () => {
    for (let i = 0; i < 2; i++) expect((await userWrites({ id: "m_dup", userId: "u_2", text: "Hello there" })).status).toBe(200);
    await intake.admin.settle();
    const { messages } = await intake.admin.contact((await contactOf("u_2"))!.id);
    expect(messages.filter((m) => m.direction === "inbound").map((m) => m.body)).toEqual(["Hello there"]);
  });

  it("sends an attachment without text with a placeholder body, as Intake requires a body", async () => {
    const response = await userWrites({ id: "m_photo_only", userId: "u_3", attachmentId: "photo" });
    const { messageId } = (await response.json()) as { messageId: string };
    expect(await intake.admin.message(messageId)).toMatchObject({ body: ATTACHMENT_ONLY_TEXT, mediaContentType: "image/png" });
  });

  it("answers 422 with Intake's reason when Intake refuses an attachment whose type does not match its bytes, and stores nothing", async () => {
    const response = await userWrites({ id: "m_bad_media", userId: "u_4", text: "see this", attachmentId: "mislabelled" });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: string }).error).toMatch(/^Intake refused the message: .*image\/png/);
    expect(await contactOf("u_4")).toBeUndefined();
  });

  it("answers 400 to a platform message it cannot use, so the platform does not retry it", async () => {
    const cases: Array<[string, unknown]> = [
      [JSON.stringify({ id: "m_empty", userId: "u_5", text: "   " }), "A message needs text or an attachment."],
      ["null", "The body must be a JSON object."],
      [JSON.stringify({ id: "m_x", text: "hi" }), "userId is required, as a string."],
      [JSON.stringify({ id: "m_x", userId: "u_5", text: 42 }), "text must be a string."],
      ['{"id": "m_x"', expect.stringContaining("JSON")],
    ];
    for (const [body, error] of cases) {
      const response = await post("/platform/messages", body);
      expect([response.status, await response.json()]).toEqual([400, { error }]);
    }
    expect(await contactOf("u_5")).toBeUndefined();
  });

  it("answers 503 when Intake refuses the bridge's key, so the platform keeps the message and retries", async () => {
    const misconfigured = await startBridge("ik_rotated_key_no_longer_valid");
    try {
      const response = await fetch(`${misconfigured.url}/platform/messages`, {
        method: "POST",
        body: JSON.stringify({ id: "m_key", userId: "u_8", text: "Hello" }),
      });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { error: string }).error).toMatch(/^Intake refused the bridge's API key; retry later\./);
    } finally {
      misconfigured.server.close();
    }
    expect(await contactOf("u_8")).toBeUndefined();
  });

  it("acknowledges a reply for another custom channel of the account without delivering it", async () => {
    const payload = JSON.stringify({
      contactId: "ct_z",
      messageId: "msg_z",
      userId: "usr_z",
      body: "For the other app",
      toId: "u_1",
      channel: "other-app",
    });
    const at = new Date();
    const headers = {
      "webhook-id": "msg_z",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_z", at, payload),
    };
    expect((await post("/intake/webhook", payload, headers)).status).toBe(204);
    expect(platform.sent).toEqual([]);
  });

  it("refuses a webhook that is not signed with the account's secret, or whose body was changed, and sends nothing", async () => {
    const payload = JSON.stringify({
      contactId: "ct_x",
      messageId: "msg_x",
      userId: "usr_x",
      body: "Pay here",
      toId: "u_1",
      channel: "chatly",
    });
    const at = new Date();
    const forged = new Webhook(`whsec_${Buffer.from("not the secret, not at all").toString("base64")}`).sign("msg_x", at, payload);
    const headers = (signature: string) => ({
      "webhook-id": "msg_x",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signature,
    });

    const wrongSecret = await post("/intake/webhook", payload, headers(forged));
    expect(wrongSecret.status).toBe(401);
    expect(((await wrongSecret.json()) as { error: string }).error).toMatch(/signature does not verify/);

    const genuine = new Webhook(secret).sign("msg_x", at, payload);
    const tampered = await post("/intake/webhook", payload.replace("Pay here", "Pay there"), headers(genuine));
    expect(tampered.status).toBe(401);
    expect((await post("/intake/webhook", payload, {})).status).toBe(401);
    expect(platform.sent).toEqual([]);
  });

  it("acknowledges a redelivered webhook (same webhook-id) without sending the reply to the user again", async () => {
    const payload = JSON.stringify({
      contactId: "ct_y",
      messageId: "msg_y",
      userId: "usr_y",
      body: "See you at 6",
      toId: "u_7",
      channel: "chatly",
    });
    const at = new Date();
    const headers = {
      "webhook-id": "msg_y",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_y", at, payload),
    };
    const [first, second] = await Promise.all([post("/intake/webhook", payload, headers), post("/intake/webhook", payload, headers)]);
    const third = await post("/intake/webhook", payload, headers);
    expect([first.status, second.status, third.status]).toEqual([204, 204, 204]);
    expect(platform.sent).toEqual([{ userId: "u_7", text: "See you at 6" }]);
  });

  it("answers 502 while the platform is down, so Intake retries and the user gets the reply once", async () => {
    await intake.admin.clearJournal();
    platform.refuse(1);
    const response = await userWrites({ id: "m_retry", userId: "u_6", text: "How much is a membership?" });
    const { messageId } = (await response.json()) as { messageId: string };
    const delivery = await intake.admin.waitForDelivery((d) => d.kind === "reply" && d.state === "delivered" && d.payload.toId === "u_6");
    expect(delivery.attempts.map((a) => a.status)).toEqual([502, 204]);
    expect(platform.sent).toEqual([{ userId: "u_6", text: "29 dollars a month." }]);
    const { messages } = await intake.admin.contact((await contactOf("u_6"))!.id);
    expect(messages.map((m) => [m.id === messageId ? "question" : m.source, m.status])).toEqual([
      ["question", "received"],
      ["bot", "sent"],
    ]);
  });
});
