/**
 * All state, in @mswjs/data, with the indexes the service's lookups need kept beside it; messages,
 * deliveries and their attempts, credit transactions, jobs and idempotency records in plain tables
 * beside it (models.ts says why).
 *
 * @mswjs/data's queries scan every record (its `findFirst` by primary key included), so reads
 * never go through them: each index, by id included, maps a key to the record object that
 * @mswjs/data's `create` returned and holds. Every lookup is scoped to an account, so no account
 * reaches another's data.
 *
 * Records are changed in place on that object rather than through @mswjs/data's `update`, because
 * its `update` and `delete` find their record by scanning the whole model: every write would cost
 * as much as the store is large. The object is the one `getAll` returns, so both views agree;
 * `Patch` keeps the indexed fields out of such changes.
 */
import { drop } from "@mswjs/data";
import type { Clock } from "../shared/clock.js";
import type { IdSource } from "../shared/ids.js";
import { dataUrlBytes } from "../shared/media-size.js";
import {
  MODEL_NAMES,
  createDatabase,
  type AccountRecord,
  type AlertRecord,
  type CampaignRecord,
  type ContactRecord,
  type CreditTransactionRecord,
  type Database,
  type DeliveryAttemptRecord,
  type DeliveryRecord,
  type Fields,
  type IdempotencyRecord,
  type JobRecord,
  type ListMemberRecord,
  type ListRecord,
  type MessageRecord,
  type ModelName,
} from "./models.js";

type Entity<M extends ModelName> = ReturnType<Database[M]["create"]>;

export type Records = { [M in ModelName]: Array<Fields<M>> } & {
  delivery: DeliveryRecord[];
  deliveryAttempt: DeliveryAttemptRecord[];
  creditTransaction: CreditTransactionRecord[];
  message: MessageRecord[];
  idempotencyRecord: IdempotencyRecord[];
  job: JobRecord[];
};

/** Every kind of record the state holds: the @mswjs/data models and the plain tables beside them. */
export type TableName = keyof Records;
export const TABLE_NAMES = [...MODEL_NAMES, "delivery", "deliveryAttempt", "creditTransaction", "message", "idempotencyRecord", "job"] as const satisfies readonly TableName[];

/**
 * What changed, as a persistence layer needs it: a record (the live object, or undefined once it
 * is removed), `created` when it is new (the live events tell a new contact from a changed one);
 * the whole state (a load, a reset); or the clock (a virtual one advanced).
 */
export type Change = { table: TableName; id: string; record: object | undefined; created?: true } | { table: "all" } | { table: "clock" };

/** Index key of a value within an account. */
const scoped = (accountId: string, value: string) => `${accountId}\n${value}`;

/**
 * Values looked up within an account (or an agency): a map per account, so a lookup hashes the
 * value it was given rather than a new string joined from the account's id and the value.
 */
class ScopedIndex<T> {
  private readonly byScope = new Map<string, Map<string, T>>();

  get(scope: string, key: string): T | undefined {
    return this.byScope.get(scope)?.get(key);
  }

  set(scope: string, key: string, value: T): void {
    let index = this.byScope.get(scope);
    if (!index) this.byScope.set(scope, (index = new Map()));
    index.set(key, value);
  }

  clear(): void {
    this.byScope.clear();
  }
}

export class Store {
  private db: Database = createDatabase();
  /** The records of the models looked up by id; for messages, the table that holds them. */
  private readonly byId = {
    account: new Map<string, AccountRecord>(),
    campaign: new Map<string, CampaignRecord>(),
    list: new Map<string, ListRecord>(),
    contact: new Map<string, ContactRecord>(),
    message: new Map<string, MessageRecord>(),
    delivery: new Map<string, DeliveryRecord>(),
  };
  private readonly accountByKey = new Map<string, AccountRecord>();
  private readonly subaccountByEmail = new ScopedIndex<AccountRecord>();
  private readonly contactByPhone = new ScopedIndex<ContactRecord>();
  private readonly contactByEmail = new ScopedIndex<ContactRecord>();
  private readonly contactByFromId = new ScopedIndex<ContactRecord>();
  private readonly messageBySid = new ScopedIndex<MessageRecord>();
  private readonly membersOf = new Map<string, Map<string, ListMemberRecord>>();
  private readonly listsOfContact = new Map<string, Set<string>>();
  private readonly messagesOfContact = new Map<string, MessageRecord[]>();
  private readonly transactionsOf = new Map<string, CreditTransactionRecord[]>();
  private readonly contactsOfAccount = new Map<string, ContactRecord[]>();
  private readonly idempotency = new Map<string, IdempotencyRecord>();
  private readonly deliveriesOfMessage = new Map<string, DeliveryRecord[]>();
  private readonly attemptsOfDelivery = new Map<string, DeliveryAttemptRecord[]>();
  private readonly alertsOfAccount = new Map<string, AlertRecord[]>();
  private readonly jobTable = new Map<string, JobRecord>();
  /**
   * The bytes of the files embedded (as data URLs) in each account's stored messages. Like the
   * other indexes it is made from the records, at load included, never saved: it cannot drift
   * from the messages an account holds.
   */
  private readonly mediaBytesOfAccount = new Map<string, number>();
  private listeners: Array<(change: Change) => void> = [];
  private loading = false;

