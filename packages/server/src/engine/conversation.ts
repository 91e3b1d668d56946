/**
 * A received message's last two steps: the bot answers if it is active, and the reply goes to
 * the account's Custom Channel Webhook URL. Replies typed by a person (the admin API) go the same
 * way. Nothing is sent for the received message itself.
 */
import { toAdminContact, toCampaign, toMessage, type CampaignSettings } from "../records/present-admin.js";
import type { AccountRecord, CampaignRecord, ContactRecord, MessageRecord } from "../store/models.js";
import type { Store } from "../store/store.js";
import type { Bot } from "./bot.js";
import type { Credits } from "./credits.js";
import type { Deliveries } from "./delivery.js";
import type { DomainEvents } from "./events.js";
import { recordOutbound } from "../records/outbound.js";
import type { Scheduler } from "./scheduler.js";

/** The key a contact's pending follow-ups are scheduled under. */
export const followUpKey = (contactId: string) => `follow_up:${contactId}`;
/** The key of a contact's received messages waiting for the bot (one job each). */
const inboundKey = (contactId: string) => `inbound:${contactId}`;

/** Received messages the bot answers at once, all contacts together. */
const BOT_CONCURRENCY = 64;

/** What the bot did with a received message, kept on it as `botOutcome`. */
export type BotOutcome =
  | "replied"
  | "handed_off"
  | "no_answer"
  | "reaction"
  | "no_campaign"
  | "outgoing_campaign"
  | "campaign_not_live"
  | "bot_inactive"
  | "contact_paused"
  | "no_credits"
  | "bot_error";

export interface ConversationDeps {
  store: Store;
  scheduler: Scheduler;
  events: DomainEvents;
  deliveries: Deliveries;
  credits: Credits;
  bot: Bot;
  onError: (error: unknown) => void;
}

export type Conversations = ReturnType<typeof createConversations>;

