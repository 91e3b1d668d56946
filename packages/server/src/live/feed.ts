/**
 * The live feed: what a funnel builder watches (made from the domain events by feed-events.ts),
 * numbered, kept in a bounded ring for replay, and handed to whoever subscribed (the SSE streams
 * of GET /__admin/events, the CLI's log). An event's data is made only when somebody needs it:
 * with no one listening, a request costs a closure, not a redaction and a JSON text.
 */
import type { AdminEvent, AdminEventType } from "../shared/admin-event.js";

export interface FeedEntry {
  /** Increasing for the server's life, from 1. */
  readonly id: number;
  readonly type: AdminEventType;
  readonly accountId: string | null;
  /**
   * A detail (a request answered 2xx or 3xx, a job queued or run): what a log shows only at debug.
   * Known without making the event's data, so a log that skips it costs nothing.
   */
  readonly detail: boolean;
  /** The event's data (made once, on first use). */
  event(): AdminEvent;
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
    if (!Number.isInteger(this.capacity) || this.capacity < 0)
      throw new RangeError(`liveEvents.replay must be a whole number, 0 or more (got ${this.capacity}).`);
  }

  /** Records what happened; `make` gives its data when somebody first needs it. */
  publish(type: AdminEventType, accountId: string | null, make: () => AdminEvent, detail = false): void {
    let made: AdminEvent | undefined;
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
