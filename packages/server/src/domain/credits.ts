/**
 * Credits: every account has a balance and a history of what moved it. The first outgoing message
 * to a contact costs 1 credit, each bot reply 1. A sub-account whose balance falls below its
 * auto-recharge threshold asks its agency for more, once per crossing, through the auto-recharge
 * webhook.
 */
import { contactName } from "../shared/contact-name.js";
import type { AccountRecord, ContactRecord, CreditTransactionRecord } from "../store/models.js";
import { publish, timestamp, writable, type Domain } from "./domain.js";
import { queueDelivery } from "./deliveries.js";

export type Spend = "bot_reply" | "opening" | "follow_up" | "human";

/** A message not sent for want of credits says so. */
export const NO_CREDITS = "The account has no credits left.";

export interface CreditEntry {
  description: string;
  source: CreditTransactionRecord["source"];
  idempotencyKey?: string | null;
}

/**
 * Adds (or, negative, removes) credits and records the transaction. A caller that debits checks
 * for a recharge once its whole operation is done (`requestRecharge`), so the webhook carries the
 * balance the operation left.
 */
export function moveCredits(domain: Domain, account: AccountRecord, amount: number, entry: CreditEntry): CreditTransactionRecord {
  const store = writable(domain);
  store.account.update(account, { credits: roundCredits(account.credits + amount) });
  const transaction = store.creditTransaction.insert({
    id: domain.ids.id("txn_"),
    accountId: account.id,
    amount,
    balanceAfter: account.credits,
    description: entry.description,
    source: entry.source,
    idempotencyKey: entry.idempotencyKey ?? null,
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "credits.changed", account, transaction });
  return transaction;
}

/**
 * The service has not written to this contact yet: no message of its own went out or is on its
 * way (messages the customer's own system sent do not count).
 */
function isFirst(domain: Domain, contact: ContactRecord): boolean {
  return !domain.store.message
    .group("contact", contact.id)
    .some(
      (m) =>
        m.direction === "outbound" && m.source !== "api_send" && (m.status === "sent" || m.status === "pending" || m.status === "failed"),
    );
}

/** One credit for the first message to a contact, one more for a bot reply. */
function price(domain: Domain, contact: ContactRecord, spend: Spend): { first: boolean; cost: number } {
  const first = isFirst(domain, contact);
  return { first, cost: (first ? 1 : 0) + (spend === "bot_reply" ? 1 : 0) };
}

export const costOf = (domain: Domain, contact: ContactRecord, spend: Spend): number => price(domain, contact, spend).cost;

/** Takes what the message costs; false (and nothing taken) when the balance is short. */
export function charge(domain: Domain, account: AccountRecord, contact: ContactRecord, spend: Spend): boolean {
  const { first, cost } = price(domain, contact, spend);
  if (cost === 0) return true;
  if (account.credits < cost) return false;
  const before = account.credits;
  if (first) moveCredits(domain, account, -1, { description: `First message to ${nameOf(contact)}`, source: "message" });
  if (spend === "bot_reply") moveCredits(domain, account, -1, { description: `Bot reply to ${nameOf(contact)}`, source: "bot_reply" });
  requestRecharge(domain, account, before);
  return true;
}

const nameOf = (contact: ContactRecord) => contactName(contact) ?? contact.id;

/** A balance that just fell below its threshold (from `before`) asks the agency for more. */
export function requestRecharge(domain: Domain, account: AccountRecord, before: number): void {
  const threshold = account.autoRechargeThreshold;
  const amount = account.autoRechargeAmount;
  if (account.kind !== "subaccount" || threshold === null || amount === null || account.agencyId === null) return;
  if (!(before >= threshold && account.credits < threshold)) return;
  const agency = domain.store.account.get(account.agencyId);
  if (!agency) return;
  const key = domain.ids.id("rch_");
  const payload = { idempotency_key: key, sub_account_id: account.id, email: account.email, amount, balance: account.credits, threshold };
  const copies = domain.rules.duplicateRechargeWebhooks ? 2 : 1;
  for (let copy = 1; copy <= copies; copy++) {
    // A duplicate is a separate delivery (its own webhook-id) carrying the same idempotency_key.
    queueDelivery(domain, {
      account: agency,
      kind: "auto_recharge",
      messageId: null,
      url: agency.autoRechargeUrl,
      webhookId: copy === 1 ? key : `${key}_dup${copy}`,
      payload,
    });
  }
}

/**
 * An amount of credits a grant or an adjustment may move: not zero, at most 6 decimal places (an
 * amount with more would not add up in the history), at most 1e9 either way (no sum of such
 * amounts overflows a balance to Infinity).
 */
export function isCreditAmount(amount: number): boolean {
  const rounded = roundCredits(amount);
  return Number.isFinite(amount) && rounded !== 0 && Math.abs(rounded - amount) <= 1e-9 && Math.abs(amount) <= 1e9;
}

/** Credits are kept to 6 decimals, so 0.1 + 0.2 gives 0.3. */
export function roundCredits(value: number): number {
  // A value this large has no sixth decimal left to round, and scaling it could overflow to
  // Infinity (an opening balance of 1e303), which the snapshot and data file cannot hold.
  const scaled = value * 1e6;
  return Math.abs(scaled) < 2 ** 53 ? Math.round(scaled) / 1e6 : value;
}
