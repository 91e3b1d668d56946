/**
 * Durations in real milliseconds, whatever the server's clock: a virtual clock stands still while
 * a request is answered or a webhook sent, so durations read on it would all be 0. Kept to a
 * hundredth of a millisecond, so an answer given in process in a fraction of one is not shown as 0.
 */

/** A reading to measure from. */
export const startTimer = (): number => performance.now();

/** Real milliseconds since `start` (a `startTimer()` reading). */
export function elapsedMs(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}
