/**
 * The one stream of events. Every subscriber gets every event in the order events were published,
 * whoever subscribed first: an event published while another is being handed out (the engine
 * answering "message received" by queueing a job) waits until every subscriber has had the one
 * before it. A subscriber that throws is reported and skipped: what it reacts to has happened.
 */
import type { Change } from "../store/store.js";
import type { DomainEvent, EventType, Published, PublishedOf } from "./events.js";

export type Listener = (event: Published) => void;

/** The stream as a subscriber sees it. */
export interface EventSource {
  /** Every event from now on, until the returned function is called. */
  subscribe(listener: Listener): () => void;
  /** Only events of these types. */
  on<T extends EventType>(types: readonly T[], listener: (event: PublishedOf<T>) => void): () => void;
}

export interface EventStream extends EventSource {
  /** Publishes an event with the changes behind it; it reaches every subscriber before this returns. */
  publish(event: DomainEvent, changes?: readonly Change[]): void;
}

const NONE: readonly Change[] = [];

export function createEventStream(now: () => number, onError: (error: unknown) => void): EventStream {
  let listeners: Listener[] = [];
  let seq = 0;
  const queue: Published[] = [];
  let delivering = false;

  const deliver = () => {
    delivering = true;
    try {
      for (let event = queue.shift(); event; event = queue.shift()) {
        for (const listener of listeners) {
          try {
            listener(event);
          } catch (error) {
            onError(error);
          }
        }
      }
    } finally {
      delivering = false;
    }
  };

  const subscribe = (listener: Listener) => {
    listeners = [...listeners, listener];
    return () => {
      listeners = listeners.filter((other) => other !== listener);
    };
  };

  return {
    publish(event, changes = NONE) {
      queue.push({ ...event, seq: ++seq, at: now(), changes });
      if (!delivering) deliver();
    },
    subscribe,
    on(types, listener) {
      const wanted = new Set<EventType>(types);
      return subscribe((event) => {
        if (wanted.has(event.type)) listener(event as PublishedOf<(typeof types)[number]>);
      });
    },
  };
}
