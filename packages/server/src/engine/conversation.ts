/**
 * A received message's last two steps: the bot answers if it is active, and the reply goes to the
 * account's Custom Channel Webhook URL (domain/replies.ts), or, to a message on a built-in
 * channel (a simulated one), is recorded as sent there with no webhook. Nothing is sent for the
 * received message itself. Any message from a contact cancels the follow-ups waiting for them.
 */
import { settingsOf } from "../domain/campaigns.js";
import { updateContact } from "../domain/contacts.js";
import { costOf } from "../domain/credits.js";
import { ownedBy, type Domain } from "../domain/domain.js";
import type { Redact } from "../domain/secrets.js";
import { clearFailedBotOutcome, setBotOutcome, type BotRun } from "../domain/messages.js";
import { handOff, reply, replyOnChannel } from "../domain/replies.js";
import { onBuiltInChannel } from "../domain/simulated.js";
import type { BotOutcome } from "../events/events.js";
import { toAdminContact, toCampaign, toMessage } from "../records/present-admin.js";
import type { JobPayloads } from "../store/job-payloads.js";
import type { AccountRecord, CampaignRecord, ContactRecord, MessageRecord } from "../store/models.js";
import { elapsedMs, startTimer } from "../shared/elapsed.js";
import { botInfoOf, type Bot, type BotOutput } from "./bot.js";
import { DEFER, type Scheduler } from "./scheduler.js";

/** The key a contact's pending follow-ups are scheduled under: a message from them cancels the rest. */
export const followUpKey = (contactId: string) => `follow_up:${contactId}`;
/** The key of a contact's received messages waiting for the bot (one job each). */
const inboundKey = (contactId: string) => `inbound:${contactId}`;

/** Received messages the bot answers at once, all contacts together. */
const BOT_CONCURRENCY = 64;

export interface ConversationDeps {
  domain: Domain;
  scheduler: Scheduler;
  bot: Bot;
  onError: (error: unknown) => void;
  /** A bot's error may hold others' words (a model endpoint's): kept, and told, with no secret in them. */
  redact: Redact;
}

type Routed = { outcome: BotOutcome } | { campaign: CampaignRecord };

/**
 * "Try the bot again": a received message whose bot failed waits for the bot again, in its
 * contact's lane like a new one, so it is answered after what came before it.
 */
export function askBotAgain(domain: Domain, scheduler: Scheduler, message: MessageRecord): void {
  clearFailedBotOutcome(domain, message);
  scheduler.add("inbound", { messageId: message.id }, null, inboundKey(message.contactId));
}

