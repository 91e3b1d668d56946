/**
 * The fields of every kind of record. The kinds the service writes now and then (accounts,
 * campaigns, lists and their members, contacts, alerts) are @mswjs/data models, which make their
 * records: fields filled in, a null refused where the model allows none, unknown fields dropped.
 * Structured settings (a campaign's FAQs, follow-ups, ...) are kept as JSON text, because the
 * models hold flat values; the presenters parse them.
 *
 * The kinds written for every message (the message itself, its deliveries and their attempts,
 * credit transactions, jobs) and idempotency records are plain objects of the admin contract's
 * shapes: @mswjs/data's create builds a record property by property into an object V8 keeps as a
 * dictionary, which cost more than all the rest of receiving a message and several times the
 * memory (a backlog of replies must fit in a bounded heap).
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
export type ModelName = keyof typeof MODELS;
/** A model's record: its fields (the entity @mswjs/data makes also carries symbols of its own). */
type Entity<M extends ModelName> = Omit<ReturnType<Database[M]["create"]>, symbol>;

export type AccountRecord = Entity<"account">;
export type CampaignRecord = Entity<"campaign">;
export type ListRecord = Entity<"list">;
export type ListMemberRecord = Entity<"listMember">;
export type ContactRecord = Entity<"contact">;
export type AlertRecord = Entity<"alert">;

/** A message received or sent, stored as the admin contract shows it. */
export type MessageRecord = Schemas["MessageRecord"];

/** An outgoing webhook (a reply, an auto-recharge notice) and where it stands; its payload is the JSON body as signed and sent. */
export type DeliveryRecord = Schemas["DeliveryRecord"];

/** One try of a delivery. */
export type DeliveryAttemptRecord = Schemas["DeliveryAttemptRecord"];

/** A change of an account's credits. */
export type CreditTransactionRecord = Schemas["CreditTransactionRecord"];

/** Scheduled work (webhook attempts, queued opening messages, follow-ups, received messages to answer). */
export type JobRecord = Schemas["JobRecord"];

/** A credit grant's answer, kept for its Idempotency-Key so a retry gets the first answer. */
export type IdempotencyRecord = Schemas["IdempotencyRecord"];

/**
 * The admin contract describes every stored record (SnapshotRecords: what a snapshot and the data
 * file hold, checked as they come in); the models must store every record it allows: a type
 * error here names the model that drifted from it.
 */
type Stores<Schema, Model> = [Schema] extends [Model] ? true : false;
type Holds<T extends true> = T;
export type ModelsStoreTheContractsRecords = [
  Holds<Stores<Schemas["AccountRecord"], AccountRecord>>,
  Holds<Stores<Schemas["CampaignRecord"], CampaignRecord>>,
  Holds<Stores<Schemas["ListRecord"], ListRecord>>,
  Holds<Stores<Schemas["ListMemberRecord"], ListMemberRecord>>,
  Holds<Stores<Schemas["ContactRecord"], ContactRecord>>,
  Holds<Stores<Schemas["AlertRecord"], AlertRecord>>,
];
