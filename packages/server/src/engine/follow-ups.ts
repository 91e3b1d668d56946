/**
 * Follow-ups: leads who do not answer an opening message are followed up after quiet times of
 * 24 h, 72 h and 7 days (the campaign's settings), up to its cycles of messages; any message from
 * the contact cancels the rest (conversation.ts). Like the opening message, each goes on the
 * campaign's built-in channel to the contact's phone.
 */
import { settingsOf } from "../domain/campaigns.js";
import { charge, NO_CREDITS } from "../domain/credits.js";
import type { Domain } from "../domain/domain.js";
import type { CampaignRecord, ContactRecord } from "../store/models.js";
import { followUpKey } from "./conversation.js";
import { recordOnChannel, sendsNothingFirst, subjectOf } from "./outreach.js";
import { render } from "./render.js";
import type { Scheduler } from "./scheduler.js";

const HOUR = 3_600_000;
const DEFAULT_FOLLOW_UP = "Hi {{firstName}}, just checking in on my last message: are you still interested?";

/** Follow-ups are for leads who have not written: one who has, at any time, is in a conversation. */
export const hasWritten = (domain: Domain, contact: ContactRecord) =>
  domain.store.message.group("contact", contact.id).some((m) => m.direction === "inbound");

export type FollowUps = ReturnType<typeof startFollowUps>;

export function startFollowUps(domain: Domain, scheduler: Scheduler) {
  /** Schedules the follow-up at `step` (counted over every cycle), if the campaign has one left. */
  function schedule(campaign: CampaignRecord, contact: ContactRecord, step: number): void {
    const { followUps } = settingsOf(campaign);
    if (!followUps.enabled || step >= followUps.cycles * followUps.messagesPerCycle || hasWritten(domain, contact)) return;
    const position = step % followUps.messagesPerCycle;
    const quiet = followUps.delaysHours[Math.min(position, followUps.delaysHours.length - 1)]!; // the contract: at least one
    scheduler.add(
      "follow_up",
      { campaignId: campaign.id, contactId: contact.id, step },
      domain.clock.now() + quiet * HOUR,
      followUpKey(contact.id),
    );
  }

  scheduler.on("follow_up", (payload) => {
    const subject = subjectOf(domain, payload);
    if (!subject) return;
    const { campaign, contact, account } = subject;
    const settings = settingsOf(campaign);
    // One that stopped sending first (not Live, or become Incoming) stops its follow-ups too.
    if (sendsNothingFirst(settings) || !settings.followUps.enabled || hasWritten(domain, contact)) return;
    const { step } = payload;
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
