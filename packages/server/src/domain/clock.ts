/**
 * The virtual clock's rules: it moves only forward, by `ms` or `to` a time, and no further than a
 * snapshot can hold. Moving it and running what falls due is the engine's (engine/index.ts).
 */
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
  if (ms < 0) throw conflict(`The clock is at ${isoTime(clock.now())}; it does not go back.`);
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
