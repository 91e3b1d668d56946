/** Campaigns: every setting the dashboard configures, with the defaults a new one starts from. */
import type { components } from "../generated/admin.js";
import type { AccountRecord, CampaignRecord } from "../store/models.js";
import { publish, timestamp, writable, type Domain } from "./domain.js";
import { conflict } from "./errors.js";

type Schemas = components["schemas"];

/** A campaign's settings as stored (its record keeps them as JSON). */
export type CampaignSettings = Omit<Schemas["Campaign"], "id" | "accountId" | "createdAt">;

export const CAMPAIGN_DEFAULTS: CampaignSettings = {
  name: "Campaign",
  type: "Combined",
  language: "en",
  state: "Draft",
  channel: "messaging_app",
  botInstructions: "",
  companyInfo: "",
  faqs: [],
  resources: [],
  goal: "",
  openingTemplate: null,
  triggerOnNewListContacts: false,
  followUps: { enabled: false, delaysHours: [24, 72, 168], cycles: 3, messagesPerCycle: 3, messages: [] },
  botActive: true,
  handOffPhrases: ["talk to a human", "speak to a person", "real person", "human agent"],
};

/** A campaign's settings (kept as JSON text: the model holds flat values). */
export const settingsOf = (campaign: CampaignRecord): CampaignSettings => JSON.parse(campaign.settings) as CampaignSettings;

function merged(input: Schemas["CampaignSettings"], base: CampaignSettings): CampaignSettings {
  return { ...base, ...input, followUps: { ...base.followUps, ...input.followUps } } as CampaignSettings;
}

export function createCampaign(domain: Domain, owner: AccountRecord, input: Schemas["CampaignSettings"] & { id?: string }): CampaignRecord {
  const id = input.id ?? domain.ids.id("cmp_");
  if (domain.store.campaign.get(id)) throw conflict(`A campaign with id ${id} already exists.`);
  const { id: _id, ...settings } = input;
  const campaign = writable(domain).campaign.insert({ id, accountId: owner.id, settings: JSON.stringify(merged(settings, CAMPAIGN_DEFAULTS)), createdAt: timestamp(domain) });
  publish(domain, { type: "campaign.created", campaign });
  // An account's first campaign answers its custom-channel messages until another is chosen.
  if (!owner.defaultCampaignId) {
    writable(domain).account.update(owner, { defaultCampaignId: campaign.id });
    publish(domain, { type: "account.updated", account: owner });
  }
  return campaign;
}

export function updateCampaign(domain: Domain, campaign: CampaignRecord, patch: Schemas["CampaignPatch"]): CampaignRecord {
  writable(domain).campaign.update(campaign, { settings: JSON.stringify(merged(patch, settingsOf(campaign))) });
  publish(domain, { type: "campaign.updated", campaign });
  return campaign;
}
