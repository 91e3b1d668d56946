/** POST /send_custom_channel_message and POST /incoming_custom_channel_message. */
import { recordOutbound } from "../records/outbound.js";
import { exactSize } from "../shared/byte-size.js";
import { HttpError, badRequest, notFound } from "../shared/errors.js";
import type { AccountRecord, ContactRecord } from "../store/models.js";
import type { Store } from "../store/store.js";
import { checkMedia } from "./media.js";
import { toE164 } from "./phone.js";
import { clean } from "../records/present-v1.js";
import type { Handler } from "./types.js";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A fromId that is a phone number with its country code, in E.164; else null. */
function phoneOf(fromId: string): string | null {
  if (!fromId.trim().startsWith("+")) return null;
  try {
    return toE164(fromId);
  } catch {
    return null;
  }
}

/**
 * The contact a custom-channel sender maps to. The same fromId is always the same contact. A
 * fromId seen for the first time that is a phone number or an email already on a contact without
 * a fromId links to that contact (a lead created by a funnel who then writes in); otherwise it is
 * a new contact, created with the names and email sent (used only then) and the fromId's phone.
 */
function contactForSender(
  store: Store,
  account: AccountRecord,
  fromId: string,
  channel: string | null,
  fields: { firstName?: string; lastName?: string; email?: string },
): ContactRecord {
  const known = store.contactBySender(account.id, fromId);
  if (known) {
    if (channel && known.customChannel !== channel) store.updateContact(known, { customChannel: channel });
    return known;
  }
  const phone = phoneOf(fromId);
  const email = EMAIL.test(fromId) ? fromId : null;
  const linked = (phone && store.contactByPhoneNumber(account.id, phone)) || (email && store.contactByEmailAddress(account.id, email)) || undefined;
  if (linked && !linked.fromId) {
    store.linkSender(linked, fromId, channel);
    return linked;
  }
  return store.createContact({
    id: store.ids.id("ct_"),
    accountId: account.id,
    firstName: clean(fields.firstName),
    lastName: clean(fields.lastName),
    // The phone goes on the new contact only if no other contact has it: phone numbers stay unique.
    phone: phone && !store.contactByPhoneNumber(account.id, phone) ? phone : null,
    email: clean(fields.email) ?? email,
    customFields: null,
    fromId,
    customChannel: channel,
    botPaused: false,
    campaignId: null,
    createdAt: store.timestamp(),
  });
}

/**
 * The account's stored messages may embed so many bytes of files in all: without a bound, a
 * sender of large data URLs grows the state (memory, the data file) as far as it likes. 413: the
 * message is valid, and the same file is accepted by an account with room for it.
 */
function checkAccountMedia(store: Store, account: AccountRecord, size: number, limit: number) {
  const stored = store.mediaBytes(account.id);
  if (size === 0 || stored + size <= limit) return;
  throw new HttpError(
    413,
    "MEDIA_STORAGE_FULL",
    `This account's messages already hold ${exactSize(stored)} of media; the file in customData.mediaUrl, ${exactSize(size)}, ` +
      `would take them past the per-account media limit of ${exactSize(limit)}. Send it as a public https:// URL (stored as given, not counted), ` +
      "or have the server's state reset or its limit raised (--max-account-media).",
  );
}

function requireCampaign(store: Store, account: AccountRecord, campaignId: string | undefined) {
  if (campaignId !== undefined && !store.campaign(account.id, campaignId)) {
    throw notFound("CAMPAIGN_NOT_FOUND", `No campaign with id ${campaignId}.`);
  }
}

export const sendCustomChannelMessage: Handler<"sendCustomChannelMessage"> = ({ account, body }, { store, events }) => {
  const data = body.customData;
  requireCampaign(store, account, data.campaignId);
  const contact = contactForSender(store, account, data.fromId, data.customChannel, data);
  const message = recordOutbound(store, {
    contact,
    channel: data.customChannel,
    body: data.body,
    source: "api_send",
    status: "sent",
    toId: data.fromId,
    campaignId: data.campaignId ?? null,
  });
  events.emit("messageSent", { message, contact });
  return {
    status: 200,
    body: { success: true, messageId: message.id, contactId: contact.id, message: `Message sent on custom channel ${data.customChannel}.` },
  };
};

export const receiveCustomChannelMessage: Handler<"receiveCustomChannelMessage"> = async ({ account, body }, { store, events, limits }) => {
  const data = body.customData;
  // Two names for one id: two different values would leave one of them unchecked for duplicates.
  if (data.messageSid !== undefined && data.id !== undefined && data.messageSid !== data.id) {
    throw badRequest("VALIDATION_ERROR", "customData.messageSid and customData.id are two names for the message's id: send one of them, or the same value in both.");
  }
  const sid = (data.messageSid ?? data.id)!;
  const duplicate = () => {
    const first = store.inboundBySid(account.id, sid);
    return first && ({ status: 200, body: { success: true, messageId: first.id, duplicate: true } } as const);
  };
  const seen = duplicate();
  if (seen) return seen;
  // The contract holds reactionTo to reactions (validated before this runs).
  const messageType = body.messageType ?? "text";
  requireCampaign(store, account, data.campaignId);
  if (data.mediaUrl !== undefined && data.mediaUrl !== null) {
    const size = await checkMedia(data.mediaUrl, data.mediaContentType as string, limits.maxMediaBytes);
    // The media check awaited: the same sid may have been stored meanwhile.
    const raced = duplicate();
    if (raced) return raced;
    // Checked here, with nothing awaited between it and the store: two messages checked at once
    // cannot both take the last of the account's allowance.
    checkAccountMedia(store, account, size, limits.maxAccountMediaBytes);
  }
  const contact = contactForSender(store, account, data.fromId, data.channel ?? null, data);
  const message = store.createMessage({
    id: store.ids.id("msg_"),
    accountId: account.id,
    contactId: contact.id,
    direction: "inbound",
    channel: data.channel ?? "custom",
    messageSid: sid,
    fromId: data.fromId,
    toId: data.toId,
    messageType,
    body: data.body,
    status: data.status ?? "received",
    mediaUrl: data.mediaUrl ?? null,
    mediaContentType: data.mediaUrl ? (data.mediaContentType ?? null) : null,
    reactionTo: data.reactionTo ?? null,
    campaignId: data.campaignId ?? null,
    source: "api_receive",
    error: null,
    botOutcome: null,
    createdAt: store.timestamp(),
  });
  events.emit("messageReceived", { message, contact });
  return { status: 200, body: { success: true, messageId: message.id } };
};
