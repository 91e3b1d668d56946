/**
 * The domain: what every operation works with. The service's state changes only through the
 * functions of domain/, whoever asks (/v1, /__admin, the engine, the seed loader): each takes a
 * Domain, changes the store and publishes the event that says so. Everyone else holds the same
 * Domain, but its store as a `StoreReader`; `writable` (write.ts, imported by domain/ alone, which
 * lint checks) is the way in.
 */
import type { EventStream } from "../events/stream.js";
import type { Clock } from "../shared/clock.js";
import type { IdSource } from "../shared/ids.js";
import type { StoreReader } from "../store/store.js";

export interface Limits {
  /** Largest file one received message may embed (its decoded data URL), in bytes. */
  maxMediaBytes: number;
  /** Most bytes of embedded files an account's stored messages may hold together. */
  maxAccountMediaBytes: number;
  /** How long an Idempotency-Key is remembered. */
  idempotencyTtlMs: number;
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

/** The record if it belongs to the account, else undefined: no account reaches another's records. */
export function ownedBy<R extends { accountId: string }>(accountId: string, record: R | undefined): R | undefined {
  return record?.accountId === accountId ? record : undefined;
}
