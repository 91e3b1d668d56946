/**
 * How a domain operation writes: the store, writable, and `publish`, which sends an event with
 * the changes written since the last one. Imported by domain/ modules only (lint's
 * `domain-writes` rule): that is what makes domain/ the one writer.
 */
import type { DomainEvent } from "../events/events.js";
import type { Store } from "../store/store.js";
import type { Domain } from "./domain.js";

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
