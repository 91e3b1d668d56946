/**
 * Whom a record is about: the contact (and account) a delivery, an alert or a job leads to, and
 * the contact as a person reads it (`ContactRef`: its id and name). A job names its subject in
 * its payload, by its kind: an opening or a follow-up its contact, a received message to answer
 * the message's contact, a delivery the delivery's message's contact.
 */
import type { components } from "../generated/admin.js";
import { contactName } from "../shared/contact-name.js";
import { readJob } from "../store/job-payloads.js";
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

const NOBODY: JobSubject = { accountId: null, contactId: null };

/** The account and contact a job is for, from what its kind's payload names (nobody, for a kind no code runs). */
export function jobSubject(store: StoreReader, record: JobRecord): JobSubject {
  const job = readJob(record);
  if (!job) return NOBODY;
  switch (job.kind) {
    case "opening":
    case "follow_up": {
      const { contactId } = job.payload;
      return { accountId: store.contact.get(contactId)?.accountId ?? null, contactId };
    }
    case "inbound":
      return messageSubject(store.message.get(job.payload.messageId));
    case "deliver": {
      const delivery = store.delivery.get(job.payload.deliveryId);
      if (!delivery) return NOBODY;
      const message = delivery.messageId ? store.message.get(delivery.messageId) : undefined;
      return { accountId: delivery.accountId, contactId: message?.contactId ?? null };
    }
    default:
      // A kind without a case here fails to compile.
      return job satisfies never;
  }
}

const messageSubject = (message: MessageRecord | undefined): JobSubject => ({
  accountId: message?.accountId ?? null,
  contactId: message?.contactId ?? null,
});

/** The contact a job is for, as a reference. */
export function jobContact(store: StoreReader, job: JobRecord): ContactRef {
  const { contactId } = jobSubject(store, job);
  return contactRef(contactId === null ? undefined : store.contact.get(contactId));
}
