/**
 * The domain: what every operation works with, and how it writes. The service's state changes only
 * through the functions of domain/, whoever asks (/v1, /__admin, the engine, the seed loader):
 * each takes a Domain, changes the store (`writable`) and publishes the event that says so, with
 * the records it wrote (`publish`). Everyone else holds the same Domain, but its store as a
 * `StoreReader`; lint keeps `writable` and `publish` to domain/.
 */
import type { DomainEvent } from "../events/events.js";
import { createEventStream, type EventStream } from "../events/stream.js";
import type { Clock } from "../shared/clock.js";
import type { IdSource } from "../shared/ids.js";
import { createStore, type Store, type StoreReader } from "../store/store.js";

export interface Limits {
  /** Largest file one received message may embed (its decoded data URL), in bytes. */
  maxMediaBytes: number;
  /** Most bytes of embedded files an account's stored messages may hold together. */
  maxAccountMediaBytes: number;
  /** How long an Idempotency-Key is remembered. */
  idempotencyTtlMs: number;
  /** Most contacts, and most messages, the state holds (a hosted sandbox's capacity); see domain/capacity.ts. */
  capacity: Capacity;
}

export interface Capacity {
  contacts: number;
  messages: number;
}

export interface Rules {
  /** Webhook URLs may be http:// to any host, not only to a loopback one. */
  allowHttpWebhooks: boolean;
  /** Each auto-recharge webhook is sent twice (same idempotency_key), to prove receivers de-duplicate. */
  duplicateRechargeWebhooks: boolean;
}

export interface Domain {
  readonly store: StoreReader;
  readonly events: EventStream;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly limits: Limits;
  readonly rules: Rules;
}

/** A new domain: an empty store and the event stream, on this clock and id source. */
export function createDomain(options: {
  clock: Clock;
  ids: IdSource;
  limits: Limits;
  rules: Rules;
  onError: (error: unknown) => void;
}): Domain {
  const { clock, ids, limits, rules } = options;
  return { store: createStore(), events: createEventStream(() => clock.now(), options.onError), clock, ids, limits, rules };
}

/** The record if it belongs to the account, else undefined: no account reaches another's records. */
export function ownedBy<R extends { accountId: string }>(accountId: string, record: R | undefined): R | undefined {
  return record?.accountId === accountId ? record : undefined;
}

/** The domain's store, as the writer it is. */
export function writable(domain: Domain): Store {
  return domain.store as Store;
}

/** Publishes what an operation did, with the records it wrote. */
export function publish(domain: Domain, event: DomainEvent): void {
  domain.events.publish(event, writable(domain).takeChanges());
}

/** Now on the server's clock, as ISO text. */
export function timestamp(domain: Domain): string {
  return isoTime(domain.clock.now());
}

/** A time as ISO text: formatted once per millisecond, however many records are stamped in it. */
export function isoTime(ms: number): string {
  if (ms !== last.at) last = { at: ms, text: new Date(ms).toISOString() };
  return last.text;
}

let last = { at: NaN, text: "" };
