/**
 * Follow-ups: leads who do not answer an opening message are followed up after quiet times of
 * 24 h, 72 h and 7 days (the campaign's settings), up to its cycles of messages; any message from
 * the contact cancels the rest (conversation.ts). Like the opening message, each goes on the
 * campaign's built-in channel to the contact's phone.
 */
import { settingsOf } from "../domain/campaigns.js";
import { charge } from "../domain/credits.js";
import { ownedBy, type Domain } from "../domain/domain.js";
import { recordOutbound, type Outbound } from "../domain/messages.js";
import type { CampaignSettings } from "../records/present-admin.js";
import type { AccountRecord, CampaignRecord, ContactRecord, MessageRecord } from "../store/models.js";
import { render } from "./render.js";
import { followUpKey } from "./conversation.js";
import type { Scheduler } from "./scheduler.js";

const HOUR = 3_600_000;
const DEFAULT_FOLLOW_UP = "Hi {{firstName}}, just checking in on my last message: are you still interested?";
export const NO_CREDITS = "The account has no credits left.";


/** Why this campaign sends nothing first (no opening, no follow-up), or undefined when it does: only a Live one that is not Incoming. */
export function sendsNothingFirst(settings: CampaignSettings): string | undefined {
  if (settings.state !== "Live") return `The campaign is ${settings.state}; only a Live campaign sends.`;
  if (settings.type === "Incoming") return "The campaign is Incoming; it sends no opening messages.";
  return undefined;
}

/** The campaign, its contact and its account a job's payload names, while all three are there. */
export function subjectOf(domain: Domain, payload: Record<string, unknown>): { campaign: CampaignRecord; contact: ContactRecord; account: AccountRecord } | undefined {
  const { store } = domain;
  const campaign = store.campaign.get(String(payload.campaignId));
  const contact = campaign && ownedBy(campaign.accountId, store.contact.get(String(payload.contactId)));
  const account = campaign && store.account.get(campaign.accountId);
  return campaign && contact && account ? { campaign, contact, account } : undefined;
}

/** An opening message or follow-up on the campaign's built-in channel, to the contact's phone. */
export function recordOnChannel(
  domain: Domain,
  campaign: CampaignRecord,
  contact: ContactRecord,
  message: Pick<Outbound, "status"> & Partial<Pick<Outbound, "body" | "source" | "error">>,
): MessageRecord {
  const settings = settingsOf(campaign);
  return recordOutbound(domain, {
    contact,
    channel: settings.channel,
    body: settings.openingTemplate ? render(settings.openingTemplate.body, contact) : "",
    source: "opening",
    toId: contact.phone,
    campaignId: campaign.id,
    ...message,
  });
}

/** Follow-ups are for leads who have not written: one who has, at any time, is in a conversation. */
const hasWritten = (domain: Domain, contact: ContactRecord) => domain.store.message.group("contact", contact.id).some((m) => m.direction === "inbound");

export type FollowUps = ReturnType<typeof startFollowUps>;

export function startFollowUps(domain: Domain, scheduler: Scheduler) {
  /** Schedules the follow-up at `step` (counted over every cycle), if the campaign has one left. */
  function schedule(campaign: CampaignRecord, contact: ContactRecord, step: number): void {
    const { followUps } = settingsOf(campaign);
    if (!followUps.enabled || step >= followUps.cycles * followUps.messagesPerCycle || hasWritten(domain, contact)) return;
    const position = step % followUps.messagesPerCycle;
    const quiet = followUps.delaysHours[Math.min(position, followUps.delaysHours.length - 1)] ?? 24;
    scheduler.add("follow_up", { campaignId: campaign.id, contactId: contact.id, step }, domain.clock.now() + quiet * HOUR, followUpKey(contact.id));
  }

  scheduler.on("follow_up", (payload) => {
    const subject = subjectOf(domain, payload);
    if (!subject) return;
    const { campaign, contact, account } = subject;
    const settings = settingsOf(campaign);
    // One that stopped sending first (not Live, or become Incoming) stops its follow-ups too.
    if (sendsNothingFirst(settings) || !settings.followUps.enabled || hasWritten(domain, contact)) return;
    const step = Number(payload.step);
    const texts = settings.followUps.messages;
    const text = render(texts[step % texts.length] ?? DEFAULT_FOLLOW_UP, contact);
    if (!charge(domain, account, contact, "follow_up")) {
      recordOnChannel(domain, campaign, contact, { status: "not_sent", error: NO_CREDITS, body: text, source: "follow_up" });
      return;
    }
    recordOnChannel(domain, campaign, contact, { status: "sent", body: text, source: "follow_up" });
    schedule(campaign, contact, step + 1);
  });

  return { schedule };
}
