/**
 * Replies to a contact, from the bot or typed by a person: on a custom channel they are charged,
 * recorded and delivered to the account's Custom Channel Webhook URL; on a built-in channel
 * (messaging app, SMS, ...) charged and recorded as sent there, with no webhook, as the opening
 * messages are; a hand-off raises a team alert and pauses the bot for the contact.
 */
import { roomFor } from "./capacity.js";
import type { AccountRecord, AlertRecord, CampaignRecord, ContactRecord, MessageRecord } from "../store/models.js";
import { ownedBy, publish, timestamp, writable, type Domain } from "./domain.js";
import { settingsOf } from "./campaigns.js";
import { updateContact } from "./contacts.js";
import { charge, NO_CREDITS } from "./credits.js";
import { conflict } from "./errors.js";
import { queueDelivery } from "./deliveries.js";
import { recordOutbound } from "./messages.js";

/**
 * A reply on the contact's custom channel, charged, recorded and queued for the webhook URL.
 * Without a webhook URL it is recorded (its delivery fails) and costs nothing; without credits,
 * recorded as not sent.
 */
export function reply(
  domain: Domain,
  account: AccountRecord,
  contact: ContactRecord,
  body: string,
  source: "bot" | "human",
  channel: string,
  campaignId: string | null,
): MessageRecord {
  const outbound = { contact, channel, body, source, toId: contact.fromId, campaignId } as const;
  if (account.webhookUrl && !charge(domain, account, contact, source === "bot" ? "bot_reply" : "human")) {
    return recordOutbound(domain, { ...outbound, status: "not_sent", error: NO_CREDITS });
  }
  const message = recordOutbound(domain, { ...outbound, status: "pending" });
  queueDelivery(domain, {
    account,
    kind: "reply",
    messageId: message.id,
    url: account.webhookUrl,
    webhookId: message.id,
    payload: { contactId: contact.id, messageId: message.id, userId: account.userId, body, toId: contact.fromId, channel },
  });
  return message;
}

/**
 * The bot's reply on a built-in channel (to a message the contact sent there): charged as the
 * opening and human messages are, and recorded as sent on that channel to the contact's phone.
 * The interface sends reply webhooks for custom channels only, so none is sent. Without credits,
 * recorded as not sent.
 */
export function replyOnChannel(
  domain: Domain,
  account: AccountRecord,
  contact: ContactRecord,
  body: string,
  channel: string,
  campaignId: string | null,
): MessageRecord {
  const outbound = { contact, channel, body, source: "bot", toId: contact.phone, campaignId } as const;
  if (!charge(domain, account, contact, "bot_reply")) return recordOutbound(domain, { ...outbound, status: "not_sent", error: NO_CREDITS });
  return recordOutbound(domain, { ...outbound, status: "sent" });
}

/**
 * A reply typed in the app. To a custom-channel contact it is delivered to the webhook URL; to any
 * other it is recorded as sent on the campaign's channel. Refused when the account cannot pay for
 * it (a first message costs a credit).
 */
export function humanReply(domain: Domain, account: AccountRecord, contact: ContactRecord, body: string): MessageRecord {
  roomFor(domain, "messages");
  const unpaid = () => conflict(`Account ${account.id} has no credits for a first message to this contact.`);
  if (contact.fromId) {
    const sent = reply(domain, account, contact, body, "human", contact.customChannel ?? "custom", contact.campaignId);
    if (sent.status === "not_sent") throw unpaid();
    return sent;
  }
  if (!charge(domain, account, contact, "human")) throw unpaid();
  const campaign = contact.campaignId ? ownedBy(account.id, domain.store.campaign.get(contact.campaignId)) : undefined;
  const channel = campaign ? settingsOf(campaign).channel : "messaging_app";
  return recordOutbound(domain, {
    contact,
    channel,
    body,
    source: "human",
    status: "sent",
    toId: contact.phone,
    campaignId: contact.campaignId,
  });
}

/** The bot asks a person to take over: a team alert, and the bot paused for this contact. */
export function handOff(
  domain: Domain,
  message: MessageRecord,
  contact: ContactRecord,
  campaign: CampaignRecord,
  reason: string,
): AlertRecord {
  const alert = writable(domain).alert.insert({
    id: domain.ids.id("alr_"),
    accountId: contact.accountId,
    contactId: contact.id,
    campaignId: campaign.id,
    messageId: message.id,
    reason,
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "alert.raised", alert });
  updateContact(domain, contact, { botPaused: true });
  return alert;
}
