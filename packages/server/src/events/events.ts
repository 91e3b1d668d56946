/**
 * What happens in the service, as one typed union. Domain operations publish these after they
 * change the state, and the pipeline publishes `request.answered`; the data file's write-through,
 * the live feed (GET /__admin/events, the CLI's log), the engine and the journal subscribe.
 */
import type { components } from "../generated/admin.js";
import type * as Stored from "../store/models.js";
import type { Change } from "../store/store.js";

/** What the bot did with a received message, kept on it as `botOutcome`. */
export type BotOutcome =
  | "replied"
  | "handed_off"
  | "no_answer"
  | "reaction"
  | "no_campaign"
  | "outgoing_campaign"
  | "campaign_not_live"
  | "bot_inactive"
  | "contact_paused"
  | "no_credits"
  | "bot_error"
  | BotFailure;

/** Why a bot gave no answer (its `{ failed }` answer): a model-backed bot's model did not answer. */
export const BOT_FAILURES = [
  "bot_unconfigured",
  "bot_refused",
  "bot_timeout",
  "bot_rate_limited",
  "bot_unavailable",
  "bot_empty_answer",
  "bot_oversized_answer",
  "bot_not_recorded",
] as const;
export type BotFailure = (typeof BOT_FAILURES)[number];

/** How a contact joined a list: the funnel trigger treats an API add and an import differently. */
export type JoinSource = "api" | "manual" | "import";

export type DomainEvent =
  | { type: "account.created" | "account.updated"; account: Stored.AccountRecord }
  | { type: "credits.changed"; account: Stored.AccountRecord; transaction: Stored.CreditTransactionRecord }
  /** `campaign.deleted`, `list.deleted`, `contact.deleted`: the record is gone, and with it what the deletion took (domain/deletions.ts). */
  | { type: "campaign.created" | "campaign.updated" | "campaign.deleted"; campaign: Stored.CampaignRecord }
  | { type: "list.created" | "list.updated" | "list.deleted"; list: Stored.ListRecord }
  /** `batch` names the contacts that joined together and `batchSize` counts them (1 for an API add). */
  | {
      type: "list.joined";
      list: Stored.ListRecord;
      contact: Stored.ContactRecord;
      source: JoinSource | "seed";
      batch: string;
      batchSize: number;
    }
  | { type: "contact.created" | "contact.updated" | "contact.deleted"; contact: Stored.ContactRecord }
  | { type: "message.received"; message: Stored.MessageRecord; contact: Stored.ContactRecord }
  /** An outgoing message recorded, whatever its status (sent, pending delivery, not sent). */
  | { type: "message.sent"; message: Stored.MessageRecord; contact: Stored.ContactRecord }
  /** Its status or error changed (a delivery finished). */
  | { type: "message.updated"; message: Stored.MessageRecord }
  /** `error`: what went wrong, when the bot was asked and gave no answer (the message's `bot.error`). */
  | { type: "bot.outcome"; message: Stored.MessageRecord; outcome: BotOutcome; error: string | null }
  | { type: "alert.raised"; alert: Stored.AlertRecord }
  /** A webhook to send: an attempt is due now (a new delivery, or one sent again). */
  | { type: "delivery.queued"; delivery: Stored.DeliveryRecord }
  /** An attempt ended; `delivery` is as it left it. */
  | { type: "delivery.attempted"; delivery: Stored.DeliveryRecord; attempt: Stored.DeliveryAttemptRecord }
  /** Finished without an attempt (nowhere to send it), or its target moved. */
  | { type: "delivery.updated"; delivery: Stored.DeliveryRecord }
  | { type: "job.queued" | "job.rescheduled" | "job.ran" | "job.cancelled"; job: Stored.JobRecord }
  | { type: "idempotency.saved"; record: Stored.IdempotencyRecord }
  | { type: "idempotency.expired"; ids: string[] }
  /** The whole state was replaced: loaded at start, reset, restored from a snapshot, or put back (a seed failed, a commit failed). */
  | { type: "state.replaced"; cause: "load" | "reset" | "restore" | "rollback" }
  | { type: "clock.advanced" }
  /**
   * The account's webhook inbox (/__inbox/{accountId}) received a request. The inbox is kept in
   * memory only: the event carries no change of the state, and the data file saves nothing for it.
   */
  | { type: "inbox.received"; accountId: string; requestId: string; webhookId: string | null; verified: boolean; status: number }
  /** A request answered (/v1, or any refused by an adapter): the journal's record of it. */
  | { type: "request.answered"; request: AnsweredRequest };

export type EventType = DomainEvent["type"];

/**
 * A request and its answer, as the pipeline saw them: the time as a number, the query and bodies
 * as the text that was sent (a body over 64 KiB as a note of its length: shared/kept-body.ts),
 * made into a journal entry (its keys redacted) only when somebody reads it.
 */
export type AnsweredRequest = Omit<components["schemas"]["JournalEntry"], "at" | "query" | "requestBody" | "responseBody"> & {
  at: number;
  search: string;
  requestText: string | null;
  responseText: string | null;
  /**
   * The key the request was authenticated with, never shown: kept so that it is redacted wherever
   * else the request repeated it, even once it is no account's key and has no key's shape.
   */
  key?: string;
};

/** What the stream adds to an event it hands out: its number, its time, the store's changes behind it. */
export interface Envelope {
  /** Increasing for the server's life, from 1. */
  readonly seq: number;
  /** Epoch ms on the server's clock. */
  readonly at: number;
  /** The records written or removed since the event before this one. */
  readonly changes: readonly Change[];
}

/** One kind of event. */
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
