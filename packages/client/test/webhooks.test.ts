import { createWebhookVerifier, verifyWebhook, WebhookSecretError, WebhookVerificationError } from "@intake/client/webhooks";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const reply = { contactId: "ct_1", messageId: "msg_1", userId: "usr_1", body: "Hi!", toId: "user-1", channel: "acme-chat" };

function signed(payload: object, id = "msg_1", at = new Date()) {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(SECRET).sign(id, at, body),
    },
  };
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
    [
      "a wrong secret",
      (s: ReturnType<typeof signed>) => ({ ...s, secret: "whsec_d3Jvbmctc2VjcmV0LXdyb25nLTEyMw==" }),
      /signature does not verify/,
    ],
    ["a changed body", (s: ReturnType<typeof signed>) => ({ ...s, body: s.body.replace("Hi!", "Bye") }), /signature does not verify/],
    [
      "a stale timestamp",
      () => ({ ...signed(reply, "msg_1", new Date(Date.now() - 10 * 60 * 1000)) }),
      /^The webhook's timestamp \(webhook-timestamp \d+, \d+ here\) is more than 5 minutes from this machine's clock, though its signature is right[^]*Check this machine's clock \(NTP\)\.$/,
    ],
    [
      "a stale timestamp with a wrong secret",
      () => ({ ...signed(reply, "msg_1", new Date(Date.now() - 10 * 60 * 1000)), secret: "whsec_d3Jvbmctc2VjcmV0LXdyb25nLTEyMw==" }),
      /^The webhook's signature does not verify: Message timestamp too old\. Check the secret/,
    ],
    [
      "a stale timestamp with a forged signature",
      (s: ReturnType<typeof signed>) => ({
        ...s,
        headers: { ...s.headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000) - 600), "webhook-signature": "v1,AAAA" },
      }),
      /^The webhook's signature does not verify/,
    ],
    [
      "a timestamp from the future",
      () => ({ ...signed(reply, "msg_1", new Date(Date.now() + 10 * 60 * 1000)) }),
      /more than 5 minutes from this machine's clock/,
    ],
    [
      "a missing header",
      (s: ReturnType<typeof signed>) => ({ ...s, headers: { "webhook-id": "msg_1" } as Record<string, string> }),
      /webhook-timestamp header is missing/,
    ],
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

describe("a verified payload's kind, by the contract's webhook schemas", () => {
  it.each([
    ["a sub-account id alone", { sub_account_id: "sub_1" }],
    ["a reply without toId", { contactId: "ct_1", messageId: "msg_1", userId: "usr_1", body: "Hi!", channel: "acme-chat" }],
    ["a reply whose body is not text", { ...reply, body: 42 }],
    [
      "an auto-recharge whose amount is text",
      { idempotency_key: "rch_1", sub_account_id: "sub_1", email: "a@example.com", amount: "500", balance: 9, threshold: 10 },
    ],
    ["an array", [reply]],
    ["a string", "reply"],
  ])("is unknown for %s, with the payload as signed", (_, payload) => {
    const { body, headers } = signed(payload as object);
    expect(verifyWebhook(SECRET, body, headers)).toEqual({ type: "unknown", id: "msg_1", payload });
  });

  it("is still a reply with a field the contract does not name (a newer server may add one)", () => {
    const { body, headers } = signed({ ...reply, sentAt: "2026-12-06T10:00:00Z" });
    expect(verifyWebhook(SECRET, body, headers)).toMatchObject({ type: "reply", payload: { toId: "user-1" } });
  });
});

describe("the secret", () => {
  const { body, headers } = signed(reply);

  it.each([
    ["unset", undefined, /not set: set INTAKE_WEBHOOK_SECRET to the account's webhook secret/],
    ["empty", "", /empty: set INTAKE_WEBHOOK_SECRET/],
    ["blank", "  ", /empty: set INTAKE_WEBHOOK_SECRET/],
    ["only the prefix", "whsec_", /not one: Secret can't be empty\. Set INTAKE_WEBHOOK_SECRET/],
    ["not base64", "whsec_not base64!", /not one: Base64Coder: incorrect characters for decoding\. Set INTAKE_WEBHOOK_SECRET/],
  ])("%s is a WebhookSecretError (a configuration error, not a bad signature), whatever the request", (_, secret, message) => {
    for (const request of [
      { body, headers },
      { body: "", headers: {} },
    ]) {
      const error = (() => {
        try {
          verifyWebhook(secret, request.body, request.headers);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(WebhookSecretError);
      expect(error).not.toBeInstanceOf(WebhookVerificationError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it("is checked when a verifier is created, before any webhook is judged", () => {
    expect(() => createWebhookVerifier(undefined)).toThrow(WebhookSecretError);
    expect(createWebhookVerifier(SECRET)(body, headers)).toEqual({ type: "reply", id: "msg_1", payload: reply });
  });
});
