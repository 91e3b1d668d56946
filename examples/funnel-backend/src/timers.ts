/** When things run. Real timers in production; a clock the test moves in CI. */
export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => void setTimeout(run, ms),
};

/** A clock that only moves when told to, running what falls due in order. */
export class ManualTimers implements Timers {
  private due: Array<{ at: number; run: () => void }> = [];

  /** Starts at `start` (default: now), so the times it shows are plausible. */
  constructor(private time: number = Date.now()) {}

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): void {
    this.due.push({ at: this.time + ms, run });
    this.due.sort((a, b) => a.at - b.at);
  }

  advance(ms: number): void {
    const until = this.time + ms;
    while (this.due[0] && this.due[0].at <= until) {
      const next = this.due.shift()!;
      this.time = next.at;
      next.run();
    }
    this.time = until;
  }
}
