/**
 * /__admin: one handler per operationId of admin-openapi.yaml (the type makes a missing one a
 * compile error). Each finds the records its path names, calls the domain (or the engine, for the
 * clock and the work in flight) and answers in the admin contract's shapes.
 */
import { adminDocument } from "../generated/admin-document.js";
import type { components, operations as contract } from "../generated/admin.js";
import { adjustCredits, createAccount, createSubaccount, rotateApiKey, setCredits, updateAccount } from "../domain/accounts.js";
import { createCampaign, updateCampaign } from "../domain/campaigns.js";
import { clockAfterReset } from "../domain/clock.js";
import { createOrFindContact, searchContacts, updateContact } from "../domain/contacts.js";
import { deleteCampaign, deleteContact, deleteList } from "../domain/deletions.js";
import { findDeliveries, redeliver } from "../domain/deliveries.js";
import type { Domain } from "../domain/domain.js";
import { fail, missing } from "../domain/errors.js";
import { createList, importContacts, listIdsOf, updateList } from "../domain/lists.js";
import { findMessages } from "../domain/messages.js";
import { toE164 } from "../domain/phone.js";
import { humanReply } from "../domain/replies.js";
import { simulateInbound } from "../domain/simulated.js";
import { applySeed, loadSnapshot, resetState, snapshot, type Seed } from "../domain/state.js";
import type { Engine } from "../engine/index.js";
import type { HeaderReader, Result } from "../contract/exchange.js";
import type { Faults } from "../faults/faults.js";
import type { Inbox } from "../inbox/inbox.js";
import type { Journal } from "../live/journal.js";
import * as present from "../records/present-admin.js";
import { HttpError } from "../shared/errors.js";
import { contactRef, deliveryContact, jobContact } from "../records/subjects.js";
import type { AccountRecord, AlertRecord, ContactRecord, DeliveryRecord } from "../store/models.js";

type Schemas = components["schemas"];
type BodyOf<Id extends keyof contract> = contract[Id] extends { requestBody?: { content: { "application/json": infer B } } }
  ? B
  : undefined;

/** The query as the contract types it, once validated (numbers are numbers). */
type QueryOf<Id extends keyof contract> = contract[Id] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : Record<string, never>;

export interface Call<Id extends keyof contract> {
  body: BodyOf<Id>;
  query: QueryOf<Id>;
  params: Record<string, string>;
  headers: HeaderReader;
}

export interface AdminDeps {
  domain: Domain;
  engine: Engine;
  inbox: Inbox;
  journal: Journal;
  faults: Faults;
  /** What a reset without a seed goes back to. */
  initialSeed: Seed | undefined;
  /** Where the seed starts on a virtual clock (`clockStart`): what a reset rewinds it to. */
  clockStart: number;
  /** The live events' stream, of one account or all, after a replay of the events held after `after`. */
  openEvents: (options: { accountId?: string; after?: number }) => ReadableStream<Uint8Array>;
}

export type AdminHandler<Id extends keyof contract> = (call: Call<Id>, deps: AdminDeps) => Result | Promise<Result>;

const ok = (body: unknown): Result => ({ status: 200, body });
const created = (body: unknown): Result => ({ status: 201, body });
const noContent: Result = { status: 204, body: null };

const accountOf = ({ store }: Domain, id: string) => store.account.get(id) ?? fail(missing("account", id));
const listOf = ({ store }: Domain, id: string) => store.list.get(id) ?? fail(missing("list", id));
const campaignOf = ({ store }: Domain, id: string) => store.campaign.get(id) ?? fail(missing("campaign", id));
const contactOf = ({ store }: Domain, id: string) => store.contact.get(id) ?? fail(missing("contact", id));
const messageOf = ({ store }: Domain, id: string) => store.message.get(id) ?? fail(missing("message", id));
const deliveryOf = ({ store }: Domain, id: string) => store.delivery.get(id) ?? fail(missing("delivery", id));