export function createConversations(deps: ConversationDeps) {
  const { store, scheduler, deliveries, credits } = deps;

  const setOutcome = (message: MessageRecord, botOutcome: BotOutcome) => {
    store.updateMessage(message, { botOutcome });
    deps.events.emit("botOutcome", { message, outcome: botOutcome });
  };

  deps.events.on("messageReceived", ({ message, contact }) => {
    // The contact answered: the follow-ups waiting for them are no longer needed.
    scheduler.cancel(followUpKey(contact.id));
    if (message.messageType === "reaction") {
      setOutcome(message, "reaction");
      return;
    }
    // With no earlier message of this contact still to answer, a campaign that stops the bot now
    // would stop it in the job as well: say so at once, without a job (most messages of accounts
    // with no live bot). Anything else goes through a job, durable and in order, which checks the
    // rest (credits) when its turn comes.
    const key = inboundKey(contact.id);
    if (!scheduler.has(key)) {
      const account = store.account(message.accountId);
      const routed = account && campaignFor(message, contact, account);
      if (routed && "outcome" in routed) return setOutcome(message, routed.outcome);
    }
    scheduler.add("inbound", { messageId: message.id }, null, key);
  });

  // One contact's messages are answered one at a time, in the order they came (a lane of one per
  // contact): a hand-off, the credits and the conversation the bot sees are then as the previous
  // answer left them. Messages waiting for the bot wait as their stored jobs, however many.
  const laneOf = (payload: Record<string, unknown>) => store.messageById(String(payload.messageId))?.contactId ?? "";
  scheduler.on(
    "inbound",
    async (payload) => {
      const message = store.messageById(String(payload.messageId));
      // Answered already: a job restored from before a stop that came after its work was done.
      if (!message || message.botOutcome) return;
      await answer(message);
    },
    { laneOf, perLane: 1, total: BOT_CONCURRENCY },
  );

  function routeTo(message: MessageRecord, contact: ContactRecord, account: AccountRecord): CampaignRecord | undefined {
    const id = message.campaignId ?? contact.campaignId ?? account.defaultCampaignId;
    return id ? store.campaign(account.id, id) : undefined;
  }

  /** The campaign whose bot answers this message, or why none does; changes nothing. */
  function campaignFor(message: MessageRecord, contact: ContactRecord, account: AccountRecord): { outcome: BotOutcome } | { campaign: CampaignRecord } {
    const campaign = routeTo(message, contact, account);
    if (!campaign) return { outcome: "no_campaign" };
    const settings = JSON.parse(campaign.settings) as CampaignSettings;
    if (settings.type === "Outgoing") return { outcome: "outgoing_campaign" };
    if (settings.state !== "Live") return { outcome: "campaign_not_live" };
    if (!settings.botActive) return { outcome: "bot_inactive" };
    if (contact.botPaused) return { outcome: "contact_paused" };
    return { campaign };
  }

  /** Why the bot will not answer this message now, or the campaign it answers for (the contact now in it). */
  function prepare(message: MessageRecord, contact: ContactRecord, account: AccountRecord): { outcome: BotOutcome } | { campaign: CampaignRecord } {
    const routed = campaignFor(message, contact, account);
    if ("outcome" in routed) return routed;
    if (contact.campaignId !== routed.campaign.id) store.updateContact(contact, { campaignId: routed.campaign.id });
    if (account.credits < credits.costOf(contact, "bot_reply")) return { outcome: "no_credits" };
    return routed;
  }

  async function answer(message: MessageRecord) {
    const account = store.account(message.accountId);
    const contact = account && store.contact(account.id, message.contactId);
    if (!account || !contact) return;
    const outcome = (botOutcome: BotOutcome) => setOutcome(message, botOutcome);
    const prepared = prepare(message, contact, account);
    if ("outcome" in prepared) return outcome(prepared.outcome);
    const { campaign } = prepared;

    let result;
    try {
      result = await deps.bot({
        message: toMessage(message),
        conversation: store.conversation(contact.id).map(toMessage),
        contact: toAdminContact(contact),
        campaign: toCampaign(campaign),
        account: { id: account.id, name: account.name },
      });
    } catch (error) {
      deps.onError(error);
      return outcome("bot_error");
    }
    if (!result) return outcome("no_answer");
    // The bot may have taken a while: the state it was asked about may have changed since (a
    // reset; the campaign left Live, its bot turned off, the contact paused).
    if (store.messageById(message.id) !== message) return;
    const still = campaignFor(message, contact, account);
    if ("outcome" in still) return outcome(still.outcome);
    if ("handOff" in result) {
      store.createAlert({
        id: store.ids.id("alr_"),
        accountId: account.id,
        contactId: contact.id,
        campaignId: campaign.id,
        messageId: message.id,
        reason: result.handOff.reason,
        createdAt: store.timestamp(),
      });
      store.updateContact(contact, { botPaused: true });
      if (result.handOff.reply) reply(account, contact, result.handOff.reply, "bot", message.channel, campaign.id);
      return outcome("handed_off");
    }
    const sent = reply(account, contact, result.reply, "bot", message.channel, campaign.id);
    return outcome(sent.status === "not_sent" ? "no_credits" : "replied");
  }

  /**
   * A reply on the contact's custom channel, charged, recorded and delivered to the webhook URL.
   * Without a webhook URL it is recorded as failed and costs nothing; without credits, not sent.
   */
  function reply(account: AccountRecord, contact: ContactRecord, body: string, source: "bot" | "human", channel: string, campaignId: string | null): MessageRecord {
    const outbound = { contact, channel, body, source, toId: contact.fromId, campaignId } as const;
    if (account.webhookUrl && !credits.charge(account, contact, source === "bot" ? "bot_reply" : "human")) {
      return recordOutbound(store, { ...outbound, status: "not_sent", error: "The account has no credits left." });
    }
    const message = recordOutbound(store, { ...outbound, status: "pending" });
    deliveries.enqueue({
      account,
      kind: "reply",
      messageId: message.id,
      url: account.webhookUrl,
      webhookId: message.id,
      payload: { contactId: contact.id, messageId: message.id, userId: account.userId, body, toId: contact.fromId, channel },
    });
    return message;
  }

  return {
    /**
     * A reply typed in the app. To a custom-channel contact it is delivered to the webhook URL;
     * to any other it is recorded as sent on the campaign's channel. Undefined when the account
     * cannot pay for it (a first message costs a credit).
     */
    humanReply(contact: ContactRecord, body: string): MessageRecord | undefined {
      const account = store.account(contact.accountId)!;
      if (contact.fromId) {
        const sent = reply(account, contact, body, "human", contact.customChannel ?? "custom", contact.campaignId);
        return sent.status === "not_sent" ? undefined : sent;
      }
      if (!credits.charge(account, contact, "human")) return undefined;
      const campaign = contact.campaignId ? store.campaign(account.id, contact.campaignId) : undefined;
      const channel = campaign ? (JSON.parse(campaign.settings) as CampaignSettings).channel : "messaging_app";
      return recordOutbound(store, { contact, channel, body, source: "human", status: "sent", toId: contact.phone, campaignId: contact.campaignId });
    },
  };
}
