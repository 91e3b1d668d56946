/**
 * /v1: one handler per operationId of the contract (the type makes a missing one a compile
 * error). Each reads the form's spelling, calls the domain and answers in the contract's shape;
 * the rules are the domain's.
 */
import type { components } from "@intake/spec";
import { contactByEmail, contactByPhone, createOrFindContact } from "../domain/contacts.js";
import { ownedBy } from "../domain/domain.js";
import { grantCredits } from "../domain/grants.js";
import { join } from "../domain/lists.js";
import { receiveMessage, sendMessage } from "../domain/messages.js";
import { toE164 } from "../domain/phone.js";
import { toContact } from "../records/present-v1.js";
import { badRequest, notFound } from "../shared/errors.js";
import type { Handler, OperationId } from "./types.js";

type Schemas = components["schemas"];

export const operations: { [Id in OperationId]: Handler<Id> } = {
  createContact({ account, form, body }, domain) {
    // The Bearer form's snake_case body in the query form's terms.
    const snake = body as Schemas["ContactFieldsSnake"];
    const input: Schemas["ContactFields"] =
      form === "bearer"
        ? {
            phone: snake.phone_number,
            email: snake.email,
            firstName: snake.first_name,
            lastName: snake.last_name,
            customFields: snake.custom_fields,
          }
        : body;
    const phone = input.phone === undefined ? null : toE164(input.phone, form === "bearer" ? "phone_number" : "phone");
    const { firstName, lastName, email, customFields } = input;
    const { contact, created } = createOrFindContact(domain, account, { firstName, lastName, email, customFields, phone });
    return { status: created ? 201 : 200, body: toContact(contact) };
  },

  findContact({ account, query }, domain) {
    const { phoneNumber, email } = query;
    if (phoneNumber === undefined && email === undefined) {
      throw badRequest("VALIDATION_ERROR", "Look a contact up by phoneNumber or by email: give one of them as a query parameter.");
    }
    if (phoneNumber !== undefined && email !== undefined) throw badRequest("VALIDATION_ERROR", "Give phoneNumber or email, not both.");
    const e164 = phoneNumber === undefined ? undefined : toE164(phoneNumber, "phoneNumber");
    const contact =
      e164 !== undefined ? contactByPhone(domain, account.id, e164) : contactByEmail(domain, account.id, (email ?? "").trim());
    if (!contact)
      throw notFound("CONTACT_NOT_FOUND", e164 !== undefined ? `No contact with phone number ${e164}.` : `No contact with email ${email}.`);
    return { status: 200, body: { success: true, contactId: contact.id, contact: toContact(contact) } };
  },

  addContactToList({ account, form, body, params }, domain) {
    const contactId =
      form === "bearer" ? (body as Schemas["ListMemberInputSnake"]).contact_id : (body as Schemas["ListMemberInput"]).contactId;
    const listId = params.listId ?? "";
    const list = ownedBy(account.id, domain.store.list.get(listId));
    if (!list) {
      throw notFound(
        "LIST_NOT_FOUND",
        `No list with id ${listId}. Lists are in the dashboard under Contacts > Lists (on the reference server: GET /__admin/lists?accountId=${account.id}, or /__dashboard/lists?account=${account.id}).`,
      );
    }
    const contact = ownedBy(account.id, domain.store.contact.get(contactId));
    if (!contact) throw notFound("CONTACT_NOT_FOUND", `No contact with id ${contactId}. Create it with POST /contacts first.`);
    if (join(domain, list, [contact], "api", `api:${list.id}`).length === 0) {
      return {
        status: 200,
        body: { success: true, listId, contactId, added: false, message: "Contact is already in the list; nothing changed." },
      };
    }
    return { status: 201, body: { success: true, listId, contactId, added: true, message: "Contact added to the list." } };
  },

  sendCustomChannelMessage({ account, body }, domain) {
    const { message, contact } = sendMessage(domain, account, body.customData);
    const text = `Message sent on custom channel ${body.customData.customChannel}.`;
    return { status: 200, body: { success: true, messageId: message.id, contactId: contact.id, message: text } };
  },

  async receiveCustomChannelMessage({ account, body }, domain) {
    const { message, duplicate } = await receiveMessage(domain, account, body);
    return {
      status: 200,
      body: duplicate ? { success: true, messageId: message.id, duplicate: true } : { success: true, messageId: message.id },
    };
  },

  grantSubaccountCredits({ account, body, headers }, domain) {
    const { result, replayed } = grantCredits(domain, account, body, headers.get("idempotency-key"));
    return { status: 200, body: result, ...(replayed ? { headers: { "idempotent-replayed": "true" } } : {}) };
  },
};
