/**
 * Scheduled work survives eviction: the object's alarm wakes it for the next job due. The server's
 * scheduler keeps one clock timer, for its soonest job; this real clock keeps the alarm no later
 * than every timer set on it, so an object evicted while it waits is woken when the work falls due,
 * loads its state and runs it (the scheduler picks stored jobs up as after a restart). Jobs due now
 * (a webhook attempt, a bot reply) run at once; the alarm is also set a while ahead for them, so an
 * object that stops before they end is woken to finish them.
 */
import { realClock, type Clock } from "@intake/server";

/** How long after work that is due now the object is woken, in case it stopped before finishing it. */
export const RUNNING_GRACE_MS = 60_000;

export interface Alarm {
  /** The object is woken no later than `at` (epoch ms). */
  atLatest(at: number): void;
  /** The alarm is running: the platform counts it as spent, so it is set no longer. */
  fired(): void;
  /** After the alarm ran: the next wake is the soonest timer's, or none. */
  rearm(): void;
}

/** What the clock uses of the object's storage: its alarm. */
export interface AlarmStorage {
  setAlarm(at: number): Promise<void>;
  deleteAlarm(): Promise<void>;
}

/** A real clock whose timers set the object's alarm, and that alarm. */
export function alarmedClock(storage: AlarmStorage, initial: number | null): { clock: Clock; alarm: Alarm } {
  const real = realClock();
  const dues = new Map<number, number>();
  let set = initial;
  const setTo = (at: number | null) => {
    if (at === set) return;
    set = at;
    // Not awaited: the write is the object's like any other, held by its output gate.
    void (at === null ? storage.deleteAlarm() : storage.setAlarm(at));
  };
  const alarm: Alarm = {
    atLatest(at) {
      if (set === null || at < set) setTo(at);
    },
    fired() {
      set = null;
    },
    rearm() {
      setTo(dues.size ? Math.min(...dues.values()) : null);
    },
  };
  const clock: Clock = {
    mode: "real",
    now: () => real.now(),
    setTimer(callback, delayMs) {
      const due = real.now() + Math.max(0, delayMs);
      const handle = real.setTimer(() => {
        dues.delete(handle.id);
        return callback();
      }, delayMs);
      dues.set(handle.id, due);
      alarm.atLatest(due);
      return handle;
    },
    clearTimer(handle) {
      dues.delete(handle.id);
      real.clearTimer(handle);
    },
    pending: () => real.pending(),
  };
  return { clock, alarm };
}
