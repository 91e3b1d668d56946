/** Campaigns: every setting the dashboard configures, with the defaults a new one starts from. */
import type { components } from "../generated/admin.js";
import { nearestName } from "../shared/nearest-name.js";
import { placeholderProblem } from "../shared/placeholders.js";
import type { AccountRecord, CampaignRecord } from "../store/models.js";
import { ownedBy, publish, timestamp, writable, type Domain } from "./domain.js";
import { conflict, invalid, notIn } from "./errors.js";

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

/** Each campaign's settings as last parsed, with the text they came from. */
const parsed = new WeakMap<CampaignRecord, { text: string; settings: CampaignSettings }>();

/**
 * A campaign's settings (kept as JSON text: the model holds flat values). A received message reads
 * them several times, so they are parsed once for each text the record holds, and frozen: the
 * same object goes to every reader, and one that changed it would change it for all.
 */
export function settingsOf(campaign: CampaignRecord): CampaignSettings {
  const kept = parsed.get(campaign);
  if (kept?.text === campaign.settings) return kept.settings;
  const settings = deepFreeze(JSON.parse(campaign.settings) as CampaignSettings);
  parsed.set(campaign, { text: campaign.settings, settings });
  return settings;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Refuses a text the engine would send with a placeholder it cannot fill; `where` names the campaign. */
function checkTexts(input: Schemas["CampaignSettings"], where: string) {
  const texts: Array<[string, string]> = [];
  if (input.openingTemplate) texts.push(["openingTemplate.body", input.openingTemplate.body]);
  input.followUps?.messages?.forEach((text, i) => texts.push([`followUps.messages[${i}]`, text]));
  for (const [field, text] of texts) {
    const problem = placeholderProblem(text);
    if (problem) throw invalid(`${where}: ${field} ${problem}`);
  }
}

function merged(input: Schemas["CampaignSettings"], base: CampaignSettings): CampaignSettings {
  return { ...base, ...input, followUps: { ...base.followUps, ...input.followUps } } as CampaignSettings;
}

export function createCampaign(domain: Domain, owner: AccountRecord, input: Schemas["CampaignSettings"] & { id?: string }): CampaignRecord {
  const id = input.id ?? domain.ids.id("cmp_");
  if (domain.store.campaign.get(id)) throw conflict(`A campaign with id ${id} already exists.`);
  checkTexts(input, input.id ? `Campaign ${input.id}` : `Campaign "${input.name ?? CAMPAIGN_DEFAULTS.name}"`);
  const { id: _id, ...settings } = input;
  const campaign = writable(domain).campaign.insert({
    id,
    accountId: owner.id,
    settings: JSON.stringify(merged(settings, CAMPAIGN_DEFAULTS)),
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "campaign.created", campaign });
  // An account's first campaign answers its custom-channel messages until another is chosen.
  if (!owner.defaultCampaignId) {
    writable(domain).account.update(owner, { defaultCampaignId: campaign.id });
    publish(domain, { type: "account.updated", account: owner });
  }
  return campaign;
}

export function updateCampaign(domain: Domain, campaign: CampaignRecord, patch: Schemas["CampaignPatch"]): CampaignRecord {
  checkTexts(patch, `Campaign ${campaign.id}`);
  writable(domain).campaign.update(campaign, { settings: JSON.stringify(merged(patch, settingsOf(campaign))) });
  publish(domain, { type: "campaign.updated", campaign });
  return campaign;
}

/**
 * The account's campaign with this id, else 404 naming it, `where` it was given (a list, a
 * default campaign), with a did-you-mean among the account's campaigns: a seed's misspelt
 * `campaignId` is found by its writer at once.
 */
export function campaignIn(domain: Domain, accountId: string, campaignId: string, where: string): CampaignRecord {
  const campaign = ownedBy(accountId, domain.store.campaign.get(campaignId));
  if (campaign) return campaign;
  const ids = domain.store.campaign.group("account", accountId).map((c) => c.id);
  const near = nearestName(campaignId, ids, { misspelt: true });
  const known = ids.length ? `Its campaigns: ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ", …" : ""}.` : "It has no campaigns yet.";
  throw notIn(`${where}: no campaign ${campaignId} in account ${accountId}${near ? `: did you mean ${near}?` : "."} ${known}`);
}
