/**
 * The name a person reads for a contact: first and last name, else the phone number, the email
 * or the custom-channel id. One rule for the admin API's contact refs and the credit history.
 */
export interface Named {
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  email: string | null;
  fromId: string | null;
}

/** The contact's name, or null when it has nothing to be called by. */
export function contactName(contact: Named): string | null {
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  return name || contact.phone || contact.email || contact.fromId || null;
}
