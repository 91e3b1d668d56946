/**
 * What messages cost: the first outgoing message to a contact 1 credit, each bot reply 1. A
 * sub-account whose balance falls below its auto-recharge threshold asks its agency for more,
 * once per crossing, through the auto-recharge webhook.
 */
import type { AccountRecord, ContactRecord } from "../store/models.js";
import type { Store } from "../store/store.js";
import type { Deliveries } from "./delivery.js";

export type Spend = "bot_reply" | "opening" | "follow_up" | "human";

export interface CreditsDeps {
  store: Store;
  deliveries: Deliveries;
  /** Send each auto-recharge webhook twice (same idempotency_key), to prove receivers de-duplicate. */
  duplicateRechargeWebhooks: boolean;
}

export type Credits = ReturnType<typeof createCredits>;

export function createCredits({ store, deliveries, duplicateRechargeWebhooks }: CreditsDeps) {
  const who = (contact: ContactRecord) =>
    [contact.firstName, contact.lastName].filter(Boolean).join(" ") || contact.phone || contact.email || contact.fromId || contact.id;

  /**
   * The service has not written to this contact yet: no message of its own went out or is on its
   * way (messages the customer's own system sent do not count).
   */
  function isFirst(contact: ContactRecord): boolean {
    return !store
      .conversation(contact.id)
      .some((m) => m.direction === "outbound" && m.source !== "api_send" && (m.status === "sent" || m.status === "pending" || m.status === "failed"));
  }

  /** One credit for the first message to a contact, one more for a bot reply. */
  function price(contact: ContactRecord, spend: Spend): { first: boolean; cost: number } {
    const first = isFirst(contact);
    return { first, cost: (first ? 1 : 0) + (spend === "bot_reply" ? 1 : 0) };
  }

  function requestRecharge(account: AccountRecord, before: number) {
    const threshold = account.autoRechargeThreshold;
    const amount = account.autoRechargeAmount;
    if (account.kind !== "subaccount" || threshold === null || amount === null) return;
    if (!(before >= threshold && account.credits < threshold)) return;
    const agency = store.account(account.agencyId!);
    if (!agency) return;
    const key = store.ids.id("rch_");
    const payload = { idempotency_key: key, sub_account_id: account.id, email: account.email, amount, balance: account.credits, threshold };
    const copies = duplicateRechargeWebhooks ? 2 : 1;
    for (let copy = 1; copy <= copies; copy++) {
      // A duplicate is a separate delivery (its own webhook-id) carrying the same idempotency_key.
      deliveries.enqueue({ account: agency, kind: "auto_recharge", messageId: null, url: agency.autoRechargeUrl, webhookId: copy === 1 ? key : `${key}_dup${copy}`, payload });
    }
  }

  return {
    costOf: (contact: ContactRecord, spend: Spend): number => price(contact, spend).cost,

    /** Takes what the message costs; false (and nothing taken) when the balance is short. */
    charge(account: AccountRecord, contact: ContactRecord, spend: Spend): boolean {
      const { first, cost } = price(contact, spend);
      if (cost === 0) return true;
      if (account.credits < cost) return false;
      const before = account.credits;
      if (first) store.addCredits(account, -1, { description: `First message to ${who(contact)}`, source: "message" });
      if (spend === "bot_reply") store.addCredits(account, -1, { description: `Bot reply to ${who(contact)}`, source: "bot_reply" });
      requestRecharge(account, before);
      return true;
    },

    /** After any debit (an admin adjustment too): a crossing below the threshold asks the agency. */
    requestRecharge,
  };
}
