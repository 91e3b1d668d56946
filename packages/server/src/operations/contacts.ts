/** POST /contacts and GET /contacts. */
import type { components } from "@intake/spec";
import { badRequest, notFound } from "../shared/errors.js";
import { toE164 } from "./phone.js";
import { clean, storedCustomFields, toContact } from "../records/present-v1.js";
import type { Handler } from "./types.js";

type Camel = components["schemas"]["ContactInput"];
type Snake = components["schemas"]["ContactInputSnake"];

/** The Bearer form's snake_case body in the query form's terms. */
function fromSnake(body: Snake): Partial<Camel> {
  return {
    phone: body.phone_number,
    email: body.email,
    firstName: body.first_name,
    lastName: body.last_name,
    customFields: body.custom_fields,
  };
}

export const createContact: Handler<"createContact"> = ({ account, form, body }, { store }) => {
  const input = form === "bearer" ? fromSnake(body as Snake) : (body as Partial<Camel>);
  const phone = input.phone === undefined ? null : toE164(input.phone, form === "bearer" ? "phone_number" : "phone");
  const email = clean(input.email);
  const existing = phone
    ? store.contactByPhoneNumber(account.id, phone)
    : email
      ? store.contactByEmailAddress(account.id, email)
      : undefined;
  if (existing) return { status: 200, body: toContact(existing) };
  const record = store.createContact({
    id: store.ids.id("ct_"),
    accountId: account.id,
    firstName: clean(input.firstName),
    lastName: clean(input.lastName),
    phone,
    email,
    customFields: storedCustomFields(input.customFields),
    fromId: null,
    customChannel: null,
    botPaused: false,
    campaignId: null,
    createdAt: store.timestamp(),
  });
  return { status: 201, body: toContact(record) };
};

export const findContact: Handler<"findContact"> = ({ account, query }, { store }) => {
  const { phoneNumber, email } = query;
  if (phoneNumber === undefined && email === undefined) {
    throw badRequest("VALIDATION_ERROR", "Look a contact up by phoneNumber or by email: give one of them as a query parameter.");
  }
  if (phoneNumber !== undefined && email !== undefined) {
    throw badRequest("VALIDATION_ERROR", "Give phoneNumber or email, not both.");
  }
  if (phoneNumber !== undefined) {
    const e164 = toE164(phoneNumber, "phoneNumber");
    const contact = store.contactByPhoneNumber(account.id, e164);
    if (!contact) throw notFound("CONTACT_NOT_FOUND", `No contact with phone number ${e164}.`);
    return { status: 200, body: { success: true, contactId: contact.id, contact: toContact(contact) } };
  }
  const contact = store.contactByEmailAddress(account.id, email!.trim());
  if (!contact) throw notFound("CONTACT_NOT_FOUND", `No contact with email ${email}.`);
  return { status: 200, body: { success: true, contactId: contact.id, contact: toContact(contact) } };
};
