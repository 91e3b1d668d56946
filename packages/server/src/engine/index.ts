/**
 * The engine: what happens after an operation has changed the state. It hears the domain events
 * and does its work through the durable scheduler, writing through the domain operations like
 * everyone else: the bot's answer and its delivery, the funnel's opening messages and follow-ups,
 * webhook attempts. It also moves the virtual clock, running what falls due on the way.
 */
import { advanceBy, clockAdvanced } from "../domain/clock.js";
import type { Domain } from "../domain/domain.js";
import type { Redact } from "../domain/secrets.js";
import type { VirtualClock } from "../shared/clock.js";
import { botInfoOf, defaultBot, type Bot } from "./bot.js";
import { askBotAgain, followUpKey, startConversations } from "./conversation.js";
import { WEBHOOK_DEFAULTS, startDeliveries, type FetchLike, type WebhookOptions } from "./delivery.js";
import { followUpStatus } from "./follow-up-status.js";
import { FUNNEL_DEFAULTS, startFunnel, type FunnelOptions } from "./funnel.js";
import { Scheduler } from "./scheduler.js";
import { sendTestWebhook } from "./test-webhook.js";
import type { AccountRecord, ContactRecord, MessageRecord } from "../store/models.js";

export interface EngineOptions {
  /**
   * What answers received messages. Default: the deterministic bot. A model on any
   * OpenAI-compatible endpoint: `createModelBot({ model })` from `@intake/server/node`.
   */
  bot?: Bot | undefined;
  webhooks?: Partial<WebhookOptions> | undefined;
  funnel?: Partial<FunnelOptions> | undefined;
}

export interface EngineDeps {
  domain: Domain;
  fetch: FetchLike;
  onError: (error: unknown) => void;
  /** Run jobs one at a time (deterministic mode). */
  sequential: boolean;
  /** Takes every configured secret out of words from outside (a bot's error, a webhook receiver's answer) before they are kept. */
  redact: Redact;
}

export type Engine = ReturnType<typeof createEngine>;

export function createEngine({ domain, fetch, onError, sequential, redact }: EngineDeps, options: EngineOptions = {}) {
  const scheduler = new Scheduler(domain, onError, sequential);
  const webhooks = { ...WEBHOOK_DEFAULTS, ...options.webhooks };
  startDeliveries({ domain, scheduler, fetch, options: webhooks, random: () => domain.ids.random(), redact });
  const bot = options.bot ?? defaultBot;
  startConversations({ domain, scheduler, bot, onError, redact });
  const funnel = startFunnel({ domain, scheduler, options: { ...FUNNEL_DEFAULTS, ...options.funnel } });

  /** Picks the stored jobs up (at start, and once the state was replaced). */
  const start = () => {
    funnel.restore();
    scheduler.restore();
  };

  return {
    start,
    /** Where a contact's follow-ups stand: the next due, and why none will go. */
    followUps: (contact: ContactRecord) => followUpStatus(domain, contact, scheduler.keyed(followUpKey(contact.id))),
    /** Asks the bot again about a received message whose answer failed (409 for any other). */
    askBotAgain: (message: MessageRecord) => askBotAgain(domain, scheduler, message),
    /** The bot that answers received messages (GET /__admin/bot). */
    botInfo: () => botInfoOf(bot),
    /** Resolves once nothing is running (work due later waits for its time). */
    settle: () => scheduler.settle(),
    /** Pending jobs, soonest first. */
    pending: () => scheduler.pending(),
    /**
     * Runs `replace` (a reset, a restore) with no work in flight: what is running is aborted and
     * waited for first, so none of it lands in the new state; then the stored jobs are picked up.
     */
    async whilePaused<T>(replace: () => T): Promise<T> {
      await scheduler.quiesce();
      try {
        return replace();
      } finally {
        start();
      }
    },
    /**
     * A commit failed and the state is being put back to what the data file holds: the work in
     * flight ends at once (nothing it does after lands) and none starts until `resume`, so the
     * engine does not redo and lose its work again while saving fails.
     */
    suspend: () => scheduler.suspend(),
    /** Saving works again: the stored jobs are picked up, as after a restart. */
    resume(): void {
      funnel.restore();
      scheduler.resume();
    },
    /** Moves a virtual clock: work already started finishes first, then whatever falls due on the way runs in order. */
    async advanceClock(by: { ms?: number; to?: string }): Promise<void> {
      const ms = advanceBy(domain, by);
      await scheduler.settle();
      await (domain.clock as VirtualClock).advance(ms);
      await scheduler.settle();
      clockAdvanced(domain);
    },
    /** One signed POST to the account's webhook URL now, with a sample payload; not a delivery. */
    testWebhook: (account: AccountRecord) => sendTestWebhook(domain, fetch, account, webhooks.timeoutMs, redact),
    /** Stops, aborting webhook attempts in flight; what did not finish stays stored for a restart. */
    close: () => scheduler.close(),
  };
}