  constructor(
    readonly ids: IdSource,
    private readonly clock: Clock,
  ) {}

  /** Called after every change, with what changed, so a persistence layer can write it. */
  onChange(listener: (change: Change) => void): () => void {
    this.listeners.push(listener);
    return () => (this.listeners = this.listeners.filter((l) => l !== listener));
  }

  /** Counts changes: a request that moved it changed something. */
  version = 0;

  changed(change: Change): void {
    this.version++;
    for (const listener of this.listeners) listener(change);
  }

  private changedRecord(table: TableName, record: { id: string }, created?: true): void {
    this.changed(created ? { table, id: record.id, record, created } : { table, id: record.id, record });
  }

  private removedRecord(table: TableName, id: string): void {
    this.changed({ table, id, record: undefined });
  }

  /** Now, as ISO text: formatted once per millisecond, however many records are stamped in it. */
  timestamp(): string {
    const now = this.clock.now();
    if (now !== this.lastStamp.at) this.lastStamp = { at: now, text: new Date(now).toISOString() };
    return this.lastStamp.text;
  }

  private lastStamp = { at: NaN, text: "" };

  // Accounts ---------------------------------------------------------------------------------

  createAccount(fields: Fields<"account">): AccountRecord {
    return this.create("account", fields);
  }

  account(id: string): AccountRecord | undefined {
    return this.byId.account.get(id);
  }

  accountByApiKey(key: string): AccountRecord | undefined {
    return this.accountByKey.get(key);
  }

  subaccount(agencyId: string, email: string): AccountRecord | undefined {
    return this.subaccountByEmail.get(agencyId, email.toLowerCase());
  }

  accounts(): AccountRecord[] {
    return this.db.account.getAll();
  }

  /** Replaces the account's key: the old one stops working at once. */
  setApiKey(account: AccountRecord, key: string): void {
    this.accountByKey.delete(account.apiKey);
    account.apiKey = key;
    this.accountByKey.set(key, account);
    this.changedRecord("account", account);
  }

  updateAccount(account: AccountRecord, patch: Patch<AccountRecord, "apiKey" | "agencyId" | "email">): AccountRecord {
    Object.assign(account, patch);
    this.changedRecord("account", account);
    return account;
  }

  apiKeyInUse(key: string): boolean {
    return this.accountByKey.has(key);
  }

  // Contacts ---------------------------------------------------------------------------------

  createContact(fields: Fields<"contact">): ContactRecord {
    return this.create("contact", fields);
  }

  contact(accountId: string, id: string): ContactRecord | undefined {
    return ownedBy(accountId, this.byId.contact.get(id));
  }

  /** Any account's contact: for the admin API only. */
  contactById(id: string): ContactRecord | undefined {
    return this.byId.contact.get(id);
  }

  contactByPhoneNumber(accountId: string, e164: string): ContactRecord | undefined {
    return this.contactByPhone.get(accountId, e164);
  }

  contactByEmailAddress(accountId: string, email: string): ContactRecord | undefined {
    return this.contactByEmail.get(accountId, email.toLowerCase());
  }

  contactBySender(accountId: string, fromId: string): ContactRecord | undefined {
    return this.contactByFromId.get(accountId, fromId);
  }

  contacts(accountId?: string): ContactRecord[] {
    return accountId ? (this.contactsOfAccount.get(accountId) ?? []) : this.db.contact.getAll();
  }

