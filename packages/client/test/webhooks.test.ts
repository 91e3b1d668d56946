import { verifyWebhook, WebhookVerificationError } from "@intake/client/webhooks";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const reply = { contactId: "ct_1", messageId: "msg_1", userId: "usr_1", body: "Hi!", toId: "user-1", channel: "acme-chat" };

function signed(payload: object, id = "msg_1", at = new Date()) {
  const body = JSON.stringify(payload);
  return { body, headers: { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": new Webhook(SECRET).sign(id, at, body) } };
}

describe("verifyWebhook", () => {
  it("returns a reply webhook's payload, typed, from a Headers object or a plain record", () => {
    const { body, headers } = signed(reply);
    expect(verifyWebhook(SECRET, body, new Headers(headers))).toEqual({ type: "reply", id: "msg_1", payload: reply });
    expect(verifyWebhook(SECRET, new TextEncoder().encode(body), { ...headers, "Webhook-Id": ["msg_1"] })).toMatchObject({ type: "reply" });
  });

  it("tells an auto-recharge webhook by its idempotency_key", () => {
    const payload = { idempotency_key: "rch_1", sub_account_id: "sub_1", email: "a@example.com", amount: 500, balance: 9, threshold: 10 };
    const { body, headers } = signed(payload, "rch_1");
    expect(verifyWebhook(SECRET, body, headers)).toEqual({ type: "auto_recharge", id: "rch_1", payload });
  });

  it.each([
    ["a wrong secret", (s: ReturnType<typeof signed>) => ({ ...s, secret: "whsec_d3Jvbmctc2VjcmV0LXdyb25nLTEyMw==" }), /signature does not verify/],
    ["a changed body", (s: ReturnType<typeof signed>) => ({ ...s, body: s.body.replace("Hi!", "Bye") }), /signature does not verify/],
    ["a stale timestamp", () => ({ ...signed(reply, "msg_1", new Date(Date.now() - 10 * 60 * 1000)) }), /^The webhook's timestamp \(webhook-timestamp \d+, \d+ here\) is more than 5 minutes from this machine's clock, though its signature is right[^]*Check this machine's clock \(NTP\)\.$/],
    [
      "a stale timestamp with a wrong secret",
      () => ({ ...signed(reply, "msg_1", new Date(Date.now() - 10 * 60 * 1000)), secret: "whsec_d3Jvbmctc2VjcmV0LXdyb25nLTEyMw==" }),
      /^The webhook's signature does not verify: Message timestamp too old\. Check the secret/,
    ],
    ["a stale timestamp with a forged signature", (s: ReturnType<typeof signed>) => ({ ...s, headers: { ...s.headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 600), "webhook-signature": "v1,AAAA" } }), /^The webhook's signature does not verify/],
    ["a timestamp from the future", () => ({ ...signed(reply, "msg_1", new Date(Date.now() + 10 * 60 * 1000)) }), /more than 5 minutes from this machine's clock/],
    ["a missing header", (s: ReturnType<typeof signed>) => ({ ...s, headers: { "webhook-id": "msg_1" } as Record<string, string> }), /webhook-timestamp header is missing/],
  ])("refuses %s", (_, alter, message) => {
    const altered = alter(signed(reply)) as { body: string; headers: Record<string, string>; secret?: string };
    let error: unknown;
    try {
      verifyWebhook(altered.secret ?? SECRET, altered.body, altered.headers);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as Error).message).toMatch(message);
  });
});
