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
    // A timestamp out of range says nothing of the secret: point at the clock, not the secret.
    if (/timestamp too (old|new)/i.test(message)) {
      throw new WebhookVerificationError(
        `The webhook's timestamp (webhook-timestamp ${flat["webhook-timestamp"]}, ${Math.round(Date.now() / 1000)} here) is more than 5 minutes from this machine's clock: a webhook replayed late, or a clock out of step. Check this machine's clock (NTP); the secret is not the cause.`,
        { cause: error },
      );
    }
    throw new WebhookVerificationError(`The webhook's signature does not verify: ${message}. Check the secret (Settings > Custom Channel Webhook) and pass the raw body.`, {
      cause: error,
    });
  }
  const id = flat["webhook-id"]!;
  if (payload && typeof payload === "object" && "idempotency_key" in payload) {
    return { type: "auto_recharge", id, payload: payload as AutoRechargeWebhookPayload };
  }
  return { type: "reply", id, payload: payload as ReplyWebhookPayload };
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
