/**
 * The virtual clock's rules: it moves only forward, by `ms` or `to` a time, and no further than a
 * snapshot can hold; only a reset takes it back, to where it started. Moving it and running what
 * falls due is the engine's (engine/index.ts).
 */
import type { VirtualClock } from "../shared/clock.js";
import { isoTime, publish, type Domain } from "./domain.js";
import { conflict, invalid } from "./errors.js";

/** 9999-12-31T23:59:59.999Z: the last time with a four-digit year, as date-time needs. */
const LAST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** How many milliseconds an advance moves the clock, once checked. */
export function advanceBy(domain: Domain, by: { ms?: number; to?: string }): number {
  const { clock } = domain;
  if (clock.mode !== "virtual") throw conflict("The clock is real; start the server with --clock virtual to advance it.");
  const target = by.to === undefined ? undefined : Date.parse(by.to);
  if (by.ms !== undefined && target !== undefined) throw invalid("Give ms or to, not both.");
  const ms = target !== undefined ? target - clock.now() : by.ms;
  if (ms === undefined) throw invalid("Give ms (how far to move the clock) or to (the time to move it to).");
  if (ms < 0)
    throw conflict(`The clock is at ${isoTime(clock.now())}; it does not go back, except to its start with a reset (POST /__admin/reset).`);
  // Past year 9999 a time has no date-time a snapshot can hold (nor, past 275760, any Date):
  // the state would no longer save or restore. A `to` with a negative offset can get there too.
  if (clock.now() + ms > LAST_TIME) {
    throw invalid(`${by.ms === undefined ? "to" : "ms"} would move the clock past ${isoTime(LAST_TIME)}, the last time a snapshot holds.`);
  }
  return ms;
}

/** The time is part of the saved state. */
export function clockAdvanced(domain: Domain): void {
  publish(domain, { type: "clock.advanced" });
}

/**
 * Where a reset puts the clock: a virtual one back at `start` unless told to keep it (the time is
 * part of the state a test starts from); a real one nowhere, and asking to rewind it is refused.
 * Undefined: leave it as it is.
 */
export function clockAfterReset(domain: Domain, start: number, choice: "rewind" | "keep" | undefined): number | undefined {
  if (choice === "keep") return undefined;
  if (domain.clock.mode === "virtual") return start;
  if (choice === "rewind")
    throw conflict(
      'The clock is real; a reset cannot rewind it. Start the server with --clock virtual (clock: "virtual"), or reset without clock=rewind.',
    );
  return undefined;
}

/** Sets a virtual clock (a reset's rewind); the work scheduled on it is the engine's to pick up again. */
export function setClock(domain: Domain, epochMs: number): void {
  (domain.clock as VirtualClock).set(epochMs);
}
