/**
 * @intake/client/webhooks: checks that a webhook came from Intake (Standard Webhooks signature,
 * a recent timestamp) and returns its payload, typed by kind. Kept out of the main entry so the
 * SDK stays small for code that only calls the API.
 *
 * ```ts
 * const event = verifyWebhook(process.env.INTAKE_WEBHOOK_SECRET, rawBody, request.headers);
 * if (event.type === "reply") deliverToUser(event.payload.toId, event.payload.body);
 * ```
 */
import type { AutoRechargeWebhookPayload, ReplyWebhookPayload } from "@intake/spec";
import { Webhook } from "standardwebhooks";

export type { AutoRechargeWebhookPayload, ReplyWebhookPayload };

export type IntakeWebhook =
  | { type: "reply"; id: string; payload: ReplyWebhookPayload }
  | { type: "auto_recharge"; id: string; payload: AutoRechargeWebhookPayload };

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/**
 * The verified webhook. `rawBody` must be the body exactly as received (parsing and
 * re-serialising it changes the bytes the signature covers). Throws WebhookVerificationError for
 * a missing header, a signature that does not match `secret` (`whsec_...`), or a timestamp more
 * than 5 minutes from now.
 */
export function verifyWebhook(secret: string, rawBody: string | Uint8Array, headers: HeaderBag): IntakeWebhook {
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const flat = flatten(headers);
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    if (!flat[name]) throw new WebhookVerificationError(`The ${name} header is missing: this is not a webhook from Intake.`);
  }
  let payload: unknown;
  try {
    payload = new Webhook(secret).verify(body, flat);
  } catch (error) {
    const message = (error as Error).message;
    // The library checks the timestamp before the signature: for a timestamp out of range, the
    // signature is checked here, so the message points at the clock only when the secret is right.
    if (/timestamp too (old|new)/i.test(message) && signatureMatches(secret, body, flat)) {
      throw new WebhookVerificationError(
        `The webhook's timestamp (webhook-timestamp ${flat["webhook-timestamp"]}, ${Math.round(Date.now() / 1000)} here) is more than 5 minutes from this machine's clock, though its signature is right: a webhook replayed late, or a clock out of step. Check this machine's clock (NTP).`,
        { cause: error },
      );
    }
    throw new WebhookVerificationError(`The webhook's signature does not verify: ${message}. Check the secret (Settings > Custom Channel Webhook; on the reference server, the account's webhookSecret in GET /__admin/accounts/{id}) and pass the raw body.`, {
      cause: error,
    });
  }
  const id = flat["webhook-id"]!;
  if (payload && typeof payload === "object" && "idempotency_key" in payload) {
    return { type: "auto_recharge", id, payload: payload as AutoRechargeWebhookPayload };
  }
  return { type: "reply", id, payload: payload as ReplyWebhookPayload };
}

/** Whether one of the v1 signatures is this secret's over the body at the header's own timestamp. */
function signatureMatches(secret: string, body: string, flat: Record<string, string>): boolean {
  const seconds = Number(flat["webhook-timestamp"]);
  if (!Number.isFinite(seconds)) return false;
  let expected: string;
  try {
    expected = new Webhook(secret).sign(flat["webhook-id"]!, new Date(seconds * 1000), body).split(",")[1]!;
  } catch {
    return false;
  }
  return flat["webhook-signature"]!.split(" ").some((entry) => {
    const [version, signature = ""] = entry.split(",");
    return version === "v1" && sameText(signature, expected);
  });
}

/** Equal texts, in a time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return difference === 0;
}

function flatten(headers: HeaderBag): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === "function" && typeof (headers as Headers).get === "function") {
    (headers as Headers).forEach((value, name) => (out[name.toLowerCase()] = value));
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    const one = Array.isArray(value) ? value[0] : value;
    if (one !== undefined) out[name.toLowerCase()] = one;
  }
  return out;
}
