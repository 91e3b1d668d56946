/**
 * Whether a request's Standard Webhooks signature verifies with an account's webhook secret, as
 * a receiver checks it (the `standardwebhooks` package, which the engine signs with): its
 * `webhook-id`, `webhook-timestamp` within 5 minutes of the wall clock, and a `webhook-signature`
 * that matches the body. When it does not, the reason says which of them failed.
 */
import { Webhook } from "standardwebhooks";

export interface SignatureCheck {
  verified: boolean;
  /** Why it does not verify; null when it does. */
  reason: string | null;
}

const HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

/** What the library's errors mean, in words that say what to look at. */
const REASONS: Record<string, string> = {
  "Invalid Signature Headers": "webhook-timestamp is not a number of seconds.",
  "Message timestamp too old": "webhook-timestamp is more than 5 minutes before the wall clock: a replay, or a sender's clock that is off.",
  "Message timestamp too new": "webhook-timestamp is more than 5 minutes after the wall clock: a sender's clock that is off.",
  "No matching signature found":
    "No signature in webhook-signature matches this body signed with the account's webhook secret: the body, the webhook-id or the timestamp changed on the way, or another secret signed it.",
};

export function checkSignature(secret: string, body: string, header: (name: string) => string | null): SignatureCheck {
  const missing = HEADERS.filter((name) => !header(name));
  if (missing.length) {
    const names =
      missing.length === 1 ? `The ${missing[0]} header is` : `The ${missing.slice(0, -1).join(", ")} and ${missing.at(-1)} headers are`;
    return { verified: false, reason: `${names} missing: the request is not signed as Standard Webhooks signs it.` };
  }
  const headers = Object.fromEntries(HEADERS.map((name) => [name, header(name) ?? ""]));
  try {
    new Webhook(secret).verify(body, headers, { jsonParse: false });
    return { verified: true, reason: null };
  } catch (error) {
    const message = (error as Error).message;
    return { verified: false, reason: REASONS[message] ?? message };
  }
}
