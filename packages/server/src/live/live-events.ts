/**
 * The live feed's events (GET /__admin/events, the CLI's log), made from the domain events: what a
 * funnel builder watches (a contact, message, job or alert created; the bot's outcome; a webhook
 * attempt; the virtual clock advanced; a request answered). Each is published as it happens, so
 * it reaches a subscriber with its cause; its data is made only when somebody reads it.
 */
import type { Published } from "../events/events.js";
import type { EventStream } from "../events/stream.js";
import type { JobRecord, MessageRecord } from "../store/models.js";
import type { StoreReader } from "../store/store.js";
import type { EventFeed } from "./feed.js";
import type { Journal } from "./journal.js";

const iso = (ms: number) => new Date(ms).toISOString();

/** Feeds the live events from the stream until the returned function is called. */
export function feedLiveEvents(events: EventStream, feed: EventFeed, store: StoreReader, journal: Journal): () => void {
  /** The account and contact a job is for, from what its payload names. */
  const subjectOf = (job: JobRecord): { accountId: string | null; contactId: string | null } => {
    const payload = JSON.parse(job.payload) as Record<string, unknown>;
    if (typeof payload.contactId === "string") return { accountId: store.contact.get(payload.contactId)?.accountId ?? null, contactId: payload.contactId };
    let message: MessageRecord | undefined;
    if (typeof payload.messageId === "string") message = store.message.get(payload.messageId);
    if (typeof payload.deliveryId === "string") {
      const delivery = store.delivery.get(payload.deliveryId);
      if (!delivery) return { accountId: null, contactId: null };
      message = delivery.messageId ? store.message.get(delivery.messageId) : undefined;
      return { accountId: delivery.accountId, contactId: message?.contactId ?? null };
    }
    return { accountId: message?.accountId ?? null, contactId: message?.contactId ?? null };
  };

  const publish = (event: Published): void => {
    // The time is written out only when somebody reads the event.
    const when = event.at;
    switch (event.type) {
      case "contact.created": {
        const { id, accountId } = event.contact;
        return feed.publish("contact.created", accountId, () => ({ type: "contact.created", at: iso(when), accountId, contactId: id }));
      }
      case "message.received": {
        const { id, accountId, contactId } = event.message;
        return feed.publish("message.received", accountId, () => ({ type: "message.received", at: iso(when), accountId, messageId: id, contactId }));
      }
      case "message.sent": {
        const { id, accountId, contactId, source, status } = event.message;
        return feed.publish("message.sent", accountId, () => ({ type: "message.sent", at: iso(when), accountId, messageId: id, contactId, kind: source, status }));
      }
      case "bot.outcome": {
        const { id, accountId, contactId } = event.message;
        return feed.publish("bot.outcome", accountId, () => ({ type: "bot.outcome", at: iso(when), accountId, contactId, messageId: id, outcome: event.outcome }));
      }
      case "delivery.attempted": {
        const { accountId, id, messageId, state } = event.delivery;
        const { number, status, error } = event.attempt;
        return feed.publish("delivery.attempted", accountId, () => ({ type: "delivery.attempted", at: iso(when), accountId, deliveryId: id, messageId, attempt: number, status, error, state }));
      }
      case "alert.raised": {
        const { id, accountId, contactId } = event.alert;
        return feed.publish("alert.raised", accountId, () => ({ type: "alert.raised", at: iso(when), accountId, alertId: id, contactId }));
      }
      case "job.queued": {
        const { job } = event;
        const { accountId, contactId } = subjectOf(job);
        const runAt = job.runAt ?? when;
        return feed.publish("job.queued", accountId, () => ({ type: "job.queued", at: iso(when), accountId, jobId: job.id, kind: job.kind, runAt: iso(runAt), contactId }), true);
      }
      case "job.ran": {
        const { job } = event;
        const { accountId } = subjectOf(job);
        return feed.publish("job.ran", accountId, () => ({ type: "job.ran", at: iso(when), accountId, jobId: job.id, kind: job.kind }), true);
      }
      case "clock.advanced":
        return feed.publish("clock.advanced", null, () => ({ type: "clock.advanced", at: iso(when), accountId: null, now: iso(when) }));
      case "request.answered": {
        const { request } = event;
        const answered = request.at + request.durationMs;
        const { accountId } = request;
        const made = () => ({
          type: "request.answered" as const,
          at: iso(answered),
          accountId,
          ...journal.requestLine(request),
          status: request.status,
          requestId: request.id,
          durationMs: request.durationMs,
          code: request.errorCode,
        });
        return feed.publish("request.answered", accountId, made, request.status >= 200 && request.status < 400);
      }
    }
  };
  return events.subscribe(publish);
}
