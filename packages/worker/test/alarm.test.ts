// The clock a sandbox runs on (src/sandbox/alarm.ts): its timers keep the object's alarm no later
// than the soonest of them, and once the alarm has run it is set again for the next, or deleted.
import { describe, expect, it } from "vitest";
import { alarmedClock } from "../src/sandbox/alarm.js";

/** What the object's storage was told of its alarm, in order. */
function storage() {
  const told: Array<number | null> = [];
  return {
    told,
    setAlarm: async (at: number) => void told.push(at),
    deleteAlarm: async () => void told.push(null),
  };
}

describe("the alarm", () => {
  it("is set for a timer, moved earlier by an earlier one, not later by a later one", () => {
    const store = storage();
    const { clock } = alarmedClock(store, null);
    const now = clock.now();
    clock.setTimer(() => {}, 60_000);
    clock.setTimer(() => {}, 10_000);
    clock.setTimer(() => {}, 120_000);
    expect(store.told).toHaveLength(2);
    expect(store.told[0]).toBeGreaterThanOrEqual(now + 60_000);
    expect(store.told[1]).toBeLessThan(store.told[0]!);
    expect(store.told[1]).toBeGreaterThanOrEqual(now + 10_000);
  });

  it("once it has run, is set again for the soonest timer left, even the time it had; deleted when no timer is left", async () => {
    const store = storage();
    const { clock, alarm } = alarmedClock(store, null);
    const ran: string[] = [];
    const soon = clock.setTimer(() => void ran.push("soon"), 20);
    const later = clock.setTimer(() => void ran.push("later"), 60_000);
    const first = store.told.at(-1)!;
    // The alarm runs before the timer it was set for: set again for that very time.
    alarm.fired();
    alarm.rearm();
    expect(store.told.at(-1)).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ran).toEqual(["soon"]);
    alarm.fired();
    alarm.rearm();
    expect(store.told.at(-1)).toBeGreaterThan(first + 50_000);
    // A timer cleared is no reason to wake.
    clock.clearTimer(soon);
    clock.clearTimer(later);
    alarm.rearm();
    expect(store.told.at(-1)).toBeNull();
  });

  it("an alarm stored already is kept while no timer is sooner", () => {
    const store = storage();
    const later = Date.now() + 3_600_000;
    const { clock } = alarmedClock(store, Date.now() + 1_000);
    clock.setTimer(() => {}, later - Date.now());
    expect(store.told).toEqual([]);
  });
});
