/**
 * The agency's auto-recharge receiver. Intake posts a signed webhook when a sub-account's balance
 * falls below its threshold; the same recharge can arrive more than once (a retry, a duplicate).
 * For each idempotency_key, exactly once: charge the customer, then grant the credits.
 *
 * Every step is recorded in a durable log before the next starts, and each step is safe to
 * repeat:
 *   - charged, not recorded (a crash in between): Intake retries the webhook; the charge is made
 *     again with the same key and the payment provider returns the first payment;
 *   - recorded as charged, not granted: the next delivery, or resumePending (run at start and on
 *     a timer, so it does not depend on Intake retrying), makes the grant;
 *   - granted, not recorded: the grant is repeated with the same Idempotency-Key and Intake
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
  // Two runs of one recharge at the same moment (two deliveries, a delivery and the sweep): the
  // second waits for the first.
  const inFlight = new Map<string, Promise<Outcome>>();
  const now = () => new Date().toISOString();

  function once(key: string, run: () => Promise<Outcome>): Promise<Outcome> {
    let running = inFlight.get(key);
    if (!running) {
      running = run().finally(() => inFlight.delete(key));
      inFlight.set(key, running);
    }
    return running;
  }

  async function grant(key: string, state: Extract<RechargeState, { step: "charged" }>): Promise<Outcome> {
    const result = await intake.subaccounts.grantCredits(grantRequest(state.request, state.paymentId), { idempotencyKey: key });
    const granted: RechargeState = {
      step: "granted",
      paymentId: state.paymentId,
      creditsAdded: result.credits_added,
      newBalance: result.new_balance,
      at: now(),
    };
    await log.set(key, granted);
    return { ...granted, idempotencyKey: key, repeated: false };
  }

  async function recharge(request: AutoRechargeWebhookPayload): Promise<Outcome> {
    const key = request.idempotency_key;
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
        state = { step: "charged", paymentId, request, at: now() };
      } catch (error) {
        if (!(error instanceof PaymentDeclined)) throw error;
        state = { step: "declined", reason: error.message, at: now() };
      }
      await log.set(key, state);
      if (state.step === "declined") return { ...state, idempotencyKey: key, repeated: false };
    }
    return grant(key, state);
  }

  /** Verifies the webhook and runs its recharge once, however often it arrives. */
  async function receive(rawBody: string, headers: IncomingMessage["headers"]): Promise<Outcome> {
    const event = verifyWebhook(options.webhookSecret, rawBody, headers);
    if (event.type !== "auto_recharge")
      throw new WrongWebhook("This address takes auto-recharge webhooks; reply webhooks go to the Custom Channel Webhook.");
    return once(event.payload.idempotency_key, () => recharge(event.payload));
  }

  /**
   * Grants every recharge that was charged but not granted: Intake refused the grant, or the
   * receiver was down past Intake's last retry. Run it at start and on a timer; the grant's
   * Idempotency-Key makes a repeat harmless (Intake remembers a key for 24 hours). What Intake
   * still refuses stays pending and comes back in `failed`, for a person to fix or refund.
   */
  async function resumePending(): Promise<{ granted: Outcome[]; failed: Array<{ idempotencyKey: string; error: unknown }> }> {
    const granted: Outcome[] = [];
    const failed: Array<{ idempotencyKey: string; error: unknown }> = [];
    for (const [key] of log.pending()) {
      try {
        granted.push(
          await once(key, async () => {
            const state = log.get(key);
            return state?.step === "charged" ? grant(key, state) : { ...state!, idempotencyKey: key, repeated: true };
          }),
        );
      } catch (error) {
        failed.push({ idempotencyKey: key, error });
      }
    }
    return { granted, failed };
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

  return { handle, receive, resumePending };
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
  // The customer paid but Intake refused the grant (no such sub-account, say): it stays recorded
  // as charged, and resumePending grants it once the cause is fixed.
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
