/**
 * Messages: received on a custom channel (stored once per messageSid, media checked), sent through
 * the send endpoint by the customer's own system, and recorded when the service sends one (a bot
 * or human reply, an opening message, a follow-up).
 */
import type { components } from "@intake/spec";
import { BOT_FAILURES, type BotOutcome } from "../events/events.js";
import { exactSize } from "../shared/byte-size.js";
import { HttpError, badRequest, notFound } from "../shared/errors.js";
import type { AccountRecord, ContactRecord, MessageRecord } from "../store/models.js";
import { roomFor } from "./capacity.js";
import { contactForSender, updateContact } from "./contacts.js";
import { ownedBy, publish, timestamp, writable, type Domain } from "./domain.js";
import { conflict } from "./errors.js";
import { checkMedia } from "./media.js";

type Schemas = components["schemas"];

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

/** A message the service sends (or the customer's system sent through it), recorded in the contact's conversation. */
export function recordOutbound(domain: Domain, outbound: Outbound): MessageRecord {
  const { contact } = outbound;
  const message = writable(domain).message.insert({
    id: domain.ids.id("msg_"),
    accountId: contact.accountId,
    contactId: contact.id,
    direction: "outbound",
    channel: outbound.channel,
    messageSid: null,
    fromId: null,
    toId: outbound.toId,
    messageType: "text",
    body: outbound.body,
    status: outbound.status,
    mediaUrl: null,
    mediaContentType: null,
    reactionTo: null,
    campaignId: outbound.campaignId,
    source: outbound.source,
    error: outbound.error ?? null,
    botOutcome: null,
    bot: null,
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "message.sent", message, contact });
  return message;
}

/** Which bot was asked about a message, how long it took and what went wrong: the message's `bot`. */
export type BotRun = NonNullable<MessageRecord["bot"]>;

/**
 * What the bot did with a received message, and, when a bot was asked, the run (`bot`): kept on
 * the message and told as `bot.outcome`, with the run's error.
 */
export function setBotOutcome(domain: Domain, message: MessageRecord, outcome: BotOutcome, run: BotRun | null = null): void {
  writable(domain).message.update(message, run ? { botOutcome: outcome, bot: run } : { botOutcome: outcome });
  publish(domain, { type: "bot.outcome", message, outcome, error: run?.error ?? null });
}

/** Outcomes where the bot was asked and failed to answer: a thrown bot function, or a model's failure. */
const FAILED: ReadonlySet<string> = new Set<BotOutcome>(["bot_error", ...BOT_FAILURES]);

/**
 * Puts a received message whose bot failed back to waiting for the bot (its outcome and run
 * cleared), for the engine to ask again; any other message is a conflict saying why.
 */
export function clearFailedBotOutcome(domain: Domain, message: MessageRecord): void {
  if (message.direction !== "inbound") throw conflict(`Message ${message.id} is outgoing: only a received message is answered by the bot.`);
  if (message.botOutcome === null) throw conflict(`Message ${message.id} is still waiting for the bot's answer.`);
  if (!FAILED.has(message.botOutcome))
    throw conflict(
      `The bot did not fail on message ${message.id} (its outcome is ${message.botOutcome}): only a failed answer is tried again.`,
    );
  writable(domain).message.update(message, { botOutcome: null, bot: null });
  publish(domain, { type: "message.updated", message });
}

function requireCampaign(domain: Domain, owner: AccountRecord, campaignId: string | undefined) {
  if (campaignId !== undefined && !ownedBy(owner.id, domain.store.campaign.get(campaignId))) {
    throw notFound("CAMPAIGN_NOT_FOUND", `No campaign with id ${campaignId}.`);
  }
}

/** POST /send_custom_channel_message: the customer's own system sent it; it is recorded as sent. */
export function sendMessage(
  domain: Domain,
  owner: AccountRecord,
  data: Schemas["SendCustomChannelMessageInput"]["customData"],
): { message: MessageRecord; contact: ContactRecord } {
  requireCampaign(domain, owner, data.campaignId);
  roomFor(domain, "messages");
  const contact = contactForSender(domain, owner, data.fromId, data.customChannel, data);
  // The campaign the customer's system wrote for is the conversation's: the contact's answers go
  // to its bot, as they do to the campaign whose funnel reached the contact.
  if (data.campaignId !== undefined && contact.campaignId !== data.campaignId)
    updateContact(domain, contact, { campaignId: data.campaignId });
  const message = recordOutbound(domain, {
    contact,
    channel: data.customChannel,
    body: data.body,
    source: "api_send",
    status: "sent",
    toId: data.fromId,
    campaignId: data.campaignId ?? null,
  });
  return { message, contact };
}

/** Where a received message comes from: /v1's receive endpoint, or the admin API's simulation (`at`: where its fields are, for errors). */
export interface Origin {
  source: "api_receive" | "simulated";
  at: string;
  /** What made a simulated message (its `simulatedVia`). */
  via?: MessageRecord["simulatedVia"];
}