/** A page of a list: `limit` (default 1000) from `offset`. */
const page = <T>(items: readonly T[], query: { limit?: number; offset?: number }) => {
  const offset = query.offset ?? 0;
  return items.slice(offset, offset + (query.limit ?? 1000));
};

const credits = ({ store }: Domain, account: AccountRecord): Schemas["Credits"] => ({
  accountId: account.id,
  balance: account.credits,
  transactions: store.creditTransaction.group("account", account.id).map(present.toTransaction),
});
const listView = ({ store }: Domain, list: Parameters<typeof present.toList>[0]) =>
  present.toList(list, store.listMember.group("list", list.id).length);
const contactRow = (domain: Domain, contact: ContactRecord): Schemas["ContactRow"] => ({
  ...present.toAdminContact(contact),
  listIds: listIdsOf(domain, contact.id),
});
const deliveryView = ({ store }: Domain, delivery: DeliveryRecord) =>
  present.toDelivery(delivery, store.deliveryAttempt.group("delivery", delivery.id), contactRef(deliveryContact(store, delivery)));
const alertView = ({ store }: Domain, alert: AlertRecord) => present.toAlert(alert, contactRef(store.contact.get(alert.contactId)));
const clockView = ({ clock }: Domain): Schemas["Clock"] => ({ mode: clock.mode, now: new Date(clock.now()).toISOString() });

/**
 * A deletion, with no work in flight (as a reset): nothing running writes for what it removes, and
 * the jobs it removed are never started. The record is found first (an unknown id is 404 with
 * nothing stopped), and again once the work has stopped: a reset meanwhile may have replaced it.
 */
async function deleting<R>(
  { domain, engine }: AdminDeps,
  find: (domain: Domain) => R,
  remove: (domain: Domain, record: R) => void,
): Promise<Result> {
  find(domain);
  await engine.whilePaused(() => remove(domain, find(domain)));
  return noContent;
}

/** All records of a table, or one account's. */
const ofAccount = <R>(
  table: { all(): Iterable<R>; group(name: "account", value: string): readonly R[] },
  { accountId }: { accountId?: string },
) => {
  return accountId ? table.group("account", accountId) : [...table.all()];
};

