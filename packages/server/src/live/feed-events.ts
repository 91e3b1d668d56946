/**
 * The live events made from the domain events as they happen: what every page of the dashboard
 * follows (contacts, list members, messages and their status, deliveries, campaigns, lists,
 * accounts, credits, jobs, alerts, the inbox, the clock, a state replaced) and the requests
 * answered. What an event shows is read from its records when it is published (they change
 * later); its data is made only when somebody reads it.
 *
 * `detail` marks what a log shows only at debug: the many small steps (a request answered 2xx or
 * 3xx, a job queued, moved, run or called off, a delivery queued, a message's status following its
 * delivery, a contact's fields, a credit charge), each also told by an event a funnel builder
 * watches at info (a message sent, a webhook attempt).
 *
 * Every domain event type is decided here, shown or listed as not shown: one added to `DomainEvent`
 * and to neither is a compile error at the switch's end.
 */
import type { AdminEvent, AdminEventOf, AdminEventType } from "../shared/admin-event.js";
import type { DomainEvent, Envelope } from "../events/events.js";
import type { EventSource } from "../events/stream.js";
import { jobSubject } from "../records/subjects.js";
import type { JobRecord } from "../store/models.js";
import type { StoreReader } from "../store/store.js";
import type { EventFeed } from "./feed.js";
import type { Journal } from "./journal.js";

const iso = (ms: number) => new Date(ms).toISOString();

/** What an event of a type shows besides its type, time and account. */
type Fields<T extends AdminEventType> = Omit<AdminEventOf<T>, "type" | "at" | "accountId">;

/** An outgoing message's source: never `simulated`, which only messages from a contact have. */
type SentKind = Fields<"message.sent">["kind"];

/** Feeds the live events from the stream until the returned function is called. */
export function feedLiveEvents(events: EventSource, feed: EventFeed, store: StoreReader, journal: Journal): () => void {
  const publish = (event: DomainEvent, envelope: Envelope): void => {
    // The time is written out only when somebody reads the event.
    const when = envelope.at;
    const at = () => iso(when);
    const emit = <T extends AdminEventType>(type: T, accountId: string | null, make: () => Fields<T>, detail = false) =>
      feed.publish(type, accountId, () => ({ type, at: at(), accountId, ...make() }) as AdminEvent, detail);
    switch (event.type) {
      case "contact.created":
      case "contact.updated":
      case "contact.deleted": {
        const { id, accountId } = event.contact;
        return emit(event.type, accountId, () => ({ contactId: id }), event.type === "contact.updated");
      }
      case "list.joined": {
        const { list, contact, source } = event;
        return emit("list.joined", list.accountId, () => ({ listId: list.id, contactId: contact.id, source }));
      }
      case "message.received": {
        const { id, accountId, contactId } = event.message;
        return emit("message.received", accountId, () => ({ messageId: id, contactId }));
      }
      case "message.sent": {
        const { id, accountId, contactId, source, status } = event.message;
        return emit("message.sent", accountId, () => ({ messageId: id, contactId, kind: source as SentKind, status }));
      }
      case "message.updated": {
        const { id, accountId, contactId, status } = event.message;
        return emit("message.updated", accountId, () => ({ messageId: id, contactId, status }), true);
      }
      case "bot.outcome": {
        const { id, accountId, contactId } = event.message;
        const { outcome, error } = event;
        return emit("bot.outcome", accountId, () => ({ contactId, messageId: id, outcome, error }));
      }
      case "delivery.queued":
      case "delivery.updated": {
        const { accountId, id, messageId, state } = event.delivery;
        // One that ended without an attempt (nowhere to send it) is news; a queued one is not yet.
        return emit(event.type, accountId, () => ({ deliveryId: id, messageId, state }), state !== "failed");
      }
      case "delivery.attempted": {
        const { accountId, id, messageId, state } = event.delivery;
        const { number, status, error } = event.attempt;
        return emit("delivery.attempted", accountId, () => ({ deliveryId: id, messageId, attempt: number, status, error, state }));
      }
      case "campaign.created":
      case "campaign.updated":
      case "campaign.deleted": {
        const { id, accountId } = event.campaign;
        return emit(event.type, accountId, () => ({ campaignId: id }));
      }
      case "list.created":
      case "list.updated":
      case "list.deleted": {
        const { id, accountId } = event.list;
        return emit(event.type, accountId, () => ({ listId: id }));
      }
      case "account.created":
      case "account.updated":
        return emit(event.type, event.account.id, () => ({}));
      case "credits.changed": {
        const { amount, balanceAfter } = event.transaction;
        return emit("credits.changed", event.account.id, () => ({ amount, balance: balanceAfter }), true);
      }
      case "alert.raised": {
        const { id, accountId, contactId } = event.alert;
        return emit("alert.raised", accountId, () => ({ alertId: id, contactId }));
      }
      case "job.queued":
      case "job.rescheduled":
      case "job.ran":
      case "job.cancelled":
        return feedJob(event.type, event.job, when);
      case "state.replaced": {
        const { cause } = event;
        return emit("state.replaced", null, () => ({ cause }));
      }
      case "inbox.received": {
        const { accountId, requestId, webhookId, verified, status } = event;
        return emit("inbox.received", accountId, () => ({ requestId, webhookId, verified, status }));
      }
      case "clock.advanced":
        return emit("clock.advanced", null, () => ({ now: at() }));
      case "request.answered": {
        // Only what the event shows is kept for it, for as long as the feed holds it: not the
        // request's record, which carries its bodies.
        const { durationMs, accountId, method, path, key, status, id, errorCode } = event.request;
        const made = () => ({ ...journal.requestLine({ method, path, key }), status, requestId: id, durationMs, code: errorCode });
        return emit("request.answered", accountId, made, status >= 200 && status < 400);
      }
      case "idempotency.saved":
      case "idempotency.expired":
        // Not shown: the keys a grant is remembered by are the API's bookkeeping, which no page
        // shows. What a keyed grant did is told already (its request answered, the credits it
        // moved; a repeat, a request answered that moved none), and a key's expiry changes
        // nothing anyone watches.
        return;
      default:
        return unshown(event);
    }
  };

  /** A job queued or moved (with when it runs and whom it is for), run or called off. */
  const feedJob = (type: "job.queued" | "job.rescheduled" | "job.ran" | "job.cancelled", job: JobRecord, when: number) => {
    const { accountId, contactId } = jobSubject(store, job);
    const { id: jobId, kind } = job;
    if (type === "job.ran" || type === "job.cancelled") {
      return feed.publish(type, accountId, () => ({ type, at: iso(when), accountId, jobId, kind }), true);
    }
    const runAt = job.runAt ?? when;
    return feed.publish(type, accountId, () => ({ type, at: iso(when), accountId, jobId, kind, runAt: iso(runAt), contactId }), true);
  };

  return events.subscribe(publish);
}

/** The end of the switch: reached by no type, so a type with no decision above fails to compile here. */
const unshown = (_event: never): void => {};
