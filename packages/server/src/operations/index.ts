import { createContact, findContact } from "./contacts.js";
import { addContactToList } from "./lists.js";
import { receiveCustomChannelMessage, sendCustomChannelMessage } from "./messages.js";
import { grantSubaccountCredits } from "./subaccounts.js";
import type { Handler, OperationId } from "./types.js";

/** One handler per operationId of the contract; the type makes a missing one a compile error. */
export const handlers: { [Id in OperationId]: Handler<Id> } = {
  createContact,
  findContact,
  addContactToList,
  sendCustomChannelMessage,
  receiveCustomChannelMessage,
  grantSubaccountCredits,
};
