/** POST /lists/{listId}/contacts. */
import type { components } from "@intake/spec";
import { notFound } from "../shared/errors.js";
import type { Handler } from "./types.js";

export const addContactToList: Handler<"addContactToList"> = ({ account, form, body, params }, { store, events }) => {
  const contactId =
    form === "bearer"
      ? (body as components["schemas"]["ListMemberInputSnake"]).contact_id
      : (body as components["schemas"]["ListMemberInput"]).contactId;
  const listId = params.listId!;
  const list = store.list(account.id, listId);
  if (!list) {
    throw notFound(
      "LIST_NOT_FOUND",
      `No list with id ${listId}. Lists are in the dashboard under Contacts > Lists (on the reference server: GET /__admin/lists?accountId=${account.id}, or /__dashboard/lists?account=${account.id}).`,
    );
  }
  const contact = store.contact(account.id, contactId);
  if (!contact) throw notFound("CONTACT_NOT_FOUND", `No contact with id ${contactId}. Create it with POST /contacts first.`);
  if (!store.addMember(list.id, contact.id, "api")) {
    return { status: 200, body: { success: true, listId, contactId, added: false, message: "Contact is already in the list; nothing changed." } };
  }
  events.emit("contactAddedToList", { list, contact, source: "api", batch: `api:${list.id}`, batchSize: 1 });
  return { status: 201, body: { success: true, listId, contactId, added: true, message: "Contact added to the list." } };
};
