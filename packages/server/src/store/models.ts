/**
 * The @mswjs/data models. Structured settings (a campaign's FAQs, follow-ups, ...) are kept as
 * JSON text, because the models hold flat values; the store parses them at its edge.
 */
import { factory, nullable, primaryKey } from "@mswjs/data";
import type { components } from "../generated/admin.js";

/** Every model and its fields. */
export const MODELS = {
  account: {
    id: primaryKey(String),
    kind: String,
    name: String,
    email: nullable(String),
    userId: String,
    agencyId: nullable(String),
    apiKey: String,
    webhookUrl: nullable(String),
    webhookSecret: String,
    autoRechargeUrl: nullable(String),
    autoRechargeThreshold: nullable(Number),
    autoRechargeAmount: nullable(Number),
    defaultCampaignId: nullable(String),
    credits: Number,
    createdAt: String,
  },
  campaign: {
    id: primaryKey(String),
    accountId: String,
    settings: String,
    createdAt: String,
  },
  list: {
    id: primaryKey(String),
    accountId: String,
    name: String,
    campaignId: nullable(String),
    createdAt: String,
  },
  listMember: {
    id: primaryKey(String),
    listId: String,
    contactId: String,
    source: String,
    addedAt: String,
  },
  contact: {
    id: primaryKey(String),
    accountId: String,
    firstName: nullable(String),
    lastName: nullable(String),
    phone: nullable(String),
    email: nullable(String),
    customFields: nullable(String),
    fromId: nullable(String),
    customChannel: nullable(String),
    botPaused: Boolean,
    /** The campaign the conversation belongs to (the funnel that reached the contact, or the last one routed to). */
    campaignId: nullable(String),
    createdAt: String,
  },
  delivery: {
    id: primaryKey(String),
    accountId: String,
    kind: String,
    messageId: nullable(String),
    url: nullable(String),
    webhookId: String,
    payload: String,
    state: String,
    attempts: Number,
    nextAttemptAt: nullable(String),
    lastError: nullable(String),
    createdAt: String,
    completedAt: nullable(String),
  },
  deliveryAttempt: {
    id: primaryKey(String),
    deliveryId: String,
    number: Number,
    startedAt: String,
    durationMs: Number,
    status: nullable(Number),
    error: nullable(String),
    nextAttemptAt: nullable(String),
  },
  alert: {
    id: primaryKey(String),
    accountId: String,
    contactId: String,
    campaignId: nullable(String),
    messageId: nullable(String),
    reason: String,
    createdAt: String,
  },
  creditTransaction: {
    id: primaryKey(String),
    accountId: String,
    amount: Number,
    balanceAfter: Number,
    description: String,
    source: String,
    idempotencyKey: nullable(String),
    createdAt: String,
  },
};

export function createDatabase() {
  return factory(MODELS);
}

export type Database = ReturnType<typeof createDatabase>;
export type ModelName = Exclude<keyof Database, symbol>;
type Entity<M extends ModelName> = ReturnType<Database[M]["create"]>;

export type AccountRecord = Entity<"account">;
export type CampaignRecord = Entity<"campaign">;
export type ListRecord = Entity<"list">;
export type ListMemberRecord = Entity<"listMember">;
export type ContactRecord = Entity<"contact">;
export type CreditTransactionRecord = Entity<"creditTransaction">;
export type DeliveryRecord = Entity<"delivery">;
export type DeliveryAttemptRecord = Entity<"deliveryAttempt">;
export type AlertRecord = Entity<"alert">;

/**
 * A message received or sent, stored as the admin contract shows it. Kept as a plain object in a
 * table beside @mswjs/data rather than in it: messages are what the service writes most, and
 * @mswjs/data's create builds a record this wide property by property into an object V8 keeps as a
 * dictionary. Stored that way, a message cost more than all the rest of receiving it, and took
 * several times the memory.
 */
export type MessageRecord = components["schemas"]["Message"];

/**
 * Scheduled work (webhook attempts, queued opening messages, follow-ups). Kept in a plain table
 * beside @mswjs/data rather than in it: jobs come and go all the time, and @mswjs/data deletes by
 * scanning every record.
 */
export interface JobRecord {
  id: string;
  kind: string;
  /** Epoch ms on the server's clock; null runs as soon as possible. */
  runAt: number | null;
  /** Groups jobs that are cancelled together (a contact's follow-ups). */
  key: string | null;
  payload: string;
  createdAt: string;
}

/**
 * A credit grant's answer, kept for its Idempotency-Key so a retry gets the first answer. Kept in a
 * plain table beside @mswjs/data, as jobs are: they expire, and @mswjs/data deletes by scanning
 * every record.
 */
export interface IdempotencyRecord {
  id: string;
  accountId: string;
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  createdAt: string;
}

/** What each model's `create` takes. */
export type Fields<M extends ModelName> = Parameters<Database[M]["create"]>[0] & object;

export const MODEL_NAMES = [
  "account",
  "campaign",
  "list",
  "listMember",
  "contact",
  "creditTransaction",
  "delivery",
  "deliveryAttempt",
  "alert",
] as const satisfies readonly ModelName[];
