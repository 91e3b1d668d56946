/**
 * The server's sense of time. Everything time-based (timestamps, rate-limit windows, idempotency
 * expiry, and later queues, retries and follow-ups) reads this clock, so a virtual clock that
 * tests advance makes all of it run in milliseconds and in a fixed order.
 */
export type TimerCallback = () => void | Promise<void>;

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  readonly mode: "real" | "virtual";
  now(): number;
  setTimer(callback: TimerCallback, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
  /** Timers not yet run. */
  pending(): number;
}

export interface VirtualClock extends Clock {
  readonly mode: "virtual";
  /** Moves time forward, running every timer due on the way in order; awaits each one. */
  advance(ms: number): Promise<void>;
  /** Sets the time without running timers (restoring a snapshot). */
  set(epochMs: number): void;
}

/** 2026-01-01T00:00:00.000Z: where a virtual clock starts unless told otherwise. */
export const VIRTUAL_EPOCH = Date.UTC(2026, 0, 1);

const MAX_TIMEOUT = 2 ** 31 - 1;

/** In Node, a pending timer must not keep a finished process alive (browsers have no unref). */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}

export function realClock(): Clock {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  return {
    mode: "real",
    now: () => Date.now(),
    setTimer(callback, delayMs) {
      const id = next++;
      // setTimeout fires at once past 2^31 - 1 ms (24.8 days): a later timer wakes at the cap and
      // waits again for the rest.
      const arm = (remaining: number) =>
        setTimeout(
          () => {
            if (remaining > MAX_TIMEOUT) return void timers.set(id, unref(arm(remaining - MAX_TIMEOUT)));
            timers.delete(id);
            void Promise.resolve().then(callback);
          },
          Math.min(Math.max(0, remaining), MAX_TIMEOUT),
        );
      const timer = arm(delayMs);
      timers.set(id, unref(timer));
      return { id };
    },
    clearTimer(handle) {
      clearTimeout(timers.get(handle.id));
      timers.delete(handle.id);
    },
    pending: () => timers.size,
  };
}

interface VirtualTimer {
  id: number;
  due: number;
  callback: TimerCallback;
}

export function virtualClock(start = VIRTUAL_EPOCH): VirtualClock {
  let now = start;
  let next = 1;
  // Kept sorted by due time, then by creation order, so equal due times run first-come first.
  let timers: VirtualTimer[] = [];
  let advancing: Promise<void> = Promise.resolve();

  async function runUntil(target: number) {
    for (;;) {
      const timer = timers[0];
      if (!timer || timer.due > target) break;
      timers.shift();
      now = Math.max(now, timer.due);
      await timer.callback();
    }
    now = Math.max(now, target);
  }

  return {
    mode: "virtual",
    now: () => now,
    setTimer(callback, delayMs) {
      const timer = { id: next++, due: now + Math.max(0, delayMs), callback };
      const at = timers.findIndex((t) => t.due > timer.due);
      if (at === -1) timers.push(timer);
      else timers.splice(at, 0, timer);
      return { id: timer.id };
    },
    clearTimer(handle) {
      timers = timers.filter((t) => t.id !== handle.id);
    },
    pending: () => timers.length,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance takes a number of milliseconds, 0 or more (got ${ms})`);
      // Calls queue behind each other, so two overlapping advances cannot interleave timers.
      const run = advancing.then(() => runUntil(now + ms));
      advancing = run.catch(() => undefined);
      return run;
    },
    set(epochMs) {
      now = epochMs;
    },
  };
}
