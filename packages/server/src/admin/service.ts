/**
 * The dashboard's part of the service, as functions: accounts, agencies and sub-accounts, API
 * key generation, campaigns, lists and imports, and what tests read back (contacts, messages,
 * credits, the journal, the clock). The admin HTTP API and `createIntake().admin` are this.
 */
import type { Clock, VirtualClock } from "../shared/clock.js";
import type { Engine } from "../engine/index.js";
import type { DomainEvents } from "../engine/events.js";
import type { components } from "../generated/admin.js";
import { HttpError } from "../shared/errors.js";
import type { Faults, FaultRuleInput } from "../http/faults.js";
import type { RateLimiter } from "../http/rate-limit.js";
import { base64, newApiKey, type IdSource, type IdState } from "../shared/ids.js";
import type { Journal, JournalEntry } from "../http/journal.js";
import { toE164 } from "../operations/phone.js";
import { clean, storedCustomFields } from "../records/present-v1.js";
import { webhookUrlProblem } from "../shared/webhook-url.js";
import type { AccountRecord, ContactRecord } from "../store/models.js";
import { isCreditAmount, type Records, type Store } from "../store/store.js";
import {
  toAccount,
  toAdminContact,
  toAlert,
  toCampaign,
  toDelivery,
  toJob,
  toList,
  toMessage,
  toTransaction,
  type CampaignSettings,
} from "../records/present-admin.js";

type Schemas = components["schemas"];
export type Seed = Schemas["Seed"];
export type Snapshot = Schemas["Snapshot"];
export type AdminErrorCode = "VALIDATION_ERROR" | "NOT_FOUND" | "CONFLICT" | "UNAUTHORIZED";

const adminError = (status: number, code: AdminErrorCode, message: string) => new HttpError<AdminErrorCode>(status, code, message);
const missing = (what: string, id: string) => adminError(404, "NOT_FOUND", `No ${what} with id ${id}.`);
const conflict = (message: string) => adminError(409, "CONFLICT", message);

export const CAMPAIGN_DEFAULTS: CampaignSettings = {
  name: "Campaign",
  type: "Combined",
  language: "en",
  state: "Draft",
  channel: "messaging_app",
  botInstructions: "",
  companyInfo: "",
  faqs: [],
  resources: [],
  goal: "",
  openingTemplate: null,
  triggerOnNewListContacts: false,
  followUps: { enabled: false, delaysHours: [24, 72, 168], cycles: 3, messagesPerCycle: 3, messages: [] },
  botActive: true,
  handOffPhrases: ["talk to a human", "speak to a person", "real person", "human agent"],
};

export interface AdminDeps {
  store: Store;
  clock: Clock;
  ids: IdSource;
  journal: Journal;
  rateLimiter: RateLimiter;
  faults: Faults;
  events: DomainEvents;
  engine: Engine;
  /** Loaded again by a reset without a seed. */
  initialSeed: Seed | undefined;
  /** Runs a shape check of a seed against the admin contract (the HTTP layer does it for requests). */
  checkSeed: (seed: unknown) => void;
  /** Webhook URLs may be http:// to any host, not only to a loopback one. */
  allowHttpWebhooks: boolean;
}

export type AdminService = ReturnType<typeof createAdminService>;

