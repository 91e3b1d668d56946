/**
 * The integration under test: a product's sign-up hook that passes consenting sign-ups to Intake
 * as funnel leads. Small, but it has the decisions worth testing: no consent means nothing is
 * sent, a full name is split, a repeat sign-up is not a second lead.
 */
import type { IntakeClient } from "@intake/client";

export interface Signup {
  phone: string;
  fullName: string;
  email?: string;
  marketingConsent: boolean;
}

export type SignupResult = { sent: false; reason: string } | { sent: true; contactId: string; newLead: boolean };

export async function onSignup(intake: IntakeClient<"query">, listId: string, signup: Signup): Promise<SignupResult> {
  if (!signup.marketingConsent) return { sent: false, reason: "no marketing consent" };
  const [firstName, ...rest] = signup.fullName.trim().split(/\s+/);
  const contact = await intake.contacts.create({
    phone: signup.phone,
    firstName: firstName || signup.fullName,
    ...(rest.length ? { lastName: rest.join(" ") } : {}),
    ...(signup.email ? { email: signup.email } : {}),
  });
  const { added } = await intake.lists.addContact(listId, { contactId: contact.id });
  return { sent: true, contactId: contact.id, newLead: added };
}
