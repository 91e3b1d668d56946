/**
 * Where a contact's follow-ups stand, by the rules follow-ups.ts runs: the next one due, and why
 * none will go (or why the one due will be dropped). The conversation page shows it.
 */
import type { components } from "../generated/admin.js";
import { settingsOf } from "../domain/campaigns.js";
import { NO_CREDITS } from "../domain/credits.js";
import { isoTime, ownedBy, type Domain } from "../domain/domain.js";
import { readJob } from "../store/job-payloads.js";
import type { CampaignRecord, ContactRecord, JobRecord } from "../store/models.js";
import { hasWritten } from "./follow-ups.js";
import { sendsNothingFirst } from "./outreach.js";

export type FollowUpStatus = components["schemas"]["FollowUpStatus"];
type Stopped = NonNullable<FollowUpStatus["stopped"]>;

const stop = (reason: Stopped["reason"], message: string): Stopped => ({ reason, message });
const named = (campaign: CampaignRecord) => `campaign “${settingsOf(campaign).name}”`;

/** Why this campaign will send no follow-up now, or null when it would: Live, not Incoming, follow-ups on. */
function campaignStops(campaign: CampaignRecord): Stopped | null {
  const settings = settingsOf(campaign);
  if (sendsNothingFirst(settings)) {
    const why =
      settings.state === "Live" ? "is Incoming, which sends nothing first" : `is ${settings.state}, and only a Live campaign sends`;
    return stop("campaign_not_sending", `Follow-ups stopped: ${named(campaign)} ${why}.`);
  }
  if (!settings.followUps.enabled) return stop("follow_ups_off", `Follow-ups stopped: ${named(campaign)} has follow-ups off.`);
  return null;
}

/** `jobs`: the contact's follow-up jobs still pending. */
export function followUpStatus(domain: Domain, contact: ContactRecord, jobs: readonly JobRecord[]): FollowUpStatus {
  const { store } = domain;
  const campaignOf = (id: string | null) => (id === null ? undefined : ownedBy(contact.accountId, store.campaign.get(id)));
  const job = [...jobs].sort((a, b) => (a.runAt ?? 0) - (b.runAt ?? 0))[0];
  const read = job && readJob(job);
  if (job && read?.kind === "follow_up") {
    const { payload } = read;
    const campaign = campaignOf(payload.campaignId);
    if (campaign && job.runAt !== null) {
      const { cycles, messagesPerCycle } = settingsOf(campaign).followUps;
      const next = { at: isoTime(job.runAt), number: payload.step + 1, of: cycles * messagesPerCycle, campaignId: campaign.id };
      const stopped = campaignStops(campaign);
      // Still scheduled, but the rules are checked again when it falls due: it would be dropped.
      return {
        next,
        stopped: stopped && {
          ...stopped,
          message: `${stopped.message} The follow-up due then is dropped, and the rest with it, unless that changes first.`,
        },
      };
    }
  }
  return { next: null, stopped: whyNone(domain, contact, campaignOf(contact.campaignId)) };
}

/** Why no follow-up is scheduled for the contact. */
function whyNone(domain: Domain, contact: ContactRecord, campaign: CampaignRecord | undefined): Stopped {
  if (hasWritten(domain, contact))
    return stop("lead_wrote", "Follow-ups stopped: the lead wrote (follow-ups are for leads who have not answered).");
  if (!campaign)
    return stop("no_campaign", "No follow-ups: no campaign has reached this contact (follow-ups follow a campaign's opening message).");
  const stopped = campaignStops(campaign);
  if (stopped) return stopped;
  const sent = domain.store.message.group("contact", contact.id).filter((m) => m.campaignId === campaign.id && m.direction === "outbound");
  if (!sent.some((m) => m.source === "opening" && m.status === "sent")) {
    return stop("no_opening", `No follow-ups: ${named(campaign)} has sent this contact no opening message (follow-ups follow it).`);
  }
  const followUps = sent.filter((m) => m.source === "follow_up");
  const last = followUps[followUps.length - 1];
  if (last?.status === "not_sent" && last.error === NO_CREDITS)
    return stop("no_credits", "Follow-ups stopped: the account had no credits left for the last one, so none follows it.");
  const { cycles, messagesPerCycle } = settingsOf(campaign).followUps;
  const total = cycles * messagesPerCycle;
  if (followUps.filter((m) => m.status === "sent").length >= total)
    return stop("all_sent", `Follow-ups done: all ${total} of ${named(campaign)} were sent.`);
  return stop("none_scheduled", "No follow-up is scheduled.");
}
