/**
 * @intake/client/webhooks: checks that a webhook came from Intake (Standard Webhooks signature,
 * a recent timestamp) and returns its payload, typed by kind. Kept out of the main entry so the
 * SDK stays small for code that only calls the API.
 *
 * ```ts
 * // Once, at start: an unset or malformed secret throws WebhookSecretError here.
 * const verify = createWebhookVerifier(process.env.INTAKE_WEBHOOK_SECRET);
 * // Per request: a webhook that is not Intake's throws WebhookVerificationError (answer 400).
 * const event = verify(rawBody, request.headers);
 * if (event.type === "reply") deliverToUser(event.payload.toId, event.payload.body);
 * ```
 */
import type { AutoRechargeWebhookPayload, ReplyWebhookPayload } from "@intake/spec";
import { Webhook } from "standardwebhooks";
import { webhookKind } from "./webhook-kind.js";

export type { AutoRechargeWebhookPayload, ReplyWebhookPayload };

export type IntakeWebhook =
  | { type: "reply"; id: string; payload: ReplyWebhookPayload }
  | { type: "auto_recharge"; id: string; payload: AutoRechargeWebhookPayload }
  /** Signed by Intake, but not the shape of a webhook this version of the client knows (a newer kind, or a changed one). */
  | { type: "unknown"; id: string; payload: unknown };

/** The webhook is not one Intake signed (or not a recent one): answer it with a 4xx. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

/**
 * The secret is unset or not a webhook secret: every webhook would fail, genuine ones included.
 * A fault of this program's configuration, not of the request: answer 500 and fix the setting.
 */
export class WebhookSecretError extends Error {
  override name = "WebhookSecretError";
}

/** The variable the README and the examples keep the secret in. */
const SECRET_VARIABLE = "INTAKE_WEBHOOK_SECRET";

/**
 * A verifier for one secret (`whsec_...`), checked now: an unset, empty or malformed secret throws
 * WebhookSecretError at once, before any webhook is judged. Pass `process.env.INTAKE_WEBHOOK_SECRET`
 * as it is; `undefined` is the error, not a type error.
 */
export function createWebhookVerifier(secret: string | undefined): (rawBody: string | Uint8Array, headers: HeaderBag) => IntakeWebhook {
  const webhook = checkedSecret(secret);
  return (rawBody, headers) => verifyWith(webhook, rawBody, headers);
}

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/**
 * The verified webhook. `rawBody` must be the body exactly as received (parsing and
 * re-serialising it changes the bytes the signature covers). Throws WebhookSecretError for an
 * unset or malformed `secret`, before looking at the request; WebhookVerificationError for a
 * missing header, a signature that does not match `secret` (`whsec_...`), or a timestamp more than
 * 5 minutes from now.
 */
export function verifyWebhook(secret: string | undefined, rawBody: string | Uint8Array, headers: HeaderBag): IntakeWebhook {
  return verifyWith(checkedSecret(secret), rawBody, headers);
}

function checkedSecret(secret: string | undefined): Webhook {
  if (typeof secret !== "string" || secret.trim() === "") {
    throw new WebhookSecretError(
      `The webhook secret is ${secret === undefined ? "not set" : "empty"}: set ${SECRET_VARIABLE} to the account's webhook secret (whsec_..., from Settings > Custom Channel Webhook; on the reference server, the account's webhookSecret in GET /__admin/accounts/{id}). Every webhook would otherwise be refused, genuine ones included.`,
    );
  }
  try {
    return new Webhook(secret);
  } catch (error) {
    throw new WebhookSecretError(
      `The webhook secret is not one: ${(error as Error).message.replace(/\.*$/, "")}. Set ${SECRET_VARIABLE} to the account's webhook secret exactly as shown (whsec_ followed by base64).`,
      { cause: error },
    );
  }
}

function verifyWith(webhook: Webhook, rawBody: string | Uint8Array, headers: HeaderBag): IntakeWebhook {
  const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const flat = flatten(headers);
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
    if (!flat[name]) throw new WebhookVerificationError(`The ${name} header is missing: this is not a webhook from Intake.`);
  }
  let payload: unknown;
  try {
    payload = webhook.verify(body, flat);
  } catch (error) {
    const message = (error as Error).message;
    // The library checks the timestamp before the signature: for a timestamp out of range, the
    // signature is checked here, so the message points at the clock only when the secret is right.
    if (/timestamp too (old|new)/i.test(message) && signatureMatches(webhook, body, flat)) {
      throw new WebhookVerificationError(
        `The webhook's timestamp (webhook-timestamp ${flat["webhook-timestamp"]}, ${Math.round(Date.now() / 1000)} here) is more than 5 minutes from this machine's clock, though its signature is right: a webhook replayed late, or a clock out of step. Check this machine's clock (NTP).`,
        { cause: error },
      );
    }
    throw new WebhookVerificationError(
      `The webhook's signature does not verify: ${message}. Check the secret (Settings > Custom Channel Webhook; on the reference server, the account's webhookSecret in GET /__admin/accounts/{id}) and pass the raw body.`,
      {
        cause: error,
      },
    );
  }
  const id = flat["webhook-id"]!;
  const kind = webhookKind(payload);
  if (kind === "reply") return { type: kind, id, payload: payload as ReplyWebhookPayload };
  if (kind === "auto_recharge") return { type: kind, id, payload: payload as AutoRechargeWebhookPayload };
  return { type: "unknown", id, payload };
}

/** Whether one of the v1 signatures is this secret's over the body at the header's own timestamp. */
function signatureMatches(webhook: Webhook, body: string, flat: Record<string, string>): boolean {
  const seconds = Number(flat["webhook-timestamp"]);
  if (!Number.isFinite(seconds)) return false;
  let expected: string;
  try {
    expected = webhook.sign(flat["webhook-id"]!, new Date(seconds * 1000), body).split(",")[1]!;
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
