/**
 * The @mswjs/data models. Structured settings (a campaign's FAQs, follow-ups, ...) are kept as
 * JSON text, because the models hold flat values; the store parses them at its edge.
 */
import { factory, nullable, primaryKey } from "@mswjs/data";
import type { components } from "../generated/admin.js";

type Schemas = components["schemas"];

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
  alert: {
    id: primaryKey(String),
    accountId: String,
    contactId: String,
    campaignId: nullable(String),
    messageId: nullable(String),
    reason: String,
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
export type AlertRecord = Entity<"alert">;

/**
 * A message received or sent, stored as the admin contract shows it. Kept as a plain object in a
 * table beside @mswjs/data rather than in it: messages are what the service writes most, and
 * @mswjs/data's create builds a record this wide property by property into an object V8 keeps as a
 * dictionary. Stored that way, a message cost more than all the rest of receiving it, and took
 * several times the memory.
 */
export type MessageRecord = Schemas["Message"];

/**
 * An outgoing webhook (a reply, an auto-recharge notice) and where it stands. Deliveries, their
 * attempts and credit transactions are kept in plain tables beside @mswjs/data, as messages are:
 * one or more of each is written for every message a bot answers, and a plain object of a fixed
 * shape takes a fraction of the memory of the record @mswjs/data builds (a backlog of replies
 * must fit in a bounded heap).
 */
export type DeliveryRecord = Omit<Schemas["Delivery"], "payload" | "attempts"> & {
  /** The JSON body, as signed and sent (every attempt sends the same bytes). */
  payload: string;
  /** How many attempts were made (the attempts themselves are records of their own). */
  attempts: number;
};

/** One try of a delivery. */
export type DeliveryAttemptRecord = Schemas["DeliveryAttempt"] & { id: string; deliveryId: string };

/** A change of an account's credits. */
export type CreditTransactionRecord = Schemas["CreditTransaction"] & { accountId: string };

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
  "alert",
] as const satisfies readonly ModelName[];