  /** Gives a contact its custom-channel sender id, so that fromId finds it from now on. */
  linkSender(contact: ContactRecord, fromId: string, channel: string | null): void {
    contact.fromId = fromId;
    if (channel) contact.customChannel = channel;
    this.contactByFromId.set(contact.accountId, fromId, contact);
    this.changedRecord("contact", contact);
  }

  updateContact(contact: ContactRecord, patch: Patch<ContactRecord, "accountId" | "phone" | "email" | "fromId">): ContactRecord {
    Object.assign(contact, patch);
    this.changedRecord("contact", contact);
    return contact;
  }

  // Campaigns and lists ----------------------------------------------------------------------

  createCampaign(fields: Fields<"campaign">): CampaignRecord {
    return this.create("campaign", fields);
  }

  campaign(accountId: string, id: string): CampaignRecord | undefined {
    return ownedBy(accountId, this.byId.campaign.get(id));
  }

  campaignById(id: string): CampaignRecord | undefined {
    return this.byId.campaign.get(id);
  }

  campaigns(accountId?: string): CampaignRecord[] {
    const all = this.db.campaign.getAll();
    return accountId ? all.filter((c) => c.accountId === accountId) : all;
  }

  updateCampaign(campaign: CampaignRecord, settings: string): CampaignRecord {
    campaign.settings = settings;
    this.changedRecord("campaign", campaign);
    return campaign;
  }

  createList(fields: Fields<"list">): ListRecord {
    return this.create("list", fields);
  }

  list(accountId: string, id: string): ListRecord | undefined {
    return ownedBy(accountId, this.byId.list.get(id));
  }

  listById(id: string): ListRecord | undefined {
    return this.byId.list.get(id);
  }

  lists(accountId?: string): ListRecord[] {
    const all = this.db.list.getAll();
    return accountId ? all.filter((l) => l.accountId === accountId) : all;
  }

  updateList(list: ListRecord, patch: Patch<ListRecord, "accountId">): ListRecord {
    Object.assign(list, patch);
    this.changedRecord("list", list);
    return list;
  }

  isMember(listId: string, contactId: string): boolean {
    return this.membersOf.get(listId)?.has(contactId) ?? false;
  }

  /** Adds a contact to a list; false when it was already a member (nothing changes). */
  addMember(listId: string, contactId: string, source: string): boolean {
    if (this.isMember(listId, contactId)) return false;
    this.create("listMember", { id: `${listId}:${contactId}`, listId, contactId, source, addedAt: this.timestamp() });
    return true;
  }

  members(listId: string): ListMemberRecord[] {
    return [...(this.membersOf.get(listId)?.values() ?? [])];
  }

  memberCount(listId: string): number {
    return this.membersOf.get(listId)?.size ?? 0;
  }

  listIdsOf(contactId: string): string[] {
    return [...(this.listsOfContact.get(contactId) ?? [])];
  }

  // Messages ---------------------------------------------------------------------------------

  createMessage(fields: MessageRecord): MessageRecord {
    const message = this.insertMessage(fields);
    this.changedRecord("message", message, true);
    return message;
  }

  message(accountId: string, id: string): MessageRecord | undefined {
    return ownedBy(accountId, this.byId.message.get(id));
  }

  messageById(id: string): MessageRecord | undefined {
    return this.byId.message.get(id);
  }

  inboundBySid(accountId: string, sid: string): MessageRecord | undefined {
    return this.messageBySid.get(accountId, sid);
  }

  conversation(contactId: string): MessageRecord[] {
    return this.messagesOfContact.get(contactId) ?? [];
  }

  messages(): MessageRecord[] {
    return [...this.byId.message.values()];
  }

  /** The bytes of the files the account's stored messages embed as data URLs (public URLs count nothing). */
  mediaBytes(accountId: string): number {
    return this.mediaBytesOfAccount.get(accountId) ?? 0;
  }

  updateMessage(message: MessageRecord, patch: Patch<MessageRecord, "accountId" | "contactId" | "messageSid" | "direction" | "mediaUrl">): MessageRecord {
    Object.assign(message, patch);
    this.changedRecord("message", message);
    return message;
  }

  // Webhook deliveries, alerts, jobs -----------------------------------------------------------

  createDelivery(fields: DeliveryRecord): DeliveryRecord {
    const delivery = this.insertDelivery(fields);
    this.changedRecord("delivery", delivery, true);
    return delivery;
  }

