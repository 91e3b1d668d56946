/**
 * All state: a table for each kind of record, declared once below (its data file table, what
 * makes its records, the lookups, groups and tallies the service reads it by). The indexes, a
 * reset, the snapshot and the data file's tables all follow from these declarations: a new kind,
 * lookup or group is a line in KINDS. Lookups are scoped to an account (or an agency) wherever the
 * interface is, so no account finds another's records.
 *
 * Only the domain operations write the store (domain/); everyone else reads it through
 * `StoreReader`. The store notes every record it writes: each domain event carries the changes
 * made since the one before it (`takeChanges`), which is how the data file learns what to save.
 */
import { drop } from "@mswjs/data";
import { dataUrlBytes } from "../shared/media-size.js";
import { tailOf } from "../shared/redact-secrets.js";
import type * as Stored from "./models.js";
import { createDatabase, type Database } from "./models.js";
import { DuplicateId, Table, type Entry, type KindSpec, type ReadTable } from "./table.js";

export { DuplicateId };

/** A kind of record `R`, its index names inferred from the declaration. */
const kind =
  <R extends Entry>() =>
  <L extends string = never, G extends string = never, T extends string = never>(
    spec: KindSpec<R, L, G, T> & { model?: Stored.ModelName },
  ) =>
    spec;

const byAccount = (record: { accountId: string }) => record.accountId;
const lower = (value: string | null) => value?.toLowerCase();