export const operations: { [Id in keyof contract]: AdminHandler<Id> } = {
  getAdminOpenApi: () => ok(adminDocument),

  // The whole state
  getSnapshot: (_, { domain }) => ok(snapshot(domain)),
  restoreSnapshot: async ({ body }, { domain, engine }) => ok(await engine.whilePaused(() => loadSnapshot(domain, body, "restore"))),
  async resetState({ body, query }, { domain, engine, initialSeed, clockStart }) {
    const clockTo = clockAfterReset(domain, clockStart, query.clock);
    return ok(await engine.whilePaused(() => resetState(domain, body ?? initialSeed, clockTo)));
  },
  // Paused like a reset: a seed that fails puts the whole state back, under no work in flight.
  applySeed: async ({ body }, { domain, engine }) => ok(await engine.whilePaused(() => applySeed(domain, body))),

  // Accounts
  listAccounts: (_, { domain }) => ok([...domain.store.account.all()].map(present.toAccount)),
  createAccount: ({ body }, { domain }) => created(present.toAccount(createAccount(domain, body, body.kind ?? "standard", null, "admin"))),
  getAccount: ({ params }, { domain }) => ok(present.toAccount(accountOf(domain, params.accountId ?? ""))),
  updateAccount: ({ params, body }, { domain }) =>
    ok(present.toAccount(updateAccount(domain, accountOf(domain, params.accountId ?? ""), body))),
  generateApiKey: ({ params, body }, { domain }) =>
    ok(present.toAccount(rotateApiKey(domain, accountOf(domain, params.accountId ?? ""), body?.apiKey))),
  createSubaccount: ({ params, body }, { domain }) =>
    created(present.toAccount(createSubaccount(domain, accountOf(domain, params.accountId ?? ""), body))),
  sendTestWebhook: async ({ params }, { domain, engine }) => ok(await engine.testWebhook(accountOf(domain, params.accountId ?? ""))),
  getCredits: ({ params }, { domain }) => ok(credits(domain, accountOf(domain, params.accountId ?? ""))),
  adjustCredits({ params, body }, { domain }) {
    const account = accountOf(domain, params.accountId ?? "");
    // The contract takes one of the two (its oneOf).
    if (body.balance !== undefined) setCredits(domain, account, body.balance, body.description);
    else adjustCredits(domain, account, body.amount!, body.description);
    return ok(credits(domain, account));
  },

  // Campaigns and lists
  listCampaigns: ({ query }, { domain }) => ok(ofAccount(domain.store.campaign, query).map(present.toCampaign)),
  createCampaign({ body }, { domain }) {
    const { accountId, ...settings } = body;
    return created(present.toCampaign(createCampaign(domain, accountOf(domain, accountId), settings)));
  },
  getCampaign: ({ params }, { domain }) => ok(present.toCampaign(campaignOf(domain, params.campaignId ?? ""))),
  updateCampaign: ({ params, body }, { domain }) =>
    ok(present.toCampaign(updateCampaign(domain, campaignOf(domain, params.campaignId ?? ""), body))),
  deleteCampaign: ({ params }, deps) => deleting(deps, (domain) => campaignOf(domain, params.campaignId ?? ""), deleteCampaign),
  listLists: ({ query }, { domain }) => ok(ofAccount(domain.store.list, query).map((list) => listView(domain, list))),
  createList: ({ body }, { domain }) => created(listView(domain, createList(domain, accountOf(domain, body.accountId), body))),
  getList: ({ params }, { domain }) => ok(listView(domain, listOf(domain, params.listId ?? ""))),
  updateList({ params, body }, { domain }) {
    const list = listOf(domain, params.listId ?? "");
    const patch = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.campaignId !== undefined ? { campaignId: body.campaignId } : {}),
    };
    return ok(listView(domain, updateList(domain, list, patch)));
  },
  deleteList: ({ params }, deps) => deleting(deps, (domain) => listOf(domain, params.listId ?? ""), deleteList),
  listMembers({ params, query }, { domain }) {
    const list = listOf(domain, params.listId ?? "");
    const members = page(domain.store.listMember.group("list", list.id), query);
    return ok(members.map((member) => present.toAdminContact(contactOf(domain, member.contactId))));
  },
  importContacts: ({ params, body }, { domain }) => ok(importContacts(domain, listOf(domain, params.listId ?? ""), body)),

  // Contacts and their conversations
  listContacts: ({ query }, { domain }) => ok(searchContacts(domain, query).map((contact) => contactRow(domain, contact))),
  getContact({ params }, { domain, engine }) {
    const contact = contactOf(domain, params.contactId ?? "");
    return ok({
      contact: present.toAdminContact(contact),
      listIds: listIdsOf(domain, contact.id),
      messages: domain.store.message.group("contact", contact.id).map(present.toMessage),
      alerts: domain.store.alert.group("contact", contact.id).map((alert) => alertView(domain, alert)),
      followUps: engine.followUps(contact),
    } satisfies Schemas["ContactDetail"]);
  },
  createContact({ body }, { domain }) {
    const { accountId, phone, ...fields } = body;
    // The rules of POST /v1/contacts: a phone number in E.164 (else INVALID_PHONE), a known one (or email) answers its contact.
    const { contact, created } = createOrFindContact(domain, accountOf(domain, accountId), {
      ...fields,
      phone: phone === undefined ? null : toE164(phone),
    });
    return { status: created ? 201 : 200, body: present.toAdminContact(contact) };
  },
  async simulateInbound({ params, body }, { domain }) {
    const contact = contactOf(domain, params.contactId ?? "");
    return created(present.toMessage(await simulateInbound(domain, accountOf(domain, contact.accountId), contact, body)));
  },
  updateContact: ({ params, body }, { domain }) =>
    ok(present.toAdminContact(updateContact(domain, contactOf(domain, params.contactId ?? ""), { botPaused: body.botPaused }))),
  deleteContact: ({ params }, deps) => deleting(deps, (domain) => contactOf(domain, params.contactId ?? ""), deleteContact),
  replyToContact({ params, body }, { domain }) {
    const contact = contactOf(domain, params.contactId ?? "");
    return created(present.toMessage(humanReply(domain, accountOf(domain, contact.accountId), contact, body.body)));
  },
  listMessages: ({ query }, { domain }) => ok(page(findMessages(domain, query), query).map(present.toMessage)),
  getMessage: ({ params }, { domain }) => ok(present.toMessage(messageOf(domain, params.messageId ?? ""))),
  retryBot({ params }, { domain, engine }) {
    const message = messageOf(domain, params.messageId ?? "");
    engine.askBotAgain(message);
    return ok(present.toMessage(message));
  },

  // Webhooks, alerts and work
  listDeliveries: ({ query }, { domain }) =>
    ok(page(findDeliveries(domain, query), query).map((delivery) => deliveryView(domain, delivery))),
  getDelivery: ({ params }, { domain }) => ok(deliveryView(domain, deliveryOf(domain, params.deliveryId ?? ""))),
  redeliver({ params }, { domain }) {
    const delivery = deliveryOf(domain, params.deliveryId ?? "");
    redeliver(domain, delivery);
    return ok(deliveryView(domain, delivery));
  },
  listAlerts: ({ query }, { domain }) => ok(ofAccount(domain.store.alert, query).map((alert) => alertView(domain, alert))),
  listJobs: (_, { domain, engine }) => ok(engine.pending().map((job) => present.toJob(job, jobContact(domain.store, job)))),
  settle: async (_, { engine }) => {
    await engine.settle();
    return ok({ scheduled: engine.pending().length });
  },

  // The webhook inbox
  getInbox: ({ params }, { domain, inbox }) => ok(inbox.view(accountOf(domain, params.accountId ?? ""))),
  updateInbox: ({ params, body }, { domain, inbox }) => ok(inbox.setAnswer(accountOf(domain, params.accountId ?? ""), body.answerStatus)),
  clearInbox: ({ params }, { domain, inbox }) => (inbox.clear(accountOf(domain, params.accountId ?? "")), noContent),

  // The journal, faults and the clock
  getJournal({ query }, { journal }) {
    const { operationId, status, accountId, limit } = query as {
      operationId?: string;
      status?: number;
      accountId?: string;
      limit?: number;
    };
    const entries = journal
      .list()
      .filter(
        (e) =>
          (!operationId || e.operationId === operationId) &&
          (status === undefined || e.status === status) &&
          (!accountId || e.accountId === accountId),
      );
    return ok(limit ? entries.slice(-limit) : entries);
  },
  clearJournal: (_, { journal }) => (journal.clear(), noContent),
  listFaults: (_, { faults }) => ok(faults.list()),
  setFaults: ({ body }, { faults }) => ok(faults.set(body)),
  clearFaults: (_, { faults }) => (faults.clear(), noContent),
  getBot: (_, { engine }) => ok(engine.botInfo()),
  getClock: (_, { domain }) => ok(clockView(domain)),
  async advanceClock({ body }, { domain, engine }) {
    await engine.advanceClock(body);
    return ok(clockView(domain));
  },
  streamEvents({ query, headers }, { openEvents }) {
    const after = lastEventId(headers.get("last-event-id")) ?? (query.lastEventId as number | undefined);
    return {
      status: 200,
      body: null,
      stream: openEvents({ accountId: query.accountId as string | undefined, after }),
      // x-accel-buffering: a proxy in front (nginx) passes each event on as it comes.
      headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" },
    };
  },
};

/** A Last-Event-ID header's id (the stream's ids are whole numbers). */
function lastEventId(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (!/^\d{1,15}$/.test(header.trim()))
    throw new HttpError(400, "VALIDATION_ERROR", "Last-Event-ID must be the id of an event of this stream, a whole number.");
  return Number(header.trim());
}
