/**
 * What a campaign sends first, on its built-in channel to the contact's phone: the opening message
 * (funnel.ts) and the follow-ups after it (follow-ups.ts), and whether the campaign sends them.
 */
import { settingsOf, type CampaignSettings } from "../domain/campaigns.js";
import { ownedBy, type Domain } from "../domain/domain.js";
import { recordOutbound, type Outbound } from "../domain/messages.js";
import type { JobPayloads } from "../store/job-payloads.js";
import type { AccountRecord, CampaignRecord, ContactRecord, MessageRecord } from "../store/models.js";
import { render } from "./render.js";

/** Why this campaign sends nothing first (no opening, no follow-up), or undefined when it does: only a Live one that is not Incoming. */
export function sendsNothingFirst(settings: CampaignSettings): string | undefined {
  if (settings.state !== "Live") return `The campaign is ${settings.state}; only a Live campaign sends.`;
  if (settings.type === "Incoming") return "The campaign is Incoming; it sends no opening messages.";
  return undefined;
}

/** The campaign, its contact and its account a job's payload names, while all three are there. */
export function subjectOf(
  domain: Domain,
  payload: JobPayloads["opening" | "follow_up"],
): { campaign: CampaignRecord; contact: ContactRecord; account: AccountRecord } | undefined {
  const { store } = domain;
  const campaign = store.campaign.get(payload.campaignId);
  const contact = campaign && ownedBy(campaign.accountId, store.contact.get(payload.contactId));
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