  delivery(id: string): DeliveryRecord | undefined {
    return this.byId.delivery.get(id);
  }

  deliveriesOf(messageId: string): DeliveryRecord[] {
    return this.deliveriesOfMessage.get(messageId) ?? [];
  }

  deliveries(): DeliveryRecord[] {
    return [...this.byId.delivery.values()];
  }

  updateDelivery(delivery: DeliveryRecord, patch: Patch<DeliveryRecord, "messageId">): DeliveryRecord {
    Object.assign(delivery, patch);
    this.changedRecord("delivery", delivery);
    return delivery;
  }

  createAttempt(fields: DeliveryAttemptRecord): DeliveryAttemptRecord {
    const attempt = { ...fields };
    push(this.attemptsOfDelivery, attempt.deliveryId, attempt);
    this.changedRecord("deliveryAttempt", attempt, true);
    return attempt;
  }

  attemptsOf(deliveryId: string): DeliveryAttemptRecord[] {
    return this.attemptsOfDelivery.get(deliveryId) ?? [];
  }

  createAlert(fields: Fields<"alert">): AlertRecord {
    return this.create("alert", fields);
  }

  alerts(accountId?: string): AlertRecord[] {
    return accountId ? (this.alertsOfAccount.get(accountId) ?? []) : this.db.alert.getAll();
  }

  addJob(job: JobRecord): void {
    this.jobTable.set(job.id, job);
    this.changedRecord("job", job, true);
  }

  rescheduleJob(job: JobRecord, runAt: number | null): void {
    job.runAt = runAt;
    this.changedRecord("job", job);
  }

  removeJob(id: string): boolean {
    const removed = this.jobTable.delete(id);
    if (removed) this.removedRecord("job", id);
    return removed;
  }

  jobs(): JobRecord[] {
    return [...this.jobTable.values()];
  }

  // Credits and idempotency ------------------------------------------------------------------

  /** Adds (or, negative, removes) credits and records the transaction. */
  addCredits(
    account: AccountRecord,
    amount: number,
    entry: Pick<CreditTransactionRecord, "description" | "source"> & { idempotencyKey?: string | null },
  ): CreditTransactionRecord {
    account.credits = roundCredits(account.credits + amount);
    this.changedRecord("account", account);
    const transaction: CreditTransactionRecord = {
      id: this.ids.id("txn_"),
      accountId: account.id,
      amount,
      balanceAfter: account.credits,
      description: entry.description,
      source: entry.source,
      idempotencyKey: entry.idempotencyKey ?? null,
      createdAt: this.timestamp(),
    };
    push(this.transactionsOf, transaction.accountId, transaction);
    this.changedRecord("creditTransaction", transaction, true);
    return transaction;
  }

  transactions(accountId: string): CreditTransactionRecord[] {
    return this.transactionsOf.get(accountId) ?? [];
  }

  idempotent(accountId: string, key: string): IdempotencyRecord | undefined {
    return this.idempotency.get(scoped(accountId, key));
  }

  remember(fields: { accountId: string; key: string; fingerprint: string; status: number; body: string }): IdempotencyRecord {
    const record = { ...fields, id: scoped(fields.accountId, fields.key), createdAt: this.timestamp() };
    // Deleted first, so that the map stays in the order records were made (expireIdempotency relies on it).
    this.idempotency.delete(record.id);
    this.idempotency.set(record.id, record);
    this.changedRecord("idempotencyRecord", record);
    return record;
  }

  /** Drops idempotency records older than `maxAgeMs`. */
  expireIdempotency(maxAgeMs: number): void {
    const cutoff = this.clock.now() - maxAgeMs;
    // Oldest first, so the scan stops at the first kept.
    for (const [id, record] of this.idempotency) {
      if (Date.parse(record.createdAt) >= cutoff) break;
      this.idempotency.delete(id);
      this.removedRecord("idempotencyRecord", id);
    }
  }

  // Whole state ------------------------------------------------------------------------------

  counts() {
    return {
      accounts: this.db.account.count(),
      contacts: this.db.contact.count(),
      lists: this.db.list.count(),
      campaigns: this.db.campaign.count(),
      messages: this.byId.message.size,
    };
  }

