/**
 * The one stream of events. Every subscriber gets every event in the order events were published,
 * whoever subscribed first: an event published while another is being handed out (the engine
 * answering "message received" by queueing a job) waits until every subscriber has had the one
 * before it. A subscriber that throws is reported and skipped: what it reacts to has happened.
 */
import type { Change } from "../store/store.js";
import type { DomainEvent, Envelope, EventOf, EventType } from "./events.js";

export type Listener = (event: DomainEvent, envelope: Envelope) => void;

/** The stream as a subscriber sees it. */
export interface EventSource {
  /** Every event from now on, until the returned function is called. */
  subscribe(listener: Listener): () => void;
  /** Only events of these types. */
  on<T extends EventType>(types: readonly T[], listener: (event: EventOf<T>, envelope: Envelope) => void): () => void;
}

export interface EventStream extends EventSource {
  /**
   * Publishes an event with the changes behind it. Published from outside a subscriber, it has
   * reached every subscriber when this returns. Published by a subscriber, it is queued and
   * handed out once the event being handled has reached every subscriber.
   */
  publish(event: DomainEvent, changes?: readonly Change[]): void;
}

const NONE: readonly Change[] = [];

export function createEventStream(now: () => number, onError: (error: unknown) => void): EventStream {
  // Listeners of every event, and of each type: an event is handed only to those that asked for it.
  let everything: Listener[] = [];
  const byType = new Map<EventType, Listener[]>();
  let seq = 0;
  const queue: Array<[DomainEvent, Envelope]> = [];
  let delivering = false;

  const hand = (listeners: readonly Listener[], event: DomainEvent, envelope: Envelope) => {
    for (const listener of listeners) {
      try {
        listener(event, envelope);
      } catch (error) {
        onError(error);
      }
    }
  };

  const deliver = () => {
    delivering = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [event, envelope] = next;
        hand(everything, event, envelope);
        const typed = byType.get(event.type);
        if (typed) hand(typed, event, envelope);
      }
    } finally {
      delivering = false;
    }
  };

  return {
    publish(event, changes = NONE) {
      queue.push([event, { seq: ++seq, at: now(), changes }]);
      if (!delivering) deliver();
    },
    subscribe(listener) {
      everything = [...everything, listener];
      return () => {
        everything = everything.filter((other) => other !== listener);
      };
    },
    on(types, listener) {
      const own = listener as Listener;
      for (const type of types) byType.set(type, [...(byType.get(type) ?? []), own]);
      return () => {
        for (const type of types)
          byType.set(
            type,
            (byType.get(type) ?? []).filter((other) => other !== own),
          );
      };
    },
  };
}
