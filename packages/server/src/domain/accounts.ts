/**
 * Accounts: businesses, agencies and their sub-accounts, each with one API key (a new one stops
 * the old at once), its webhook settings and its credits.
 */
import type { components } from "../generated/admin.js";
import { base64, newApiKey } from "../shared/ids.js";
import { nearestName } from "../shared/nearest-name.js";
import { INBOX_BASE, isOwnInbox, webhookUrlProblem } from "../shared/webhook-url.js";
import type { AccountRecord } from "../store/models.js";
import { campaignIn } from "./campaigns.js";
import { clean } from "./contacts.js";
import { isCreditAmount, moveCredits, requestRecharge, roundCredits } from "./credits.js";
import { publish, timestamp, writable, type Domain } from "./domain.js";
import { conflict, invalid } from "./errors.js";

type Schemas = components["schemas"];
export type AccountInput = Partial<Schemas["AccountInput"] & Schemas["SubaccountInput"]>;

/** Refuses a webhookUrl or autoRechargeUrl that webhooks must not go to; `where` says whose it is. */
function checkWebhookUrls(domain: Domain, input: { webhookUrl?: string | null; autoRechargeUrl?: string | null }, where = "") {
  for (const field of ["webhookUrl", "autoRechargeUrl"] as const) {
    const value = input[field];
    const problem = value == null ? undefined : webhookUrlProblem(value, domain.rules.allowHttpWebhooks);
    if (problem) throw invalid(`${where}${field} ${problem}`);
  }
}

/**
 * Refuses a webhookUrl or autoRechargeUrl that is the inbox of no account (`/__inbox/acc_acmee`):
 * every webhook would fail 404. `self` is the account they are for, which may not be made yet.
 */
export function checkInboxes(
  domain: Domain,
  input: { webhookUrl?: string | null; autoRechargeUrl?: string | null },
  where = "",
  self?: string,
) {
  for (const field of ["webhookUrl", "autoRechargeUrl"] as const) {
    const value = input[field];
    if (value == null || !isOwnInbox(value)) continue;
    const id = value.slice(INBOX_BASE.length + 1);
    if (id === self || domain.store.account.get(id)) continue;
    const ids = [...domain.store.account.all()].map((account) => account.id);
    const near = nearestName(id, self ? [self, ...ids] : ids, { misspelt: true });
    throw invalid(
      `${where}${field} ${value} is the inbox of no account here${near ? `: did you mean ${INBOX_BASE}/${near}?` : "."} An inbox's path ends with an account's id (GET /__admin/accounts lists them).`,
    );
  }
}

/** The admin API's new sub-account: only an agency has them. */
export function createSubaccount(domain: Domain, agency: AccountRecord, input: AccountInput): AccountRecord {
  if (agency.kind !== "agency") throw conflict(`Account ${agency.id} is not an agency; only agencies have sub-accounts.`);
  return createAccount(domain, input, "subaccount", agency, "admin");
}

/** A new account (a sub-account when `agency` is given), with its opening balance. */
export function createAccount(
  domain: Domain,
  input: AccountInput,
  kind: "standard" | "agency" | "subaccount",
  agency: AccountRecord | null,
  source: "seed" | "admin",
): AccountRecord {
  const store = writable(domain);
  const id = input.id ?? domain.ids.id(kind === "subaccount" ? "sub_" : "acc_");
  if (store.account.get(id)) throw conflict(`An account with id ${id} already exists.`);
  checkWebhookUrls(domain, input, source === "seed" ? `Seed account ${id}: ` : "");
  // A seed's are checked once all its accounts are made (domain/state.ts).
  if (source === "admin") checkInboxes(domain, input, "", id);
  const apiKey = input.apiKey ?? newApiKey(domain.ids);
  if (store.account.find("apiKey", "", apiKey)) throw conflict("That API key already belongs to another account.");
  if (agency && input.email && store.account.find("subaccountEmail", agency.id, input.email.toLowerCase())) {
    throw conflict(`Agency ${agency.id} already has a sub-account with the email ${input.email}.`);
  }
  const account = store.account.insert({
    id,
    kind,
    name: input.name ?? input.email ?? id,
    email: clean(input.email),
    userId: input.userId ?? domain.ids.id("usr_"),
    agencyId: agency?.id ?? null,
    apiKey,
    webhookUrl: input.webhookUrl ?? null,
    webhookSecret: input.webhookSecret ?? `whsec_${base64(domain.ids.bytes(24))}`,
    autoRechargeUrl: input.autoRechargeUrl ?? null,
    autoRechargeThreshold: input.autoRecharge?.threshold ?? null,
    autoRechargeAmount: input.autoRecharge?.amount ?? null,
    defaultCampaignId: null,
    credits: 0,
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "account.created", account });
  if (input.credits) moveCredits(domain, account, input.credits, { description: "Opening balance", source });
  return account;
}

