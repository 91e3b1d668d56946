/**
 * Contact lists and who is on them. Contacts join by the API one at a time, or by the dashboard's
 * manual add and import as one batch: the funnel (engine/funnel.ts) hears `list.joined` and
 * treats a batch as added "at once". Seeded members are the starting state and trigger nothing.
 */
import type { components } from "../generated/admin.js";
import type { JoinSource } from "../events/events.js";
import type { AccountRecord, ContactRecord, ListRecord } from "../store/models.js";
import { campaignIn } from "./campaigns.js";
import { upsertContact } from "./contacts.js";
import { ownedBy, publish, timestamp, writable, type Domain } from "./domain.js";
import { conflict, fail, notIn } from "./errors.js";
import { refusal, sortEntries } from "./import-entries.js";

type Schemas = components["schemas"];

export function createList(
  domain: Domain,
  owner: AccountRecord,
  input: { id?: string; name: string; campaignId?: string | null },
): ListRecord {
  const id = input.id ?? domain.ids.id("lst_");
  if (domain.store.list.get(id)) throw conflict(`A list with id ${id} already exists.`);
  if (input.campaignId) campaignIn(domain, owner.id, input.campaignId, `List ${id}`);
  const list = writable(domain).list.insert({
    id,
    accountId: owner.id,
    name: input.name,
    campaignId: input.campaignId ?? null,
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "list.created", list });
  return list;
}

/** Renames a list or sets the campaign its contacts join (one of the list's own account). */
export function updateList(domain: Domain, list: ListRecord, patch: Partial<Pick<ListRecord, "name" | "campaignId">>): ListRecord {
  if (patch.campaignId) campaignIn(domain, list.accountId, patch.campaignId, `List ${list.id}`);
  writable(domain).list.update(list, patch);
  publish(domain, { type: "list.updated", list });
  return list;
}

export const isMember = (domain: Domain, listId: string, contactId: string) =>
  domain.store.listMember.get(memberId(listId, contactId)) !== undefined;

/** The ids of the lists a contact is on. */
export const listIdsOf = (domain: Domain, contactId: string) =>
  domain.store.listMember.group("contact", contactId).map((member) => member.listId);

const memberId = (listId: string, contactId: string) => `${listId}:${contactId}`;

/**
 * Adds contacts to a list as one batch (`batch` names it); those already on it are left as they
 * are. The contacts that joined.
 */
export function join(
  domain: Domain,
  list: ListRecord,
  contacts: readonly ContactRecord[],
  source: JoinSource | "seed",
  batch: string,
): ContactRecord[] {
  const store = writable(domain);
  const seen = new Set<string>();
  const joined = contacts.filter((contact) => !seen.has(contact.id) && seen.add(contact.id) && !isMember(domain, list.id, contact.id));
  const addedAt = timestamp(domain);
  for (const contact of joined) {
    store.listMember.insert({ id: memberId(list.id, contact.id), listId: list.id, contactId: contact.id, source, addedAt });
  }
  for (const contact of joined) publish(domain, { type: "list.joined", list, contact, source, batch, batchSize: joined.length });
  return joined;
}

/**
 * The dashboard's manual add and import: contacts by id or as new contacts, joining as one batch.
 * Every entry is checked before anything is created: one that cannot be imported refuses the
 * whole import, naming each such entry, or with `onInvalid: "skip"` is left out and listed.
 */
export function importContacts(domain: Domain, list: ListRecord, input: Schemas["ImportInput"]): Schemas["ImportResult"] {
  const owner = domain.store.account.get(list.accountId) ?? fail(new Error(`List ${list.id} has no account.`));
  const contacts: ContactRecord[] = [];
  for (const contactId of input.contactIds ?? []) {
    contacts.push(ownedBy(owner.id, domain.store.contact.get(contactId)) ?? fail(notIn(`No contact ${contactId} in account ${owner.id}.`)));
  }
  const { valid, skipped } = sortEntries(domain, owner, input);
  if (skipped.length && (input.onInvalid ?? "refuse") === "refuse") throw refusal(skipped, input.contacts?.length ?? 0);
  for (const contact of valid) contacts.push(upsertContact(domain, owner, contact));
  // Their campaigns before they join: the list's campaign's opening message may move them at once.
  const campaignsBefore = new Map(contacts.map((c) => [c.id, c.campaignId]));
  const joined = join(domain, list, contacts, input.source ?? "import", domain.ids.id("imp_"));
  const campaignMoves = joined.flatMap(({ id }) => {
    const from = campaignsBefore.get(id);
    return from && list.campaignId && from !== list.campaignId
      ? [{ contactId: id, fromCampaignId: from, toCampaignId: list.campaignId }]
      : [];
  });
  return {
    listId: list.id,
    added: joined.length,
    alreadyMembers: contacts.length - joined.length,
    contactIds: joined.map((c) => c.id),
    skipped,
    campaignMoves,
  };
}
