/**
 * The agency's auto-recharge receiver. Intake posts a signed webhook when a sub-account's balance
 * falls below its threshold; the same recharge can arrive more than once (a retry, a duplicate).
 * For each idempotency_key, exactly once: charge the customer, then grant the credits.
 *
 * Every step is recorded in a durable log before the next starts, and each step is safe to
 * repeat, so a crash or an error at any point is mended by the next delivery:
 *   - charged, not recorded: the payment provider returns the same payment for the same key;
 *   - recorded as charged, not granted: the grant is made;
 *   - granted, not recorded: the grant is retried with the same Idempotency-Key and Intake
 *     answers with the first grant instead of granting again.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { IntakeApiError, RateLimitError, type AutoRechargeWebhookPayload, type IntakeClient } from "@intake/client";
import { verifyWebhook, WebhookVerificationError } from "@intake/client/webhooks";
import { PaymentDeclined, type Payments } from "./payments.js";
import type { RechargeLog, RechargeState } from "./recharge-log.js";

export interface RechargeReceiverOptions {
  /** The agency's client (header form: `/subaccounts/credits` takes the key in `x-api-key`). */
  intake: IntakeClient<"header">;
  /** The agency's `whsec_…` webhook secret. */
  webhookSecret: string;
  log: RechargeLog;
  payments: Payments;
  /** What one credit costs the sub-account's customer, in cents. */
  centsPerCredit: number;
}

export type Outcome = RechargeState & { idempotencyKey: string; repeated: boolean };

const MAX_BODY_BYTES = 64 * 1024;

export function createRechargeReceiver(options: RechargeReceiverOptions) {
  const { intake, log, payments } = options;
  // Two deliveries of one recharge at the same moment: the second waits for the first.
  const inFlight = new Map<string, Promise<Outcome>>();

  async function recharge(request: AutoRechargeWebhookPayload): Promise<Outcome> {
    const key = request.idempotency_key;
    const now = () => new Date().toISOString();
    let state = log.get(key);
    if (state?.step === "granted" || state?.step === "declined") return { ...state, idempotencyKey: key, repeated: true };
    if (!state) {
      try {
        const { paymentId } = await payments.charge({
          customerEmail: request.email,
          amountCents: request.amount * options.centsPerCredit,
          idempotencyKey: key,
          description: `${request.amount} messaging credits`,
        });
        state = { step: "charged", paymentId, at: now() };
      } catch (error) {
        if (!(error instanceof PaymentDeclined)) throw error;
        state = { step: "declined", reason: error.message, at: now() };
      }
      await log.set(key, state);
      if (state.step === "declined") return { ...state, idempotencyKey: key, repeated: false };
    }
    const grant = await intake.subaccounts.grantCredits(grantRequest(request, state.paymentId), { idempotencyKey: key });
    const granted: RechargeState = { step: "granted", paymentId: state.paymentId, creditsAdded: grant.credits_added, newBalance: grant.new_balance, at: now() };
    await log.set(key, granted);
    return { ...granted, idempotencyKey: key, repeated: false };
  }

  /** Verifies the webhook and runs its recharge once, however often it arrives. */
  async function receive(rawBody: string, headers: IncomingMessage["headers"]): Promise<Outcome> {
    const event = verifyWebhook(options.webhookSecret, rawBody, headers);
    if (event.type !== "auto_recharge") throw new WrongWebhook("This address takes auto-recharge webhooks; reply webhooks go to the Custom Channel Webhook.");
    const key = event.payload.idempotency_key;
    let running = inFlight.get(key);
    if (!running) {
      running = recharge(event.payload).finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
  }

  /** `POST /intake/recharge`. Non-2xx answers make Intake retry, so they are kept for what a retry can mend. */
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (`${req.method} ${req.url?.split("?")[0]}` !== "POST /intake/recharge") return answer(res, 404, { error: "POST /intake/recharge" });
    try {
      const outcome = await receive(await readBody(req), req.headers);
      return answer(res, 200, outcome);
    } catch (error) {
      const [status, text] = failure(error);
      return answer(res, status, { error: text });
    }
  }

  return { handle, receive };
}

/**
 * The grant for a recharge. A retry must send exactly this again: Intake answers a reused
 * Idempotency-Key with the first result only when the request is the same.
 */
export function grantRequest(request: AutoRechargeWebhookPayload, paymentId: string) {
  return { email: request.email, amount: request.amount, description: `Auto-recharge, payment ${paymentId}` };
}

class WrongWebhook extends Error {}
class TooLarge extends Error {}

function failure(error: unknown): [number, string] {
  if (error instanceof WebhookVerificationError) return [401, error.message];
  if (error instanceof WrongWebhook || error instanceof TooLarge) return [400, error.message];
  // The customer paid but Intake refused the grant (no such sub-account, say): a retry will not
  // mend it. The recharge stays recorded as charged, so a redelivery after the fix grants it.
  if (error instanceof IntakeApiError && error.status < 500 && !(error instanceof RateLimitError)) {
    return [422, `Charged but not granted: ${error.message}`];
  }
  return [502, (error as Error).message];
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new TooLarge(`The body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  // The signature covers the bytes as sent: decode once, never re-serialise.
  return Buffer.concat(chunks).toString("utf8");
}

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