export function updateAccount(domain: Domain, account: AccountRecord, patch: Schemas["AccountPatch"]): AccountRecord {
  if (patch.defaultCampaignId) campaignIn(domain, account.id, patch.defaultCampaignId, `Account ${account.id}'s defaultCampaignId`);
  checkWebhookUrls(domain, patch);
  checkInboxes(domain, patch, "", account.id);
  const fields: Partial<AccountRecord> = {};
  if (patch.name !== undefined) fields.name = patch.name;
  if (patch.webhookUrl !== undefined) fields.webhookUrl = patch.webhookUrl;
  if (patch.autoRechargeUrl !== undefined) fields.autoRechargeUrl = patch.autoRechargeUrl;
  if (patch.defaultCampaignId !== undefined) fields.defaultCampaignId = patch.defaultCampaignId;
  if (patch.autoRecharge !== undefined) {
    fields.autoRechargeThreshold = patch.autoRecharge?.threshold ?? null;
    fields.autoRechargeAmount = patch.autoRecharge?.amount ?? null;
  }
  writable(domain).account.update(account, fields);
  publish(domain, { type: "account.updated", account });
  return account;
}

/** Settings > Account > API Key > Generate: the old key stops working at once. */
export function rotateApiKey(domain: Domain, account: AccountRecord, key?: string): AccountRecord {
  const next = key ?? newApiKey(domain.ids);
  if (domain.store.account.find("apiKey", "", next)) throw conflict("That API key already belongs to an account.");
  writable(domain).account.update(account, { apiKey: next });
  publish(domain, { type: "account.updated", account });
  return account;
}

/** The dashboard's adjustment: credits added or removed by hand; a balance never goes below zero. */
export function adjustCredits(domain: Domain, account: AccountRecord, amount: number, description?: string): void {
  if (!isCreditAmount(amount)) {
    throw invalid("amount must be a non-zero number of credits with at most 6 decimal places, at most 1000000000 either way.");
  }
  if (account.credits + amount < 0) throw conflict(`Account ${account.id} has ${account.credits} credits; it cannot lose ${-amount}.`);
  const before = account.credits;
  moveCredits(domain, account, amount, { description: description ?? (amount > 0 ? "Credits added" : "Credits removed"), source: "admin" });
  requestRecharge(domain, account, before);
}

/**
 * The dashboard's "set to": the balance becomes `balance`, recorded as one transaction of the
 * difference (none when it has that balance already).
 */
export function setCredits(domain: Domain, account: AccountRecord, balance: number, description?: string): void {
  if (!Number.isFinite(balance) || balance < 0 || balance > 1e9 || Math.abs(roundCredits(balance) - balance) > 1e-9) {
    throw invalid("balance must be a number of credits from 0 to 1000000000, with at most 6 decimal places.");
  }
  const amount = roundCredits(balance - account.credits);
  if (amount === 0) return;
  const before = account.credits;
  moveCredits(domain, account, amount, { description: description ?? `Balance set to ${balance}`, source: "admin" });
  requestRecharge(domain, account, before);
}
