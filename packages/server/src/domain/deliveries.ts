/**
 * Outgoing webhooks (replies on a custom channel, auto-recharge requests) as records: queued, each
 * attempt recorded, finished Delivered or Failed with the error kept, the reply's message status
 * following. Sending them is the engine's (engine/delivery.ts), which reports each attempt here.
 */
import type { AccountRecord, DeliveryAttemptRecord, DeliveryRecord } from "../store/models.js";
import { isoTime, publish, writable, type Domain } from "./domain.js";
import { conflict } from "./errors.js";

export interface NewDelivery {
  account: AccountRecord;
  kind: "reply" | "auto_recharge";
  messageId: string | null;
  url: string | null;
  webhookId: string;
  payload: object;
}

/** Records a delivery whose first attempt is due now. */
export function queueDelivery(domain: Domain, entry: NewDelivery): DeliveryRecord {
  const now = isoTime(domain.clock.now());
  const delivery = writable(domain).delivery.insert({
    id: domain.ids.id("whd_"),
    accountId: entry.account.id,
    kind: entry.kind,
    messageId: entry.messageId,
    url: entry.url,
    webhookId: entry.webhookId,
    payload: JSON.stringify(entry.payload),
    state: "pending",
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
    createdAt: now,
    completedAt: null,
  });
  publish(domain, { type: "delivery.queued", delivery });
  return delivery;
}

/** Where the delivery goes now: the account's setting as it is, so a corrected URL takes effect. */
export function currentUrl(delivery: DeliveryRecord, account: AccountRecord): string | null {
  return delivery.kind === "reply" ? account.webhookUrl : account.autoRechargeUrl;
}

/** The delivery goes to another URL than its last attempt did (the setting was changed). */
export function retarget(domain: Domain, delivery: DeliveryRecord, url: string): void {
  writable(domain).delivery.update(delivery, { url });
  publish(domain, { type: "delivery.updated", delivery });
}

/** Ends a delivery without an attempt: there is nowhere to send it. */
export function giveUp(domain: Domain, delivery: DeliveryRecord, error: string): void {
  finish(domain, delivery, "failed", error);
  publish(domain, { type: "delivery.updated", delivery });
}

export type Attempt = Omit<DeliveryAttemptRecord, "id" | "deliveryId" | "number" | "nextAttemptAt">;

/**
 * Records an attempt: Delivered on a 2xx; otherwise pending until `nextAttemptAt` (epoch ms: the
 * engine chose it, and schedules that attempt), or Failed when there is none (that was the last).
 */
export function recordAttempt(
  domain: Domain,
  delivery: DeliveryRecord,
  attempt: Attempt,
  nextAttemptAt: number | null,
): DeliveryAttemptRecord {
  const store = writable(domain);
  const number = delivery.attempts + 1;
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  const nextAt = ok ? null : nextAttemptAt;
  store.delivery.update(delivery, { attempts: number });
  const record = store.deliveryAttempt.insert({
    id: domain.ids.id("wha_"),
    deliveryId: delivery.id,
    number,
    ...attempt,
    nextAttemptAt: nextAt === null ? null : isoTime(nextAt),
  });
  if (ok) finish(domain, delivery, "delivered", null);
  else if (nextAt === null) finish(domain, delivery, "failed", `Failed after ${number} attempts; the last: ${attempt.error}`);
  else store.delivery.update(delivery, { nextAttemptAt: isoTime(nextAt), lastError: attempt.error });
  publish(domain, { type: "delivery.attempted", delivery, attempt: record });
  return record;
}

/**
 * A finished delivery (delivered or failed) sent again: the same webhook-id and payload,
 * attempts numbered on from the last, retried while the attempt budget lasts. One still under way
 * is refused: it would go out twice at once.
 */
export function redeliver(domain: Domain, delivery: DeliveryRecord): void {
  if (delivery.state === "pending") {
    throw conflict(
      `Delivery ${delivery.id} is still under way (next attempt at ${delivery.nextAttemptAt ?? "once one is free"}): it is sent again only once it has been delivered or has failed.`,
    );
  }
  writable(domain).delivery.update(delivery, {
    state: "pending",
    completedAt: null,
    nextAttemptAt: isoTime(domain.clock.now()),
    lastError: null,
  });
  publish(domain, { type: "delivery.queued", delivery });
}

function finish(domain: Domain, delivery: DeliveryRecord, state: "delivered" | "failed", error: string | null): void {
  const store = writable(domain);
  store.delivery.update(delivery, { state, completedAt: isoTime(domain.clock.now()), nextAttemptAt: null, lastError: error });
  const message = delivery.messageId ? store.message.get(delivery.messageId) : undefined;
  if (!message) return;
  store.message.update(message, state === "delivered" ? { status: "sent", error: null } : { status: "failed", error });
  publish(domain, { type: "message.updated", message });
}

export interface DeliveryFilter {
  accountId?: string;
  messageId?: string;
  contactId?: string;
  kind?: string;
  state?: string;
}

/** The deliveries that match, oldest first: of a message, of a contact's conversation, or all. */
export function findDeliveries(domain: Domain, filter: DeliveryFilter): DeliveryRecord[] {
  const { store } = domain;
  const source = filter.messageId
    ? store.delivery.group("message", filter.messageId)
    : filter.contactId
      ? store.message
          .group("contact", filter.contactId)
          .flatMap((m) => (m.direction === "outbound" ? store.delivery.group("message", m.id) : []))
      : [...store.delivery.all()];
  return source.filter(
    (d) =>
      (!filter.accountId || d.accountId === filter.accountId) &&
      (!filter.kind || d.kind === filter.kind) &&
      (!filter.state || d.state === filter.state),
  );
}
