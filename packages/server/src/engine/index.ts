/**
 * The engine: what happens after an operation has changed the state. It listens to the domain
 * events the operations emit and does its work through the durable scheduler: the bot's answer
 * and its delivery, the funnel's opening messages and follow-ups, credit charges and auto-recharge
 * requests.
 */
import type { Clock } from "../shared/clock.js";
import type { IdSource } from "../shared/ids.js";
import type { AccountRecord, JobRecord } from "../store/models.js";
import type { Store } from "../store/store.js";
import { defaultBot, type Bot } from "./bot.js";
import { createConversations } from "./conversation.js";
import { createCredits } from "./credits.js";
import { WEBHOOK_DEFAULTS, createDeliveries, type FetchLike, type WebhookOptions } from "./delivery.js";
import type { DomainEvents } from "./events.js";
import { FUNNEL_DEFAULTS, createFunnel, type FunnelOptions } from "./funnel.js";
import { Scheduler } from "./scheduler.js";

export interface EngineOptions {
  bot?: Bot;
  /** For outgoing webhooks. Default: globalThis.fetch, looked up at each call. */
  fetch?: FetchLike;
  webhooks?: Partial<WebhookOptions>;
  funnel?: Partial<FunnelOptions>;
  duplicateRechargeWebhooks?: boolean;
  /**
   * Let webhook URLs (webhookUrl, autoRechargeUrl) be plain http:// to any host. Default false:
   * https:// to any host, http:// only to a loopback one (localhost, 127.0.0.0/8, [::1]).
   */
  allowHttpWebhooks?: boolean;
}

export interface EngineDeps {
  store: Store;
  clock: Clock;
  ids: IdSource;
  events: DomainEvents;
  random: () => number;
  onError: (error: unknown) => void;
  /** Run jobs one at a time (deterministic mode). */
  sequential?: boolean;
}

export type Engine = ReturnType<typeof createEngine>;

export function createEngine(deps: EngineDeps, options: EngineOptions = {}) {
  const { store, clock, events, onError } = deps;
  const scheduler = new Scheduler(store, clock, deps.ids, onError, deps.sequential ?? false);
  const deliveries = createDeliveries({
    store,
    clock,
    scheduler,
    events,
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    options: { ...WEBHOOK_DEFAULTS, ...options.webhooks },
    allowHttp: options.allowHttpWebhooks ?? false,
    random: deps.random,
  });
  const credits = createCredits({ store, deliveries, duplicateRechargeWebhooks: options.duplicateRechargeWebhooks ?? false });
  const conversations = createConversations({ store, scheduler, events, deliveries, credits, bot: options.bot ?? defaultBot, onError });
  const funnel = createFunnel({ store, clock, scheduler, events, credits, options: { ...FUNNEL_DEFAULTS, ...options.funnel } });

  return {
    humanReply: conversations.humanReply,
    redeliver: deliveries.redeliver,
    /** Resolves once nothing is running (work due later waits for its time). */
    settle: () => scheduler.settle(),
    pending: () => scheduler.pending(),
    /** Tells `listener` of each job that ran to its end (not one cancelled, nor one a stop cut short). */
    onJobRan: (listener: (job: JobRecord) => void) => scheduler.onRan(listener),
    /** Before the state is replaced: work in flight is aborted and waited for, so none of it lands in the new state. */
    quiesce: () => scheduler.quiesce(),
    /** Picks the stored jobs up again after the state was replaced (start, reset, restore). */
    restore() {
      funnel.restore();
      scheduler.restore();
    },
    /** A debit made outside the engine (an admin adjustment) may cross an auto-recharge threshold too. */
    debited: (account: AccountRecord, before: number) => credits.requestRecharge(account, before),
    /** Stops, aborting webhook attempts in flight; what did not finish stays stored for a restart. */
    close: () => scheduler.close(),
  };
}
