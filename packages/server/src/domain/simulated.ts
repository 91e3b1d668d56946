/**
 * A message from a contact made by hand (POST /__admin/contacts/{id}/inbound, the dashboard's
 * "Simulate a message"): the funnel builder's "the lead answers", with no curl.
 *
 * On the custom channel it is exactly a message to /v1's receive endpoint from the contact's
 * custom-channel identity (its fromId, else its phone number, else its email, which becomes its
 * fromId), with a new messageSid: the bot's reply goes to the Custom Channel Webhook URL. On a
 * built-in channel (messaging app, SMS, ...) it is stored as received there, with no messageSid
 * (sids are the custom channel's), and the bot answers on that channel with no webhook
 * (replies.ts). Either way its source is `simulated`.
 */
import { roomFor } from "./capacity.js";
import type { components } from "../generated/admin.js";
import type { AccountRecord, ContactRecord, MessageRecord } from "../store/models.js";
import type { Domain } from "./domain.js";
import { conflict } from "./errors.js";
import { checkMedia } from "./media.js";
import { checkAccountMedia, receiveMessage, storeInbound } from "./messages.js";

type InboundInput = components["schemas"]["InboundInput"];

/** The built-in channels: the campaigns' channels, on which the bot answers with no webhook. */
export const BUILT_IN_CHANNELS: ReadonlySet<string> = new Set(["messaging_app", "sms", "photo_social", "chat_app"]);

/** Whether a received message came on a built-in channel (no custom-channel message has no sid). */
export function onBuiltInChannel(message: MessageRecord): boolean {
  return message.direction === "inbound" && message.messageSid === null && BUILT_IN_CHANNELS.has(message.channel);
}

/** Errors name the admin request's own fields (`mediaUrl`), not the receive endpoint's (`customData.mediaUrl`). */
const AT = "";

export async function simulateInbound(
  domain: Domain,
  account: AccountRecord,
  contact: ContactRecord,
  input: InboundInput,
): Promise<MessageRecord> {
  const channel = input.channel ?? "custom";
  const media = { mediaUrl: input.mediaUrl ?? null, mediaContentType: input.mediaUrl ? (input.mediaContentType ?? null) : null };
  const messageType = input.messageType ?? "text";
  const via = input.via ?? "admin_api";
  if (channel === "custom") {
    const fromId = customIdentity(domain, contact);
    const customData = {
      messageSid: domain.ids.id("sim_"),
      fromId,
      toId: account.id,
      body: input.body,
      channel: contact.customChannel ?? "custom",
      ...media,
      ...(input.reactionTo !== undefined ? { reactionTo: input.reactionTo } : {}),
    };
    const { message } = await receiveMessage(domain, account, { customData, messageType }, { source: "simulated", at: AT, via });
    return message;
  }
  if (media.mediaUrl !== null) {
    const size = await checkMedia(media.mediaUrl, media.mediaContentType ?? "", domain.limits.maxMediaBytes, AT);
    // Nothing awaited between this and the store: see receiveMessage.
    checkAccountMedia(domain, account, size, AT);
  }
  roomFor(domain, "messages");
  return storeInbound(domain, contact, {
    channel,
    messageSid: null,
    fromId: contact.phone ?? contact.email ?? contact.fromId,
    toId: null,
    messageType,
    body: input.body,
    status: "received",
    ...media,
    reactionTo: input.reactionTo ?? null,
    campaignId: null,
    source: "simulated",
    simulatedVia: via,
  });
}

/**
 * Who the contact is on the custom channel: its fromId, else its phone number or email (the
 * receive endpoint links a new sender with that phone number or email to the contact). Refused
 * when another contact already has it as its fromId: the message would be that contact's.
 */
function customIdentity(domain: Domain, contact: ContactRecord): string {
  if (contact.fromId) return contact.fromId;
  const identity = contact.phone ?? contact.email;
  if (!identity) throw conflict(`Contact ${contact.id} has no custom-channel id, phone number or email to write from.`);
  const holder = domain.store.contact.find("fromId", contact.accountId, identity);
  if (holder && holder.id !== contact.id) {
    throw conflict(
      `Contact ${contact.id}'s ${contact.phone ? "phone number" : "email"} ${identity} is the custom-channel id (fromId) of contact ${holder.id}: ` +
        `a message from it on the custom channel would be that contact's. Simulate it from ${holder.id}, or on a built-in channel (channel: "messaging_app").`,
    );
  }
  return identity;
}
