/**
 * The funnel step an automation platform runs for each form submission: find the lead by phone,
 * create it only if it is new, and add it to the list linked to the campaign. Adding it is what
 * makes a Live campaign send its opening message.
 */
import type { IntakeClient } from "@intake/client";

/** The form's fields, in the Bearer form's snake_case. */
export interface Lead {
  phone_number: string;
  first_name: string;
  last_name?: string;
  email?: string;
  custom_fields?: Record<string, string | number | boolean | null>;
}

export async function intakeLead(intake: IntakeClient<"bearer">, listId: string, lead: Lead) {
  const existing = await intake.contacts.find({ phoneNumber: lead.phone_number });
  const contact = existing ?? (await intake.contacts.create(lead));
  const membership = await intake.lists.addContact(listId, { contact_id: contact.id });
  // `created` is what the lookup saw: two submissions of one lead at the same moment both say
  // true, though the service keeps one contact (a known phone returns the existing one).
  return { contact, created: existing === null, addedToList: membership.added };
}
