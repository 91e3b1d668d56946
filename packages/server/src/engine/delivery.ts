/**
 * Sending outgoing webhooks (replies on a custom channel, auto-recharge requests), signed per
 * Standard Webhooks with the account's secret (each POST: webhook-post.ts). A 2xx is success; an
 * error status, a timeout or a failed connection is retried with exponential backoff and jitter (or after the receiver's
 * Retry-After), up to a bounded number of attempts, then Failed with the error kept. Every
 * attempt is recorded. Attempts go out through a bounded pool: a few at a time per URL, and a
 * limit in all; a delivery waiting for its turn is its stored record and job, nothing more, so a
 * receiver that is slow or down makes its own deliveries wait and holds up nothing else.
 */
import { currentUrl, giveUp, recordAttempt, retarget } from "../domain/deliveries.js";
import type { Domain } from "../domain/domain.js";
import type { Redact } from "../domain/secrets.js";
import { webhookUrlProblem } from "../shared/webhook-url.js";
import type { JobPayloads } from "../store/job-payloads.js";
import { DEFER, type Scheduler } from "./scheduler.js";
import { postWebhook, type FetchLike } from "./webhook-post.js";

export type { FetchLike } from "./webhook-post.js";

export interface WebhookOptions {
  /** Time allowed for the receiver to answer, in real milliseconds. Default 10 000. */
  timeoutMs: number;
  /** Attempts in all, the first included. Default 6. */
  maxAttempts: number;
  /** Wait before the second attempt; each further wait is `factor` times longer. Default 5 000. */
  initialDelayMs: number;
  /** Default 4: waits of 5 s, 20 s, 80 s, 5 min 20 s, 21 min 20 s. */
  factor: number;
  /** Cap of one wait (a Retry-After included). Default 1 hour. */
  maxDelayMs: number;
  /** Each wait is moved by up to this fraction either way, so receivers are not hit in step. Default 0.2. */
  jitter: number;
  /** Attempts in flight at once to one URL. Default 4. */
  concurrencyPerUrl: number;
  /** Attempts in flight at once, all URLs together. Default 64. */
  concurrency: number;
}

export const WEBHOOK_DEFAULTS: WebhookOptions = {
  timeoutMs: 10_000,
  maxAttempts: 6,
  initialDelayMs: 5_000,
  factor: 4,
  maxDelayMs: 3_600_000,
  jitter: 0.2,
  concurrencyPerUrl: 4,
  concurrency: 64,
};

export interface DeliveryDeps {
  domain: Domain;
  scheduler: Scheduler;
  fetch: FetchLike;
  options: WebhookOptions;
  /** A number in [0, 1): Math.random, or a seeded generator in deterministic mode. */
  random: () => number;
  redact: Redact;
}

/** Sends each delivery queued (`delivery.queued`), attempt after attempt, through the scheduler's pool. */
export function startDeliveries({ domain, scheduler, fetch, options, random, redact }: DeliveryDeps): void {
  const { store, clock } = domain;

  /** The lane a due delivery waits in: the URL it goes to now. */
  function laneOf({ deliveryId }: JobPayloads["deliver"]): string {
    const delivery = store.delivery.get(deliveryId);
    const account = delivery && store.account.get(delivery.accountId);
    return (delivery && account && currentUrl(delivery, account)) ?? "";
  }

  scheduler.on("deliver", async ({ deliveryId }, { signal }) => attempt(deliveryId, signal), {
    laneOf,
    perLane: options.concurrencyPerUrl,
    total: options.concurrency,
  });
  domain.events.on(["delivery.queued"], ({ delivery }) => void scheduler.add("deliver", { deliveryId: delivery.id }));

  async function attempt(id: string, signal: AbortSignal): Promise<void | typeof DEFER> {
    const delivery = store.delivery.get(id);
    if (!delivery || delivery.state !== "pending") return;
    const account = store.account.get(delivery.accountId);
    const url = account && currentUrl(delivery, account);
    const setting =
      delivery.kind === "reply" ? "Custom Channel Webhook URL (Settings > Custom Channel Webhook)" : "agency's auto-recharge URL";
    if (!url || !account) {
      const field = delivery.kind === "reply" ? "webhookUrl" : "autoRechargeUrl";
      const where = account
        ? ` Set it with PATCH /__admin/accounts/${account.id} (${field}), or at /__dashboard/settings?account=${account.id}.`
        : "";
      return giveUp(domain, delivery, `No ${setting} is set, so there is nowhere to deliver.${where}`);
    }
    // Every way a URL comes in refuses such a one (domain/accounts.ts, domain/records-check.ts);
    // checked again where it is used all the same: nothing is sent there, and retrying would not help.
    const problem = webhookUrlProblem(url, domain.rules.allowHttpWebhooks);
    if (problem) return giveUp(domain, delivery, `Not delivered: the ${setting} ${problem}`);
    if (url !== delivery.url) retarget(domain, delivery, url);
    const startedAt = clock.now();
    const signed = { url, secret: account.webhookSecret, webhookId: delivery.webhookId, payload: delivery.payload };
    const outcome = signal.aborted ? DEFER : await postWebhook(fetch, signed, options.timeoutMs, signal, redact);
    // Stopping or replacing the state: the attempt did not happen (or its end is unknown); its job stays.
    if (outcome === DEFER || signal.aborted) return DEFER;
    const number = delivery.attempts + 1;
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const nextAttemptAt = ok || number >= options.maxAttempts ? null : clock.now() + waitBefore(number, outcome.retryAfterMs);
    const { retryAfterMs: _, ...attempt } = outcome;
    recordAttempt(domain, delivery, { ...attempt, startedAt: new Date(startedAt).toISOString() }, nextAttemptAt);
    if (nextAttemptAt !== null) scheduler.add("deliver", { deliveryId: delivery.id }, nextAttemptAt);
  }

  /** The wait after attempt `number`: the receiver's Retry-After if it gave one, else backoff with jitter. */
  function waitBefore(number: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return Math.min(retryAfterMs, options.maxDelayMs);
    const base = Math.min(options.maxDelayMs, options.initialDelayMs * options.factor ** (number - 1));
    return Math.round(base * (1 + options.jitter * (2 * random() - 1)));
  }
}