export const KINDS = {
  account: kind<Stored.AccountRecord>()({
    table: "accounts",
    model: "account",
    lookups: {
      apiKey: { scope: () => "", value: (account) => account.apiKey },
      /** A sub-account by its email, within its agency. */
      subaccountEmail: { scope: (account) => account.agencyId ?? "", value: (account) => (account.agencyId ? lower(account.email) : null) },
    },
    groups: {
      /** Accounts by the last 8 characters of their key, and of their webhook secret: how words from outside are searched for them (domain/secrets.ts). */
      apiKeyTail: (account) => tailOf(account.apiKey),
      webhookSecretTail: (account) => tailOf(account.webhookSecret),
    },
  }),
  campaign: kind<Stored.CampaignRecord>()({ table: "campaigns", model: "campaign", groups: { account: byAccount } }),
  list: kind<Stored.ListRecord>()({ table: "lists", model: "list", groups: { account: byAccount } }),
  /** Id `${listId}:${contactId}`: a membership is looked up by it. */
  listMember: kind<Stored.ListMemberRecord>()({
    table: "list_members",
    model: "listMember",
    groups: { list: (member) => member.listId, contact: (member) => member.contactId },
  }),
  contact: kind<Stored.ContactRecord>()({
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
  alert: kind<Stored.AlertRecord>()({
    table: "alerts",
    model: "alert",
    groups: { account: byAccount, contact: (alert) => alert.contactId },
  }),
  creditTransaction: kind<Stored.CreditTransactionRecord>()({ table: "credit_transactions", groups: { account: byAccount } }),
  delivery: kind<Stored.DeliveryRecord>()({ table: "deliveries", groups: { message: (delivery) => delivery.messageId } }),
  deliveryAttempt: kind<Stored.DeliveryAttemptRecord>()({
    table: "delivery_attempts",
    groups: { delivery: (attempt) => attempt.deliveryId },
  }),
  message: kind<Stored.MessageRecord>()({
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
      mediaBytes: { key: byAccount, amount: (message) => dataUrlBytes(message.mediaUrl), reads: ["accountId", "mediaUrl"] },
    },
  }),
  idempotencyRecord: kind<Stored.IdempotencyRecord>()({ table: "idempotency_records", order: "written" }),
  job: kind<Stored.JobRecord>()({ table: "jobs" }),
};

export type Kinds = typeof KINDS;
export type KindName = keyof Kinds;
export const KIND_NAMES = Object.keys(KINDS) as KindName[];

/** The record type of a kind. */
export type RecordOf<K extends KindName> = Kinds[K] extends KindSpec<infer R, string, string, string> ? R : never;

/** A record written (the live object) or removed (undefined). */
export interface Change {
  kind: KindName;
  id: string;
  record: object | undefined;
}

/** Every record of every kind, as plain objects: what a snapshot and the data file hold. */
export type Records = { [K in KindName]: Array<RecordOf<K>> };

type TableOf<S> = S extends KindSpec<infer R, infer L, infer G, infer T> ? Table<R, L, G, T> : never;
type ReadTableOf<S> = S extends KindSpec<infer R, infer L, infer G, infer T> ? ReadTable<R, L, G, T> : never;

export type Tables = { readonly [K in KindName]: TableOf<Kinds[K]> };

/** The store as everyone but the domain sees it. */
export type StoreReader = { readonly [K in KindName]: ReadTableOf<Kinds[K]> } & {
  /** Counts the writes: a request that moved it changed something. */
  readonly version: number;
  counts(): Counts;
};

export interface Counts {
  accounts: number;
  contacts: number;
  lists: number;
  campaigns: number;
  messages: number;
}

export type Store = Tables & {
  /** Counts the writes: a request that moved it changed something. */
  version: number;
  counts(): Counts;
  /** The changes written since the last call, oldest first. */
  takeChanges(): readonly Change[];
  /** Every record, copied. */
  records(): Records;
  /** Empties every table (a reset), recording no change: a reset is one. */
  clear(): void;
  /**
   * Replaces the whole state with these records, or, if they cannot be loaded (an id given twice
   * within a kind: DuplicateId), leaves it as it was and throws. Records no change: a load is one.
   * Records from outside are checked before they get here (domain/records-check.ts).
   */
  load(records: Partial<Records>): void;
};

const NO_CHANGES: Change[] = [];

export function createStore(): Store {
  let db: Database = createDatabase();
  let changes: Change[] = [];

  const tables = {} as Record<KindName, Table<{ id: string }>>;
  for (const kind of KIND_NAMES) {
    const spec = KINDS[kind] as KindSpec<{ id: string }, string, string, string> & { model?: keyof Database };
    const model = spec.model;
    // A model's record is made by @mswjs/data (in the database of the moment: a load starts a new one).
    const make = model
      ? (fields: { id: string }) => (db[model].create as (values: object) => { id: string })(fields)
      : (fields: { id: string }) => ({ ...fields });
    tables[kind] = new Table(kind, spec, make, (id, record) => {
      store.version++;
      changes.push({ kind, id, record });
    });
  }

  const records = (): Records => {
    const out = {} as Record<KindName, object[]>;
    for (const kind of KIND_NAMES) out[kind] = Array.from(tables[kind].all(), (record) => ({ ...record }));
    return out as Records;
  };

  const fill = (source: Partial<Records>) => {
    drop(db);
    db = createDatabase();
    for (const kind of KIND_NAMES) tables[kind].fill((source[kind] ?? []) as Array<{ id: string }>);
  };

  const store: Store = {
    ...(tables as unknown as Tables),
    version: 0,
    counts: () => ({
      accounts: tables.account.size,
      contacts: tables.contact.size,
      lists: tables.list.size,
      campaigns: tables.campaign.size,
      messages: tables.message.size,
    }),
    takeChanges() {
      if (changes.length === 0) return NO_CHANGES;
      const taken = changes;
      changes = [];
      return taken;
    },
    records,
    clear() {
      fill({});
      changes = [];
      store.version++;
    },
    load(source) {
      const before = records();
      try {
        fill(source);
      } catch (error) {
        fill(before);
        if (error instanceof DuplicateId) throw error;
        throw new Error(`The records could not be loaded: ${(error as Error).message}`, { cause: error });
      }
      changes = [];
      store.version++;
    },
  };
  return store;
}