  /** Every record as plain JSON-ready objects. */
  records(): Records {
    const out = {} as Records;
    for (const name of MODEL_NAMES) {
      (out as Record<string, unknown[]>)[name] = this.db[name].getAll().map((record) => ({ ...record }));
    }
    out.delivery = this.deliveries().map((delivery) => ({ ...delivery }));
    out.deliveryAttempt = [...this.attemptsOfDelivery.values()].flat().map((attempt) => ({ ...attempt }));
    out.creditTransaction = [...this.transactionsOf.values()].flat().map((transaction) => ({ ...transaction }));
    out.message = this.messages().map((message) => ({ ...message }));
    out.idempotencyRecord = [...this.idempotency.values()].map((record) => ({ ...record }));
    out.job = this.jobs().map((job) => ({ ...job }));
    return out;
  }

  /**
   * Replaces the whole state with these records, or, if they cannot be loaded (a duplicate id, a
   * record of the wrong shape), leaves the state as it was and throws.
   */
  load(records: Partial<Records>): void {
    const orphan = orphanIn(records);
    if (orphan) throw new Error(`The records could not be loaded: ${orphan}`);
    const before = this.records();
    this.loading = true;
    try {
      this.fill(records);
    } catch (error) {
      this.fill(before);
      throw new Error(`The records could not be loaded: ${(error as Error).message}`, { cause: error });
    } finally {
      this.loading = false;
    }
    this.changed({ table: "all" });
  }

  private fill(records: Partial<Records>) {
    this.clear();
    for (const name of MODEL_NAMES) {
      for (const fields of records[name] ?? []) this.create(name, fields as never);
    }
    // @mswjs/data refuses a second record with a primary key it has; the plain tables check here.
    for (const table of ["deliveryAttempt", "creditTransaction", "idempotencyRecord", "job"] as const) refuseDuplicates(table, records[table]);
    for (const delivery of records.delivery ?? []) this.insertDelivery(delivery);
    for (const attempt of records.deliveryAttempt ?? []) push(this.attemptsOfDelivery, attempt.deliveryId, { ...attempt });
    for (const transaction of records.creditTransaction ?? []) push(this.transactionsOf, transaction.accountId, { ...transaction });
    for (const message of records.message ?? []) this.insertMessage(message);
    for (const record of records.idempotencyRecord ?? []) this.idempotency.set(record.id, { ...record });
    for (const job of records.job ?? []) this.jobTable.set(job.id, { ...job });
  }

  /** Creates a record in @mswjs/data and enters it in the indexes. */
  private create<M extends ModelName>(name: M, fields: Fields<M>): Entity<M> {
    const record = (this.db[name].create as (values: Fields<M>) => Entity<M>)(fields);
    this.index(name, record as never);
    if (!this.loading) this.changedRecord(name, record, true);
    return record;
  }

  private index(name: ModelName, record: Record<string, unknown> & { id: string; accountId?: string }) {
    switch (name) {
      case "account": {
        const account = record as unknown as AccountRecord;
        this.byId.account.set(account.id, account);
        this.accountByKey.set(account.apiKey, account);
        if (account.agencyId && account.email) this.subaccountByEmail.set(account.agencyId, account.email.toLowerCase(), account);
        return;
      }
      case "contact": {
        const contact = record as unknown as ContactRecord;
        this.byId.contact.set(contact.id, contact);
        if (contact.phone) this.contactByPhone.set(contact.accountId, contact.phone, contact);
        // The first contact with an email keeps it in the index: lookups by email find the oldest.
        const email = contact.email?.toLowerCase();
        if (email && !this.contactByEmail.get(contact.accountId, email)) this.contactByEmail.set(contact.accountId, email, contact);
        if (contact.fromId) this.contactByFromId.set(contact.accountId, contact.fromId, contact);
        push(this.contactsOfAccount, contact.accountId, contact);
        return;
      }
      case "campaign":
        this.byId.campaign.set(record.id, record as unknown as CampaignRecord);
        return;
      case "list":
        this.byId.list.set(record.id, record as unknown as ListRecord);
        if (!this.membersOf.has(record.id)) this.membersOf.set(record.id, new Map());
        return;
      case "listMember": {
        const member = record as unknown as ListMemberRecord;
        let members = this.membersOf.get(member.listId);
        if (!members) this.membersOf.set(member.listId, (members = new Map()));
        members.set(member.contactId, member);
        let lists = this.listsOfContact.get(member.contactId);
        if (!lists) this.listsOfContact.set(member.contactId, (lists = new Set()));
        lists.add(member.listId);
        return;
      }
      case "alert":
        push(this.alertsOfAccount, record.accountId!, record as unknown as AlertRecord);
        return;
    }
  }

