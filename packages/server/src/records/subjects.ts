/**
 * Whom a record is about: the contact (and account) a delivery, an alert or a job leads to, and
 * the contact as a person reads it (`ContactRef`: its id and name). A job names its subject in
 * its payload: a contactId, a messageId (the message's contact) or a deliveryId (the delivery's
 * message's contact).
 */
import type { components } from "../generated/admin.js";
import { contactName } from "../shared/contact-name.js";
import type { ContactRecord, DeliveryRecord, JobRecord, MessageRecord } from "../store/models.js";
import type { StoreReader } from "../store/store.js";

export type ContactRef = components["schemas"]["ContactRef"];

/** The contact as a reference with its name; null when there is none (or it is gone). */
export function contactRef(contact: ContactRecord | undefined): ContactRef {
  return contact ? { id: contact.id, name: contactName(contact) ?? contact.id } : null;
}

/** The contact of a delivery: its message's (an auto-recharge request has none). */
export function deliveryContact(store: StoreReader, delivery: DeliveryRecord): ContactRecord | undefined {
  const message = delivery.messageId ? store.message.get(delivery.messageId) : undefined;
  return message && store.contact.get(message.contactId);
}

export interface JobSubject {
  accountId: string | null;
  contactId: string | null;
}

/** The account and contact a job is for, from what its payload names. */
export function jobSubject(store: StoreReader, job: JobRecord): JobSubject {
  const payload = JSON.parse(job.payload) as Record<string, unknown>;
  if (typeof payload.contactId === "string") return { accountId: store.contact.get(payload.contactId)?.accountId ?? null, contactId: payload.contactId };
  let message: MessageRecord | undefined;
  if (typeof payload.messageId === "string") message = store.message.get(payload.messageId);
  if (typeof payload.deliveryId === "string") {
    const delivery = store.delivery.get(payload.deliveryId);
    if (!delivery) return { accountId: null, contactId: null };
    message = delivery.messageId ? store.message.get(delivery.messageId) : undefined;
    return { accountId: delivery.accountId, contactId: message?.contactId ?? null };
  }
  return { accountId: message?.accountId ?? null, contactId: message?.contactId ?? null };
}

/** The contact a job is for, as a reference. */
export function jobContact(store: StoreReader, job: JobRecord): ContactRef {
  const { contactId } = jobSubject(store, job);
  return contactRef(contactId === null ? undefined : store.contact.get(contactId));
}
