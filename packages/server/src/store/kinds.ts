/**
 * Every kind of record the service keeps, declared once: its data file table, what makes its
 * records (models.ts), and the lookups, groups and tallies the service reads it by. The store's
 * indexes, its reset and snapshot, and the data file's tables all follow from this list: a new
 * kind, lookup or group is a line here.
 *
 * Lookups are scoped to an account (or an agency) wherever the interface is, so no account finds
 * another's records.
 */
import { dataUrlBytes } from "../shared/media-size.js";
import type {
  AccountRecord,
  AlertRecord,
  CampaignRecord,
  ContactRecord,
  CreditTransactionRecord,
  DeliveryAttemptRecord,
  DeliveryRecord,
  IdempotencyRecord,
  JobRecord,
  ListMemberRecord,
  ListRecord,
  MessageRecord,
  ModelName,
} from "./models.js";
import type { Entry, KindSpec } from "./table.js";

/** A kind of record `R`, its index names inferred from the declaration. */
const kind =
  <R extends Entry>() =>
  <L extends string = never, G extends string = never, T extends string = never>(spec: KindSpec<R, L, G, T> & { model?: ModelName }) =>
    spec;

const byAccount = (record: { accountId: string }) => record.accountId;
const lower = (value: string | null) => value?.toLowerCase();

export const KINDS = {
  account: kind<AccountRecord>()({
    table: "accounts",
    model: "account",
    lookups: {
      apiKey: { scope: () => "", value: (account) => account.apiKey },
      /** A sub-account by its email, within its agency. */
      subaccountEmail: { scope: (account) => account.agencyId ?? "", value: (account) => (account.agencyId ? lower(account.email) : null) },
    },
  }),
  campaign: kind<CampaignRecord>()({ table: "campaigns", model: "campaign", groups: { account: byAccount } }),
  list: kind<ListRecord>()({ table: "lists", model: "list", groups: { account: byAccount } }),
  /** Id `${listId}:${contactId}`: a membership is looked up by it. */
  listMember: kind<ListMemberRecord>()({
    table: "list_members",
    model: "listMember",
    groups: { list: (member) => member.listId, contact: (member) => member.contactId },
  }),
  contact: kind<ContactRecord>()({
    table: "contacts",
    model: "contact",
    lookups: {
      phone: { scope: byAccount, value: (contact) => contact.phone },
      email: { scope: byAccount, value: (contact) => lower(contact.email) },
      /** The custom-channel sender id. */
      fromId: { scope: byAccount, value: (contact) => contact.fromId },
    },
    groups: { account: byAccount },
  }),
  alert: kind<AlertRecord>()({ table: "alerts", model: "alert", groups: { account: byAccount, contact: (alert) => alert.contactId } }),
  creditTransaction: kind<CreditTransactionRecord>()({ table: "credit_transactions", groups: { account: byAccount } }),
  delivery: kind<DeliveryRecord>()({ table: "deliveries", groups: { message: (delivery) => delivery.messageId } }),
  deliveryAttempt: kind<DeliveryAttemptRecord>()({ table: "delivery_attempts", groups: { delivery: (attempt) => attempt.deliveryId } }),
  message: kind<MessageRecord>()({
    table: "messages",
    lookups: {
      /** An inbound message by its messageSid, to refuse processing it twice. */
      sid: { scope: byAccount, value: (message) => (message.direction === "inbound" ? message.messageSid : null) },
    },
    groups: { contact: (message) => message.contactId },
    tallies: {
      /**
       * The bytes of the files an account's messages embed as data URLs. Made from the records,
       * at load included, never saved: it cannot drift from the messages an account holds.
       */
      mediaBytes: { key: byAccount, amount: (message) => dataUrlBytes(message.mediaUrl) },
    },
  }),
  idempotencyRecord: kind<IdempotencyRecord>()({ table: "idempotency_records", order: "written" }),
  job: kind<JobRecord>()({ table: "jobs" }),
};

export type Kinds = typeof KINDS;
export type KindName = keyof Kinds;
export const KIND_NAMES = Object.keys(KINDS) as KindName[];

/** The record type of a kind. */
export type RecordOf<K extends KindName> = Kinds[K] extends KindSpec<infer R, string, string, string> ? R : never;
