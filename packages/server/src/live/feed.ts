/**
 * The live feed: what a funnel builder watches (a contact, message, job or alert created; the
 * bot's outcome; a webhook attempt; the virtual clock advanced; a request answered), made from the
 * domain events as they happen, numbered, kept in a bounded ring for replay, and handed to whoever
 * subscribed (the SSE streams of GET /__admin/events, the CLI's log). An event's data is made only
 * when somebody needs it: with no one listening, a request costs a closure, not a redaction and a
 * JSON text.
 */
import type { DomainEvent, Envelope } from "../events/events.js";
import type { EventSource } from "../events/stream.js";
import type { components } from "../generated/admin.js";
import type { JobRecord, MessageRecord } from "../store/models.js";
import type { StoreReader } from "../store/store.js";
import type { Journal } from "./journal.js";

export type LiveEvent = components["schemas"]["AdminEvent"];
export type LiveEventType = LiveEvent["type"];

export interface FeedEntry {
  /** Increasing for the server's life, from 1. */
  readonly id: number;
  readonly type: LiveEventType;
  readonly accountId: string | null;
  /**
   * A detail (a request answered 2xx or 3xx, a job queued or run): what a log shows only at debug.
   * Known without making the event's data, so a log that skips it costs nothing.
   */
  readonly detail: boolean;
  /** The event's data (made once, on first use). */
  event(): LiveEvent;
}

export interface Subscriber {
  /** Only this account's events. */
  accountId?: string;
  deliver(entry: FeedEntry): void;
  /** The feed closed (the server stops). */
  end(): void;
}

export interface FeedOptions {
  /** How many of the latest events a reconnecting subscriber can replay. Default 1000. */
  replay?: number;
}

export const FEED_DEFAULTS = { replay: 1000 };

export class EventFeed {
  private readonly ring: FeedEntry[] = [];
  private oldest = 0;
  private lastId = 0;
  private subscribers = new Set<Subscriber>();
  private closed = false;
  private readonly capacity: number;

  constructor(
    options: FeedOptions = {},
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.capacity = options.replay ?? FEED_DEFAULTS.replay;
    if (!Number.isInteger(this.capacity) || this.capacity < 0) throw new RangeError(`liveEvents.replay must be a whole number, 0 or more (got ${this.capacity}).`);
  }

  /** Records what happened; `make` gives its data when somebody first needs it. */
  publish(type: LiveEventType, accountId: string | null, make: () => LiveEvent, detail = false): void {
    let made: LiveEvent | undefined;
    const entry: FeedEntry = { id: ++this.lastId, type, accountId, detail, event: () => (made ??= make()) };
    if (this.capacity > 0) {
      if (this.ring.length < this.capacity) this.ring.push(entry);
      else {
        this.ring[this.oldest] = entry;
        this.oldest = (this.oldest + 1) % this.capacity;
      }
    }
    for (const subscriber of this.subscribers) {
      if (subscriber.accountId !== undefined && subscriber.accountId !== accountId) continue;
      // One subscriber's failure (a log line that could not be written) is not the others'.
      try {
        subscriber.deliver(entry);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** The events still held after `afterId`, oldest first, of one account if given. */
  since(afterId: number, accountId?: string): FeedEntry[] {
    const held = [...this.ring.slice(this.oldest), ...this.ring.slice(0, this.oldest)];
    return held.filter((entry) => entry.id > afterId && (accountId === undefined || entry.accountId === accountId));
  }

  /** Delivers every event from now on (after any replay the caller did from `since`), until the returned function is called. */
  subscribe(subscriber: Subscriber): () => void {
    if (this.closed) {
      subscriber.end();
      return () => {};
    }
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Ends every subscription (the server stops); later ones end at once. */
  close(): void {
    this.closed = true;
    const ending = [...this.subscribers];
    this.subscribers.clear();
    for (const subscriber of ending) {
      try {
        subscriber.end();
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Feeds the live events from the stream until the returned function is called. */
export function feedLiveEvents(events: EventSource, feed: EventFeed, store: StoreReader, journal: Journal): () => void {
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

  const publish = (event: DomainEvent, envelope: Envelope): void => {
    // The time is written out only when somebody reads the event.
    const when = envelope.at;
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
        // Only what the event shows is kept for it, for as long as the feed holds it: not the
        // request's record, which carries its bodies.
        const { at, durationMs, accountId, method, path, key, status, id, errorCode } = event.request;
        const made = () => ({
          type: "request.answered" as const,
          at: iso(at + durationMs),
          accountId,
          ...journal.requestLine({ method, path, key }),
          status,
          requestId: id,
          durationMs,
          code: errorCode,
        });
        return feed.publish("request.answered", accountId, made, status >= 200 && status < 400);
      }
    }
  };
  return events.subscribe(publish);
}
