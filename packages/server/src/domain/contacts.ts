/**
 * Contacts: created by /v1 (found again by phone number, or email when there is none), by a
 * custom-channel sender (the same fromId is always the same contact), by a seed or an import; the
 * bot paused for one after a hand-off; the campaign a conversation belongs to.
 */
import { roomFor } from "./capacity.js";
import type { components } from "../generated/admin.js";
import type { AccountRecord, ContactRecord } from "../store/models.js";
import { publish, timestamp, writable, type Domain } from "./domain.js";
import { conflict, invalid } from "./errors.js";
import { toE164 } from "./phone.js";

type SeedContact = components["schemas"]["SeedContact"];

/** What a new contact may be given; the rest starts empty. */
export interface ContactFields {
  firstName?: string | null;
  lastName?: string | null;
  /** In E.164. */
  phone?: string | null;
  email?: string | null;
  customFields?: Record<string, unknown> | null;
  fromId?: string | null;
  customChannel?: string | null;
}

/** A new contact; `id` only where the caller chooses it (a seed, an import). */
export function createContact(domain: Domain, owner: AccountRecord, fields: ContactFields, id?: string): ContactRecord {
  roomFor(domain, "contacts");
  const contact = writable(domain).contact.insert({
    id: id ?? domain.ids.id("ct_"),
    accountId: owner.id,
    firstName: clean(fields.firstName),
    lastName: clean(fields.lastName),
    phone: fields.phone ?? null,
    email: clean(fields.email),
    customFields: storedCustomFields(fields.customFields),
    fromId: fields.fromId ?? null,
    customChannel: fields.customChannel ?? null,
    botPaused: false,
    campaignId: null,
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "contact.created", contact });
  return contact;
}

export function updateContact(
  domain: Domain,
  contact: ContactRecord,
  patch: Partial<Pick<ContactRecord, "botPaused" | "campaignId" | "customChannel" | "fromId" | "firstName" | "lastName" | "email">>,
): ContactRecord {
  writable(domain).contact.update(contact, patch);
  publish(domain, { type: "contact.updated", contact });
  return contact;
}

export const contactByPhone = (domain: Domain, accountId: string, e164: string) => domain.store.contact.find("phone", accountId, e164);
export const contactByEmail = (domain: Domain, accountId: string, email: string) =>
  domain.store.contact.find("email", accountId, email.toLowerCase());

/**
 * POST /contacts: a contact with this phone number (or, given none, this email) is returned as
 * it is; otherwise a new one is made.
 */