  private insertDelivery(fields: DeliveryRecord): DeliveryRecord {
    if (this.byId.delivery.has(fields.id)) throw new Error(`There are two deliveries with the id ${fields.id}.`);
    const delivery = { ...fields };
    this.byId.delivery.set(delivery.id, delivery);
    if (delivery.messageId) push(this.deliveriesOfMessage, delivery.messageId, delivery);
    return delivery;
  }

  private insertMessage(fields: MessageRecord): MessageRecord {
    if (this.byId.message.has(fields.id)) throw new Error(`There are two messages with the id ${fields.id}.`);
    const message = { ...fields };
    this.byId.message.set(message.id, message);
    if (message.messageSid && message.direction === "inbound") this.messageBySid.set(message.accountId, message.messageSid, message);
    push(this.messagesOfContact, message.contactId, message);
    const media = dataUrlBytes(message.mediaUrl);
    if (media > 0) this.mediaBytesOfAccount.set(message.accountId, this.mediaBytes(message.accountId) + media);
    return message;
  }

  clear(): void {
    drop(this.db);
    for (const index of [
      ...Object.values(this.byId),
      this.accountByKey,
      this.subaccountByEmail,
      this.contactByPhone,
      this.contactByEmail,
      this.contactByFromId,
      this.messageBySid,
      this.membersOf,
      this.listsOfContact,
      this.messagesOfContact,
      this.transactionsOf,
      this.contactsOfAccount,
      this.idempotency,
      this.deliveriesOfMessage,
      this.attemptsOfDelivery,
      this.alertsOfAccount,
      this.jobTable,
      this.mediaBytesOfAccount,
    ]) {
      index.clear();
    }
    if (!this.loading) this.changed({ table: "all" });
  }
}

/**
 * What an update may change: not the id, nor the fields the indexes beside @mswjs/data are keyed
 * by (those change through the store's own methods, which re-index). Named as `never`, so a
 * variable of a wider type that carries one does not pass either.
 */
type Patch<R, Indexed extends keyof R> = Partial<Omit<R, "id" | Indexed | symbol>> & { [K in "id" | Indexed]?: never };

/** Throws when two records of a table have one id. */
function refuseDuplicates(table: TableName, records: ReadonlyArray<{ id: string }> = []): void {
  const seen = new Set<string>();
  for (const { id } of records) {
    if (seen.has(id)) throw new Error(`There are two ${table} records with the id ${id}.`);
    seen.add(id);
  }
}

/** The record if it belongs to the account, else undefined. */
function ownedBy<R extends { accountId: string }>(accountId: string, record: R | undefined): R | undefined {
  return record?.accountId === accountId ? record : undefined;
}

function push<T>(map: Map<string, T[]>, key: string, value: T) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * An amount of credits a grant or an adjustment may move: not zero, at most 6 decimal places (an
 * amount with more would not add up in the history), at most 1e9 either way (no sum of such
 * amounts overflows a balance to Infinity).
 */
export function isCreditAmount(amount: number): boolean {
  const rounded = roundCredits(amount);
  return Number.isFinite(amount) && rounded !== 0 && Math.abs(rounded - amount) <= 1e-9 && Math.abs(amount) <= 1e9;
}

/** Credits are kept to 6 decimals, so 0.1 + 0.2 gives 0.3. */
export function roundCredits(value: number): number {
  // A value this large has no sixth decimal left to round, and scaling it could overflow to
  // Infinity (an opening balance of 1e303), which the snapshot and data file cannot hold.
  const scaled = value * 1e6;
  return Math.abs(scaled) < 2 ** 53 ? Math.round(scaled) / 1e6 : value;
}

/** A record of an account the records do not have (reachable by no key), described; else undefined. */
function orphanIn(records: Partial<Records>): string | undefined {
  const accounts = new Set((records.account ?? []).map((account) => account.id));
  for (const name of [...MODEL_NAMES, "delivery", "creditTransaction", "message", "idempotencyRecord"] as const) {
    if (name === "account") continue;
    for (const fields of records[name] ?? []) {
      const { id, accountId } = fields as { id?: unknown; accountId?: unknown };
      if (typeof accountId === "string" && !accounts.has(accountId)) return `${name} ${String(id)} belongs to account ${accountId}, which these records do not have`;
    }
  }
  return undefined;
}
