/** A message the service sends (or the customer's system sent through it), recorded in the contact's conversation. */
import type { ContactRecord, MessageRecord } from "../store/models.js";
import type { Store } from "../store/store.js";

export interface Outbound {
  contact: ContactRecord;
  channel: string;
  body: string;
  source: "api_send" | "bot" | "human" | "opening" | "follow_up";
  status: "pending" | "queued" | "sent" | "not_sent";
  /** Where it goes: the contact's fromId on a custom channel, its phone on a built-in one. */
  toId: string | null;
  campaignId: string | null;
  error?: string | null;
}

export function recordOutbound(store: Store, message: Outbound): MessageRecord {
  const fields: MessageRecord = {
    id: store.ids.id("msg_"),
    accountId: message.contact.accountId,
    contactId: message.contact.id,
    direction: "outbound",
    channel: message.channel,
    messageSid: null,
    fromId: null,
    toId: message.toId,
    messageType: "text",
    body: message.body,
    status: message.status,
    mediaUrl: null,
    mediaContentType: null,
    reactionTo: null,
    campaignId: message.campaignId,
    source: message.source,
    error: message.error ?? null,
    botOutcome: null,
    createdAt: store.timestamp(),
  };
  return store.createMessage(fields);
}