export function createOrFindContact(
  domain: Domain,
  owner: AccountRecord,
  fields: ContactFields,
): { contact: ContactRecord; created: boolean } {
  const email = clean(fields.email);
  // /v1's contract requires one of them before this runs; the admin API's "New contact" is checked here.
  if (!fields.phone && !email)
    throw invalid("A contact needs a phone number or an email: give phone (with its country code, starting with +) or email, or both.");
  const existing = fields.phone
    ? contactByPhone(domain, owner.id, fields.phone)
    : email
      ? contactByEmail(domain, owner.id, email)
      : undefined;
  if (existing) return { contact: existing, created: false };
  return { contact: createContact(domain, owner, fields), created: true };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A fromId that is a phone number with its country code, in E.164; else null. */
function phoneOf(fromId: string): string | null {
  if (!fromId.trim().startsWith("+")) return null;
  try {
    return toE164(fromId);
  } catch {
    return null;
  }
}

/** What a custom-channel message may tell of its sender. */
export interface SenderFields {
  firstName?: string;
  lastName?: string;
  email?: string;
}

/**
 * The contact a custom-channel sender maps to, created or updated. The same fromId is always the
 * same contact. A fromId seen for the first time that is a phone number or an email already on a
 * contact without a fromId links to that contact (a lead created by a funnel who then writes in);
 * otherwise it is a new contact, with the fromId's phone.
 *
 * The names and email a message brings fill the fields its contact lacks, on creation and on every
 * later message, and replace none: a name or email already there may come from the funnel's form
 * or the dashboard, which know the lead better than a chat platform's profile. A phone number or
 * email that another contact of the account has is not copied, so a lookup by it finds one contact.
 */
export function contactForSender(
  domain: Domain,
  owner: AccountRecord,
  fromId: string,
  channel: string | null,
  fields: SenderFields,
): ContactRecord {
  const known = domain.store.contact.find("fromId", owner.id, fromId);
  if (known)
    return updated(domain, known, {
      ...(channel && known.customChannel !== channel ? { customChannel: channel } : {}),
      ...missingFields(domain, known, fields),
    });
  const phone = phoneOf(fromId);
  const email = EMAIL.test(fromId) ? fromId : null;
  const linked = (phone && contactByPhone(domain, owner.id, phone)) || (email && contactByEmail(domain, owner.id, email)) || undefined;
  if (linked && !linked.fromId)
    return updated(domain, linked, { fromId, ...(channel ? { customChannel: channel } : {}), ...missingFields(domain, linked, fields) });
  const given = clean(fields.email) ?? email;
  return createContact(domain, owner, {
    firstName: fields.firstName,
    lastName: fields.lastName,
    phone: phone && !contactByPhone(domain, owner.id, phone) ? phone : null,
    email: given && !contactByEmail(domain, owner.id, given) ? given : null,
    fromId,
    customChannel: channel,
  });
}

/** The names and email a message brings that its contact lacks (an email only if no other contact has it). */
function missingFields(
  domain: Domain,
  contact: ContactRecord,
  fields: SenderFields,
): Partial<Pick<ContactRecord, "firstName" | "lastName" | "email">> {
  const patch: Partial<Pick<ContactRecord, "firstName" | "lastName" | "email">> = {};
  const firstName = clean(fields.firstName);
  const lastName = clean(fields.lastName);
  const email = clean(fields.email);
  if (firstName && !contact.firstName) patch.firstName = firstName;
  if (lastName && !contact.lastName) patch.lastName = lastName;
  if (email && !contact.email && !contactByEmail(domain, contact.accountId, email)) patch.email = email;
  return patch;
}

/** The contact with the patch applied, told as an update only when something changed. */
function updated(domain: Domain, contact: ContactRecord, patch: Parameters<typeof updateContact>[2]): ContactRecord {
  return Object.keys(patch).length ? updateContact(domain, contact, patch) : contact;
}

/**
 * The contact a seed or import entry matches (by phone number, else by fromId), or, for a new
 * one, its phone number in E.164 once the entry is checked to have something to reach it by.
 */
export function matchContact(
  domain: Domain,
  owner: AccountRecord,
  input: SeedContact,
): { known: ContactRecord } | { phone: string | null } {
  const phone = input.phone === undefined ? null : seedPhone(input.phone);
  const known =
    (phone && contactByPhone(domain, owner.id, phone)) || (input.fromId && domain.store.contact.find("fromId", owner.id, input.fromId));
  if (known) return { known };
  if (!phone && !input.email && !input.fromId) throw invalid("A contact needs at least one of phone, email or fromId.");
  return { phone };
}

/** A seed or import contact: matched by phone number (or fromId) when known, else created. */
export function upsertContact(domain: Domain, owner: AccountRecord, input: SeedContact): ContactRecord {
  const match = matchContact(domain, owner, input);
  if ("known" in match) return match.known;
  if (input.id && domain.store.contact.get(input.id)) throw conflict(`A contact with id ${input.id} already exists.`);
  const { id, ...fields } = input;
  return createContact(domain, owner, { ...fields, phone: match.phone }, id);
}

function seedPhone(phone: string): string {
  try {
    return toE164(phone);
  } catch (error) {
    throw invalid((error as Error).message);
  }
}

/** Custom fields as stored: their JSON text, or null when there are none. */
function storedCustomFields(fields: Record<string, unknown> | null | undefined): string | null {
  return fields && Object.keys(fields).length ? JSON.stringify(fields) : null;
}

/** A name or email as stored: trimmed, and absent when empty. */
export function clean(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export interface ContactSearch {
  accountId?: string;
  q?: string;
  order?: "oldest" | "newest";
  limit?: number;
  offset?: number;
}

/**
 * A page of contacts, oldest or newest first: all, or those a text finds. A phone number or an
 * email is looked up; a name is found by scanning, stopping once the page is full.
 */
export function searchContacts(domain: Domain, search: ContactSearch): ContactRecord[] {
  const limit = search.limit ?? 1000;
  const offset = search.offset ?? 0;
  const q = search.q?.trim();
  const newest = search.order === "newest";
  const all = search.accountId ? domain.store.contact.group("account", search.accountId) : [...domain.store.contact.all()];
  if (!q) {
    // Newest first is the same page counted from the end, so no copy of every contact is made.
    return newest
      ? all.slice(Math.max(0, all.length - offset - limit), Math.max(0, all.length - offset)).reverse()
      : all.slice(offset, offset + limit);
  }
  const indexed = search.accountId ? indexedContact(domain, search.accountId, q) : undefined;
  if (indexed !== undefined) return offset === 0 && indexed ? [indexed] : [];
  const needle = q.toLowerCase();
  const found: ContactRecord[] = [];
  let skipped = 0;
  for (const contact of newest ? fromTheEnd(all) : all) {
    if (!matches(contact, needle)) continue;
    if (skipped < offset) skipped++;
    else if (found.push(contact) >= limit) break;
  }
  return found;
}

/** The contact a phone number or email finds through the indexes (null: none); undefined when q is neither. */
function indexedContact(domain: Domain, accountId: string, q: string): ContactRecord | null | undefined {
  if (q.includes("@")) return contactByEmail(domain, accountId, q) ?? null;
  if (!/^\+[\d\s().-]+$/.test(q)) return undefined;
  let e164: string;
  try {
    e164 = toE164(q);
  } catch {
    return undefined;
  }
  return contactByPhone(domain, accountId, e164) ?? null;
}

function* fromTheEnd<T>(items: readonly T[]): Generator<T> {
  for (let i = items.length - 1; i >= 0; i--) yield items[i] as T;
}

function matches(contact: ContactRecord, needle: string): boolean {
  const name = `${contact.firstName ?? ""} ${contact.lastName ?? ""}`.toLowerCase();
  return name.includes(needle) || (contact.phone?.includes(needle) ?? false) || (contact.email?.toLowerCase().includes(needle) ?? false);
}