export function startConversations({ domain, scheduler, bot, onError, redact }: ConversationDeps): void {
  const { store } = domain;
  const info = botInfoOf(bot);

  domain.events.on(["message.received"], ({ message, contact }) => {
    // The contact answered: the follow-ups waiting for them are no longer needed.
    scheduler.cancel(followUpKey(contact.id));
    if (message.messageType === "reaction") return setBotOutcome(domain, message, "reaction");
    // With no earlier message of this contact still to answer, a campaign that stops the bot now
    // would stop it in the job as well: say so at once, without a job (most messages of accounts
    // with no live bot). Anything else goes through a job, durable and in order, which checks the
    // rest (credits) when its turn comes.
    const key = inboundKey(contact.id);
    if (!scheduler.has(key)) {
      const account = store.account.get(message.accountId);
      const routed = account && campaignFor(message, contact, account);
      if (routed && "outcome" in routed) return setBotOutcome(domain, message, routed.outcome);
    }
    scheduler.add("inbound", { messageId: message.id }, null, key);
  });

  // One contact's messages are answered one at a time, in the order they came (a lane of one per
  // contact): a hand-off, the credits and the conversation the bot sees are then as the previous
  // answer left them. Messages waiting for the bot wait as their stored jobs, however many.
  const laneOf = ({ messageId }: JobPayloads["inbound"]) => store.message.get(messageId)?.contactId ?? "";
  scheduler.on(
    "inbound",
    async ({ messageId }, { signal }) => {
      const message = store.message.get(messageId);
      // Answered already: a job restored from before a stop that came after its work was done.
      if (!message || message.botOutcome) return;
      return answer(message, signal);
    },
    { laneOf, perLane: 1, total: BOT_CONCURRENCY },
  );

  /** The campaign whose bot answers this message, or why none does; changes nothing. */
  function campaignFor(message: MessageRecord, contact: ContactRecord, account: AccountRecord): Routed {
    const id = message.campaignId ?? contact.campaignId ?? account.defaultCampaignId;
    const campaign = id ? ownedBy(account.id, store.campaign.get(id)) : undefined;
    if (!campaign) return { outcome: "no_campaign" };
    const settings = settingsOf(campaign);
    if (settings.type === "Outgoing") return { outcome: "outgoing_campaign" };
    if (settings.state !== "Live") return { outcome: "campaign_not_live" };
    if (!settings.botActive) return { outcome: "bot_inactive" };
    if (contact.botPaused) return { outcome: "contact_paused" };
    return { campaign };
  }

  /** Why the bot will not answer this message now, or the campaign it answers for (the contact now in it). */
  function prepare(message: MessageRecord, contact: ContactRecord, account: AccountRecord): Routed {
    const routed = campaignFor(message, contact, account);
    if ("outcome" in routed) return routed;
    if (contact.campaignId !== routed.campaign.id) updateContact(domain, contact, { campaignId: routed.campaign.id });
    if (account.credits < costOf(domain, contact, "bot_reply")) return { outcome: "no_credits" };
    return routed;
  }

  async function answer(message: MessageRecord, signal: AbortSignal): Promise<void | typeof DEFER> {
    const account = store.account.get(message.accountId);
    const contact = account && ownedBy(account.id, store.contact.get(message.contactId));
    if (!account || !contact) return;
    const outcome = (botOutcome: BotOutcome, run?: BotRun) => setBotOutcome(domain, message, botOutcome, run);
    const prepared = prepare(message, contact, account);
    if ("outcome" in prepared) return outcome(prepared.outcome);
    const { campaign } = prepared;

    const asked = await ask(message, contact, campaign, account, signal);
    // The bot may have taken a while: the state it was asked about may have changed since (a
    // reset, a commit undone: the message is then another record, answered by its own job; the
    // campaign left Live, its bot turned off, the contact paused).
    if (store.message.get(message.id) !== message) return;
    const { result, run } = asked;
    // No answer because the server is stopping (a model's call cut short): the job stays stored,
    // and the restarted server asks again.
    if (signal.aborted && result && "failed" in result) return DEFER;
    if (!result) return outcome(run.error === null ? "no_answer" : "bot_error", run);
    if ("failed" in result) return outcome(result.failed.outcome, run);
    const still = campaignFor(message, contact, account);
    if ("outcome" in still) return outcome(still.outcome, run);
    // On the channel the message came on: a custom one's webhook, or a built-in one, with none.
    const answerWith = (text: string) =>
      onBuiltInChannel(message)
        ? replyOnChannel(domain, account, contact, text, message.channel, campaign.id)
        : reply(domain, account, contact, text, "bot", message.channel, campaign.id);
    if ("handOff" in result) {
      handOff(domain, message, contact, campaign, result.handOff.reason);
      if (result.handOff.reply) answerWith(result.handOff.reply);
      return outcome("handed_off", run);
    }
    const sent = answerWith(result.reply);
    return outcome(sent.status === "not_sent" ? "no_credits" : "replied", run);
  }

  /**
   * Asks the bot, timing it in real milliseconds: its answer (undefined when it threw), and the
   * run kept on the message (which bot, how long, what went wrong).
   */
  async function ask(
    message: MessageRecord,
    contact: ContactRecord,
    campaign: CampaignRecord,
    account: AccountRecord,
    signal: AbortSignal,
  ) {
    const started = startTimer();
    let result: BotOutput | undefined;
    let error: string | null = null;
    try {
      result = await bot({
        message: toMessage(message),
        conversation: store.message.group("contact", contact.id).map(toMessage),
        contact: toAdminContact(contact),
        campaign: toCampaign(campaign),
        account: { id: account.id, name: account.name },
        signal,
      });
      if (result && "failed" in result) error = redact(result.failed.error);
    } catch (thrown) {
      onError(thrown);
      error = redact(`The bot threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    }
    const run: BotRun = { name: info.name, model: info.model, latencyMs: elapsedMs(started), replayed: result?.replayed ?? false, error };
    return { result, run };
  }
}
