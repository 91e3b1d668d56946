/**
 * What operations report after they change state. The engine (bot, funnel, webhooks) listens;
 * operations never call it directly, so the request path stays the same whatever is listening.
 * The engine reports its own outcomes here too, for the live events.
 */
import type { ContactRecord, DeliveryAttemptRecord, DeliveryRecord, ListRecord, MessageRecord } from "../store/models.js";

export interface DomainEventMap {
  /** `batchSize`: how many joined in the same batch (an import), 1 for an API add. */
  contactAddedToList: { list: ListRecord; contact: ContactRecord; source: "api" | "manual" | "import"; batch: string; batchSize: number };
  messageReceived: { message: MessageRecord; contact: ContactRecord };
  messageSent: { message: MessageRecord; contact: ContactRecord };
  /** The bot's outcome was set on a received message (the engine's own; the live events listen). */
  botOutcome: { message: MessageRecord; outcome: string };
  /** A webhook attempt ended; `delivery` is as the attempt left it (its state after it). */
  deliveryAttempted: { delivery: DeliveryRecord; attempt: DeliveryAttemptRecord };
}

export type DomainEventName = keyof DomainEventMap;

export interface DomainEvents {
  emit<E extends DomainEventName>(event: E, payload: DomainEventMap[E]): void;
  on<E extends DomainEventName>(event: E, listener: (payload: DomainEventMap[E]) => void): () => void;
}

/** A listener that fails is reported and skipped: the change it reacts to has already happened. */
export function createEvents(onError: (error: unknown) => void): DomainEvents {
  const listeners = new Map<DomainEventName, Array<(payload: never) => void>>();
  return {
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) {
        try {
          listener(payload as never);
        } catch (error) {
          onError(error);
        }
      }
    },
    on(event, listener) {
      const list = listeners.get(event) ?? [];
      list.push(listener as (payload: never) => void);
      listeners.set(event, list);
      return () => listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener));
    },
  };
}