export function createAdminService(deps: AdminDeps) {
  const { store, clock, ids, journal, rateLimiter, events } = deps;

  const account = (id: string) => store.account(id) ?? fail(missing("account", id));
  const newWebhookSecret = () => `whsec_${base64(ids.bytes(24))}`;

  /** Refuses a webhookUrl or autoRechargeUrl that webhooks must not go to; `where` says whose it is. */
  function checkWebhookUrls(input: { webhookUrl?: string | null; autoRechargeUrl?: string | null }, where = "") {
    for (const field of ["webhookUrl", "autoRechargeUrl"] as const) {
      const value = input[field];
      const problem = value == null ? undefined : webhookUrlProblem(value, deps.allowHttpWebhooks);
      if (problem) throw adminError(400, "VALIDATION_ERROR", `${where}${field} ${problem}`);
    }
  }

  function createAccountRecord(
    input: Partial<Schemas["AccountInput"] & Schemas["SubaccountInput"]>,
    kind: "standard" | "agency" | "subaccount",
    agencyId: string | null,
    source: "seed" | "admin",
  ): AccountRecord {
    const id = input.id ?? ids.id(kind === "subaccount" ? "sub_" : "acc_");
    if (store.account(id)) throw conflict(`An account with id ${id} already exists.`);
    checkWebhookUrls(input, source === "seed" ? `Seed account ${id}: ` : "");
    const apiKey = input.apiKey ?? newApiKey(ids);
    if (store.apiKeyInUse(apiKey)) throw conflict("That API key already belongs to another account.");
    if (agencyId && input.email && store.subaccount(agencyId, input.email)) {
      throw conflict(`Agency ${agencyId} already has a sub-account with the email ${input.email}.`);
    }
    const record = store.createAccount({
      id,
      kind,
      name: input.name ?? input.email ?? id,
      email: clean(input.email),
      userId: input.userId ?? ids.id("usr_"),
      agencyId,
      apiKey,
      webhookUrl: input.webhookUrl ?? null,
      webhookSecret: input.webhookSecret ?? newWebhookSecret(),
      autoRechargeUrl: input.autoRechargeUrl ?? null,
      autoRechargeThreshold: input.autoRecharge?.threshold ?? null,
      autoRechargeAmount: input.autoRecharge?.amount ?? null,
      defaultCampaignId: null,
      credits: 0,
      createdAt: store.timestamp(),
    });
    if (input.credits) store.addCredits(record, input.credits, { description: "Opening balance", source });
    return record;
  }

  function settingsOf(input: Schemas["CampaignSettings"], base: CampaignSettings = CAMPAIGN_DEFAULTS): CampaignSettings {
    const merged = { ...base, ...input, followUps: { ...base.followUps, ...input.followUps } };
    return merged as CampaignSettings;
  }

  function createCampaignRecord(owner: AccountRecord, input: Schemas["CampaignSettings"] & { id?: string }) {
    const id = input.id ?? ids.id("cmp_");
    if (store.campaignById(id)) throw conflict(`A campaign with id ${id} already exists.`);
    const { id: _id, ...settings } = input;
    const record = store.createCampaign({ id, accountId: owner.id, settings: JSON.stringify(settingsOf(settings)), createdAt: store.timestamp() });
    // An account's first campaign answers its custom-channel messages until another is chosen.
    if (!owner.defaultCampaignId) store.updateAccount(owner, { defaultCampaignId: record.id });
    return record;
  }

  function createListRecord(owner: AccountRecord, input: { id?: string; name: string; campaignId?: string | null }) {
    const id = input.id ?? ids.id("lst_");
    if (store.listById(id)) throw conflict(`A list with id ${id} already exists.`);
    if (input.campaignId && !store.campaign(owner.id, input.campaignId)) {
      throw adminError(404, "NOT_FOUND", `List ${id}: no campaign ${input.campaignId} in account ${owner.id}.`);
    }
    return store.createList({ id, accountId: owner.id, name: input.name, campaignId: input.campaignId ?? null, createdAt: store.timestamp() });
  }

  /**
   * The contact a seed or import entry matches (by phone number, else by fromId), or, for a new
   * one, its phone number in E.164 once the entry is checked to have something to reach it by.
   */
  function matchContact(owner: AccountRecord, input: Schemas["SeedContact"]): { known: ContactRecord } | { phone: string | null } {
    const phone = input.phone === undefined ? null : e164(input.phone);
    const known = (phone && store.contactByPhoneNumber(owner.id, phone)) || (input.fromId && store.contactBySender(owner.id, input.fromId));
    if (known) return { known };
    if (!phone && !input.email && !input.fromId) {
      throw adminError(400, "VALIDATION_ERROR", "A contact needs at least one of phone, email or fromId.");
    }
    return { phone };
  }

  /** A seed or import contact: matched by phone number when known, else created. */
  function upsertContact(owner: AccountRecord, input: Schemas["SeedContact"]): { contact: ContactRecord; created: boolean } {
    const match = matchContact(owner, input);
    if ("known" in match) return { contact: match.known, created: false };
    const id = input.id ?? ids.id("ct_");
    if (store.contactById(id)) throw conflict(`A contact with id ${id} already exists.`);
    const contact = store.createContact({
      id,
      accountId: owner.id,
      firstName: clean(input.firstName),
      lastName: clean(input.lastName),
      phone: match.phone,
      email: clean(input.email),
      customFields: storedCustomFields(input.customFields),
      fromId: input.fromId ?? null,
      customChannel: input.customChannel ?? null,
      botPaused: false,
      campaignId: null,
      createdAt: store.timestamp(),
    });
    return { contact, created: true };
  }

  function e164(phone: string): string {
    try {
      return toE164(phone);
    } catch (error) {
      throw adminError(400, "VALIDATION_ERROR", (error as Error).message);
    }
  }

  /** An account's nested campaigns, lists and contacts, in that order so references resolve. */
  function seedOwned(owner: AccountRecord, seed: Schemas["SeedAccount"] | Schemas["SeedSubaccount"]) {
    for (const campaign of seed.campaigns ?? []) createCampaignRecord(owner, campaign);
    if (seed.defaultCampaignId) {
      if (!store.campaign(owner.id, seed.defaultCampaignId)) throw missing("campaign", seed.defaultCampaignId);
      store.updateAccount(owner, { defaultCampaignId: seed.defaultCampaignId });
    }
    for (const contact of seed.contacts ?? []) upsertContact(owner, contact);
    for (const list of seed.lists ?? []) {
      const record = createListRecord(owner, list);
      for (const contactId of list.contactIds ?? []) {
        if (!store.contact(owner.id, contactId)) throw adminError(404, "NOT_FOUND", `List ${record.id}: no contact ${contactId} in account ${owner.id}.`);
        // Seeded members are the starting state: they do not trigger opening messages.
        store.addMember(record.id, contactId, "seed");
      }
    }
  }

  /** Applies a whole seed, or nothing of it: any error puts the state back as it was. */
  function applySeed(seed: Seed) {
    deps.checkSeed(seed);
    const before = store.records();
    try {
      for (const entry of seed.accounts ?? []) {
        const owner = createAccountRecord(entry, entry.kind ?? "standard", null, "seed");
        seedOwned(owner, entry);
        for (const sub of entry.subaccounts ?? []) {
          if (owner.kind !== "agency") throw adminError(400, "VALIDATION_ERROR", `Account ${owner.id} has sub-accounts but is not an agency (kind: agency).`);
          seedOwned(createAccountRecord(sub, "subaccount", owner.id, "seed"), sub);
        }
      }
    } catch (error) {
      store.load(before);
      throw error;
    }
    return store.counts();
  }

  /** The contact a phone number or email finds through the store's indexes (null: none); undefined when q is neither. */
  function indexedContact(accountId: string, q: string): ContactRecord | null | undefined {
    if (q.includes("@")) return store.contactByEmailAddress(accountId, q) ?? null;
    if (!/^\+[\d\s().-]+$/.test(q)) return undefined;
    let e164: string;
    try {
      e164 = toE164(q);
    } catch {
      return undefined;
    }
    return store.contactByPhoneNumber(accountId, e164) ?? null;
  }

  function* fromTheEnd<T>(items: T[]): Generator<T> {
    for (let i = items.length - 1; i >= 0; i--) yield items[i]!;
  }

  function filterPage<T>(items: T[], limit = 1000, offset = 0): T[] {
    return items.slice(offset, offset + limit);
  }

  return {
    applySeed,

    /**
     * Back to a seed (the starting one by default); a seed that fails leaves the state as it was.
     * Work in flight is stopped first, so none of it lands in the new state.
     */
    async reset(seed?: Seed) {
      const next = seed ?? deps.initialSeed;
      if (next) deps.checkSeed(next);
      await deps.engine.quiesce();
      const before = store.records();
      try {
        store.clear();
        if (next) applySeed(next);
      } catch (error) {
        store.load(before);
        deps.engine.restore();
        throw error;
      }
      journal.clear();
      rateLimiter.reset();
      deps.faults.reset();
      deps.engine.restore();
      return store.counts();
    },

    snapshot(): Snapshot {
      return {
        format: "intake-snapshot/1",
        savedAt: new Date(clock.now()).toISOString(),
        clock: { mode: clock.mode, now: new Date(clock.now()).toISOString() },
        ids: (ids.state() ?? null) as Snapshot["ids"],
        records: store.records() as unknown as Snapshot["records"],
      };
    },

    /** Replaces the state with a snapshot, once the work in flight has stopped. */
    async restore(snapshot: Snapshot) {
      await deps.engine.quiesce();
      return this.load(snapshot);
    },

    /** Loads a snapshot (at start, or once the engine is quiet) and picks its scheduled work up. */
    load(snapshot: Snapshot) {
      if (snapshot.format !== "intake-snapshot/1") {
        throw adminError(400, "VALIDATION_ERROR", `Not a snapshot this server can read (format ${String(snapshot.format)}).`);
      }
      try {
        store.load(snapshot.records as unknown as Partial<Records>);
      } catch (error) {
        deps.engine.restore();
        throw adminError(400, "VALIDATION_ERROR", `${(error as Error).message}. Nothing was changed.`);
      }
      deps.engine.restore();
      return store.counts();
    },

    // Accounts -------------------------------------------------------------------------------

    listAccounts: () => store.accounts().map(toAccount),

    getAccount: (id: string) => toAccount(account(id)),

    createAccount(input: Schemas["AccountInput"]) {
      return toAccount(createAccountRecord(input, input.kind ?? "standard", null, "admin"));
    },

    createSubaccount(agencyId: string, input: Schemas["SubaccountInput"]) {
      const agency = account(agencyId);
      if (agency.kind !== "agency") throw conflict(`Account ${agencyId} is not an agency; only agencies have sub-accounts.`);
      return toAccount(createAccountRecord(input, "subaccount", agency.id, "admin"));
    },

    updateAccount(id: string, patch: Schemas["AccountPatch"]) {
      const record = account(id);
      if (patch.defaultCampaignId && !store.campaign(record.id, patch.defaultCampaignId)) throw missing("campaign", patch.defaultCampaignId);
      checkWebhookUrls(patch);
      const fields: Parameters<Store["updateAccount"]>[1] = {};
      if (patch.name !== undefined) fields.name = patch.name;
      if (patch.webhookUrl !== undefined) fields.webhookUrl = patch.webhookUrl;
      if (patch.autoRechargeUrl !== undefined) fields.autoRechargeUrl = patch.autoRechargeUrl;
      if (patch.defaultCampaignId !== undefined) fields.defaultCampaignId = patch.defaultCampaignId;
      if (patch.autoRecharge !== undefined) {
        fields.autoRechargeThreshold = patch.autoRecharge?.threshold ?? null;
        fields.autoRechargeAmount = patch.autoRecharge?.amount ?? null;
      }
      return toAccount(store.updateAccount(record, fields));
    },

    /** Settings > Account > API Key > Generate: the old key stops working at once. */
    generateApiKey(id: string, key?: string) {
      const record = account(id);
      const next = key ?? newApiKey(ids);
      if (store.apiKeyInUse(next)) throw conflict("That API key already belongs to an account.");
      store.setApiKey(record, next);
      return toAccount(record);
    },

    credits(id: string): Schemas["Credits"] {
      const record = account(id);
      return { accountId: record.id, balance: record.credits, transactions: store.transactions(record.id).map(toTransaction) };
    },

    adjustCredits(id: string, amount: number, description?: string) {
      const record = account(id);
      if (!isCreditAmount(amount)) {
        throw adminError(400, "VALIDATION_ERROR", "amount must be a non-zero number of credits with at most 6 decimal places, at most 1000000000 either way.");
      }
      if (record.credits + amount < 0) {
        throw conflict(`Account ${id} has ${record.credits} credits; it cannot lose ${-amount}.`);
      }
      const before = record.credits;
      store.addCredits(record, amount, { description: description ?? (amount > 0 ? "Credits added" : "Credits removed"), source: "admin" });
      if (amount < 0) deps.engine.debited(record, before);
      return this.credits(id);
    },

    // Campaigns and lists --------------------------------------------------------------------

    listCampaigns: (accountId?: string) => store.campaigns(accountId).map(toCampaign),

    getCampaign: (id: string) => toCampaign(store.campaignById(id) ?? fail(missing("campaign", id))),

    createCampaign(input: Schemas["CampaignInput"]) {
      const { accountId, ...settings } = input;
      return toCampaign(createCampaignRecord(account(accountId), settings));
    },

    updateCampaign(id: string, patch: Schemas["CampaignPatch"]) {
      const record = store.campaignById(id) ?? fail(missing("campaign", id));
      const current = toCampaign(record);
      const { id: _id, accountId: _accountId, createdAt: _createdAt, ...settings } = current;
      return toCampaign(store.updateCampaign(record, JSON.stringify(settingsOf(patch, settings))));
    },

    listLists: (accountId?: string) => store.lists(accountId).map((l) => toList(l, store.memberCount(l.id))),

    getList(id: string) {
      const list = store.listById(id) ?? fail(missing("list", id));
      return toList(list, store.memberCount(id));
    },

    createList(input: Schemas["ListInput"]) {
      const record = createListRecord(account(input.accountId), input);
      return toList(record, 0);
    },

    updateList(id: string, patch: Schemas["ListPatch"]) {
      const list = store.listById(id) ?? fail(missing("list", id));
      if (patch.campaignId && !store.campaign(list.accountId, patch.campaignId)) throw missing("campaign", patch.campaignId);
      const fields: Parameters<Store["updateList"]>[1] = {};
      if (patch.name !== undefined) fields.name = patch.name;
      if (patch.campaignId !== undefined) fields.campaignId = patch.campaignId;
      return toList(store.updateList(list, fields), store.memberCount(id));
    },

    listMembers(id: string, page: { limit?: number; offset?: number } = {}) {
      const list = store.listById(id) ?? fail(missing("list", id));
      return filterPage(store.members(list.id), page.limit, page.offset).map((m) => toAdminContact(store.contact(list.accountId, m.contactId)!));
    },

    /**
     * The dashboard's manual add and import: contacts by id or as new contacts, joining as one
     * batch. The funnel trigger treats the batch as added "at once".
     */
    importContacts(id: string, input: Schemas["ImportInput"]): Schemas["ImportResult"] {
      const list = store.listById(id) ?? fail(missing("list", id));
      const owner = account(list.accountId);
      const source = input.source ?? "import";
      const contacts: ContactRecord[] = [];
      for (const contactId of input.contactIds ?? []) {
        contacts.push(store.contact(owner.id, contactId) ?? fail(adminError(404, "NOT_FOUND", `No contact ${contactId} in account ${owner.id}.`)));
      }
      // Every entry is checked before anything is created, so a bad one leaves no half-done import.
      const newIds = new Set<string>();
      for (const contact of input.contacts ?? []) {
        if ("known" in matchContact(owner, contact)) continue;
        if (contact.id && (store.contactById(contact.id) || newIds.has(contact.id))) throw conflict(`A contact with id ${contact.id} already exists.`);
        if (contact.id) newIds.add(contact.id);
      }
      for (const contact of input.contacts ?? []) contacts.push(upsertContact(owner, contact).contact);
      const batch = ids.id("imp_");
      const joined: ContactRecord[] = [];
      for (const contact of contacts) if (store.addMember(list.id, contact.id, source)) joined.push(contact);
      for (const contact of joined) events.emit("contactAddedToList", { list, contact, source, batch, batchSize: joined.length });
      return { listId: list.id, added: joined.length, alreadyMembers: contacts.length - joined.length, contactIds: joined.map((c) => c.id) };
    },

    // What tests read back -------------------------------------------------------------------

    listContacts(filter: { accountId?: string; q?: string; order?: "oldest" | "newest"; limit?: number; offset?: number } = {}) {
      const limit = filter.limit ?? 1000;
      const offset = filter.offset ?? 0;
      const q = filter.q?.trim();
      const newest = filter.order === "newest";
      const all = store.contacts(filter.accountId);
      const row = (contact: ContactRecord): Schemas["ContactRow"] => ({ ...toAdminContact(contact), listIds: store.listIdsOf(contact.id) });
      if (!q) {
        // Newest first is the same page counted from the end, so no copy of every contact is made.
        const page = newest ? all.slice(Math.max(0, all.length - offset - limit), Math.max(0, all.length - offset)).reverse() : filterPage(all, limit, offset);
        return page.map(row);
      }
      const indexed = filter.accountId ? indexedContact(filter.accountId, q) : undefined;
      if (indexed !== undefined) return (offset === 0 && indexed ? [indexed] : []).map(row);
      // A name is found by scanning, stopping once the page is full: a first page is quick at any size.
      const needle = q.toLowerCase();
      const found: ContactRecord[] = [];
      let skipped = 0;
      for (const contact of newest ? fromTheEnd(all) : all) {
        if (!contactMatches(contact, needle)) continue;
        if (skipped < offset) skipped++;
        else if (found.push(contact) >= limit) break;
      }
      return found.map(row);
    },

    getContact(id: string): Schemas["ContactDetail"] {
      const contact = store.contactById(id) ?? fail(missing("contact", id));
      return {
        contact: toAdminContact(contact),
        listIds: store.listIdsOf(contact.id),
        messages: store.conversation(contact.id).map(toMessage),
        alerts: store.alerts(contact.accountId).filter((a) => a.contactId === contact.id).map(toAlert),
      };
    },

    /** After a hand-off, a team member resumes the bot for the contact (or pauses it by hand). */
    updateContact(id: string, patch: { botPaused: boolean }) {
      const contact = store.contactById(id) ?? fail(missing("contact", id));
      return toAdminContact(store.updateContact(contact, { botPaused: patch.botPaused }));
    },

    /** A reply typed in the app. */
    replyToContact(id: string, body: string) {
      const contact = store.contactById(id) ?? fail(missing("contact", id));
      const message = deps.engine.humanReply(contact, body);
      if (!message) throw conflict(`Account ${contact.accountId} has no credits for a first message to this contact.`);
      return toMessage(message);
    },

    listDeliveries(filter: { accountId?: string; messageId?: string; contactId?: string; kind?: string; state?: string; limit?: number; offset?: number } = {}) {
      const source = filter.messageId
        ? store.deliveriesOf(filter.messageId)
        : filter.contactId
          ? store.conversation(filter.contactId).flatMap((m) => (m.direction === "outbound" ? store.deliveriesOf(m.id) : []))
          : store.deliveries();
      const matching = source.filter(
        (d) => (!filter.accountId || d.accountId === filter.accountId) && (!filter.kind || d.kind === filter.kind) && (!filter.state || d.state === filter.state),
      );
      return filterPage(matching, filter.limit, filter.offset).map((d) => toDelivery(d, store.attemptsOf(d.id)));
    },

    getDelivery(id: string) {
      const delivery = store.delivery(id) ?? fail(missing("delivery", id));
      return toDelivery(delivery, store.attemptsOf(delivery.id));
    },

    redeliver(id: string) {
      const delivery = store.delivery(id) ?? fail(missing("delivery", id));
      if (delivery.state === "pending") throw conflict(`Delivery ${id} is still under way (next attempt at ${delivery.nextAttemptAt ?? "once one is free"}): it is sent again only once it has been delivered or has failed.`);
      deps.engine.redeliver(delivery);
      return toDelivery(delivery, store.attemptsOf(delivery.id));
    },

    listAlerts: (accountId?: string) => store.alerts(accountId).map(toAlert),

    listJobs: () => deps.engine.pending().map(toJob),

    async settle() {
      await deps.engine.settle();
      return { scheduled: deps.engine.pending().length };
    },

    listMessages(filter: { accountId?: string; contactId?: string; direction?: "inbound" | "outbound"; limit?: number; offset?: number } = {}) {
      const source = filter.contactId ? store.conversation(filter.contactId) : store.messages();
      const matching = source.filter(
        (m) => (!filter.accountId || m.accountId === filter.accountId) && (!filter.direction || m.direction === filter.direction),
      );
      return filterPage(matching, filter.limit, filter.offset).map(toMessage);
    },

    getMessage: (id: string) => toMessage(store.messageById(id) ?? fail(missing("message", id))),

    journal(filter: { operationId?: string; status?: number; accountId?: string; limit?: number } = {}): JournalEntry[] {
      const entries = journal
        .list()
        .filter(
          (e) =>
            (!filter.operationId || e.operationId === filter.operationId) &&
            (filter.status === undefined || e.status === filter.status) &&
            (!filter.accountId || e.accountId === filter.accountId),
        );
      return filter.limit ? entries.slice(-filter.limit) : entries;
    },

    clearJournal: () => journal.clear(),

    listFaults: () => deps.faults.list(),
    setFaults: (rules: FaultRuleInput[]) => deps.faults.set(rules),
    clearFaults: () => deps.faults.clear(),

    clock: (): Schemas["Clock"] => ({ mode: clock.mode, now: new Date(clock.now()).toISOString() }),

    async advanceClock(by: { ms?: number; to?: string }): Promise<Schemas["Clock"]> {
      if (clock.mode !== "virtual") throw conflict("The clock is real; start the server with --clock virtual to advance it.");
      const target = by.to === undefined ? undefined : Date.parse(by.to);
      if ((by.ms === undefined) === (target === undefined)) throw adminError(400, "VALIDATION_ERROR", "Give ms or to, not both.");
      const ms = target === undefined ? by.ms! : target - clock.now();
      if (ms < 0) throw conflict(`The clock is at ${new Date(clock.now()).toISOString()}; it does not go back.`);
      // Past year 9999 a time has no date-time a snapshot can hold (nor, past 275760, any Date):
      // the state would no longer save or restore. A `to` with a negative offset can get there too.
      if (clock.now() + ms > LAST_TIME) {
        throw adminError(400, "VALIDATION_ERROR", `${by.ms === undefined ? "to" : "ms"} would move the clock past ${new Date(LAST_TIME).toISOString()}, the last time a snapshot holds.`);
      }
      // Work already started finishes first, then whatever falls due on the way runs in order.
      await deps.engine.settle();
      await (clock as VirtualClock).advance(ms);
      await deps.engine.settle();
      // The time is part of the saved state.
      store.changed({ table: "clock" });
      return { mode: clock.mode, now: new Date(clock.now()).toISOString() };
    },

    idState: (): IdState | undefined => ids.state(),
  };
}

/** 9999-12-31T23:59:59.999Z: the last time with a four-digit year, as date-time needs. */
const LAST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function fail(error: Error): never {
  throw error;
}

function contactMatches(contact: ContactRecord, needle: string): boolean {
  const name = `${contact.firstName ?? ""} ${contact.lastName ?? ""}`.toLowerCase();
  return name.includes(needle) || (contact.phone?.includes(needle) ?? false) || (contact.email?.toLowerCase().includes(needle) ?? false);
}