const RECEIVE_ENDPOINT: Origin = { source: "api_receive", at: "customData." };

/**
 * POST /incoming_custom_channel_message: the message stored once per messageSid (a second time
 * answers the first's id), its contact created or found; the engine hears `message.received`.
 */
export async function receiveMessage(
  domain: Domain,
  owner: AccountRecord,
  input: Schemas["ReceiveCustomChannelMessageInput"],
  origin: Origin = RECEIVE_ENDPOINT,
): Promise<{ message: MessageRecord; duplicate: boolean }> {
  const data = input.customData;
  // Two names for one id: two different values would leave one of them unchecked for duplicates.
  if (data.messageSid !== undefined && data.id !== undefined && data.messageSid !== data.id) {
    throw badRequest(
      "VALIDATION_ERROR",
      "customData.messageSid and customData.id are two names for the message's id: send one of them, or the same value in both.",
    );
  }
  const sid = data.messageSid ?? data.id ?? "";
  const first = () => domain.store.message.find("sid", owner.id, sid);
  const seen = first();
  if (seen) return { message: seen, duplicate: true };
  requireCampaign(domain, owner, data.campaignId);
  // Only a message with media awaits (its check): one without is stored in the turn it was
  // checked for a duplicate in. With media, the same sid may have been stored meanwhile.
  if (data.mediaUrl !== undefined && data.mediaUrl !== null) {
    const size = await checkMedia(data.mediaUrl, data.mediaContentType ?? "", domain.limits.maxMediaBytes, origin.at);
    const raced = first();
    if (raced) return { message: raced, duplicate: true };
    // Checked here, with nothing awaited between it and the store: two messages checked at once
    // cannot both take the last of the account's allowance.
    checkAccountMedia(domain, owner, size, origin.at);
  }
  // Before anything is written: a message refused leaves no contact behind.
  roomFor(domain, "messages");
  const contact = contactForSender(domain, owner, data.fromId, data.channel ?? null, data);
  const message = storeInbound(domain, contact, {
    channel: data.channel ?? "custom",
    messageSid: sid,
    fromId: data.fromId,
    toId: data.toId,
    // The contract holds reactionTo to reactions (validated before this runs).
    messageType: input.messageType ?? "text",
    body: data.body,
    status: data.status ?? "received",
    mediaUrl: data.mediaUrl ?? null,
    mediaContentType: data.mediaUrl ? (data.mediaContentType ?? null) : null,
    reactionTo: data.reactionTo ?? null,
    campaignId: data.campaignId ?? null,
    source: origin.source,
    ...(origin.via ? { simulatedVia: origin.via } : {}),
  });
  return { message, duplicate: false };
}

/** What a received message is, besides what every one has (its id, account, contact, direction, time). */
export type Inbound = Pick<
  MessageRecord,
  | "channel"
  | "messageSid"
  | "fromId"
  | "toId"
  | "messageType"
  | "body"
  | "status"
  | "mediaUrl"
  | "mediaContentType"
  | "reactionTo"
  | "campaignId"
  | "source"
  | "simulatedVia"
>;

/** Stores a message from the contact and tells the engine (`message.received`), which answers it. */
export function storeInbound(domain: Domain, contact: ContactRecord, inbound: Inbound): MessageRecord {
  const message = writable(domain).message.insert({
    id: domain.ids.id("msg_"),
    accountId: contact.accountId,
    contactId: contact.id,
    direction: "inbound",
    ...inbound,
    error: null,
    botOutcome: null,
    bot: null,
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "message.received", message, contact });
  return message;
}

/**
 * The account's stored messages may embed so many bytes of files in all: without a bound, a
 * sender of large data URLs grows the state (memory, the data file) as far as it likes. 413: the
 * message is valid, and the same file is accepted by an account with room for it.
 */
export function checkAccountMedia(domain: Domain, owner: AccountRecord, size: number, at: string): void {
  const stored = domain.store.message.tally("mediaBytes", owner.id);
  const limit = domain.limits.maxAccountMediaBytes;
  if (size === 0 || stored + size <= limit) return;
  throw new HttpError(
    413,
    "MEDIA_STORAGE_FULL",
    `This account's messages already hold ${exactSize(stored)} of media; the file in ${at}mediaUrl, ${exactSize(size)}, ` +
      `would take them past the per-account media limit of ${exactSize(limit)}. Send it as a public https:// URL (stored as given, not counted), ` +
      "or have the server's state reset or its limit raised (--max-account-media).",
  );
}

export interface MessageFilter {
  accountId?: string;
  contactId?: string;
  direction?: "inbound" | "outbound";
}

/** The messages that match, oldest first: a conversation, or all. */
export function findMessages(domain: Domain, filter: MessageFilter): MessageRecord[] {
  const source = filter.contactId ? domain.store.message.group("contact", filter.contactId) : [...domain.store.message.all()];
  return source.filter(
    (m) => (!filter.accountId || m.accountId === filter.accountId) && (!filter.direction || m.direction === filter.direction),
  );
}
