/**
 * Requests per API key per minute, in fixed windows that start with a key's first request.
 * Every authenticated response carries the RateLimit-* headers; a request over the limit gets 429
 * with Retry-After.
 */
import type { Clock } from "../shared/clock.js";
import { HttpError } from "../shared/errors.js";
import type { Step } from "./compose.js";
import type { Authenticated } from "./context.js";

const WINDOW_MS = 60_000;

export interface RateLimiter {
  /** Counts a request; throws 429 over the limit. Returns the headers to send either way. */
  take(key: string): Record<string, string>;
  reset(): void;
}

export function createRateLimiter(limit: number, clock: Clock): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      if (!Number.isFinite(limit) || limit <= 0) return {};
      const now = clock.now();
      let window = windows.get(key);
      if (!window || now - window.start >= WINDOW_MS) {
        if (windows.size > 10_000) prune(windows, now);
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
      if (window.count >= limit) {
        throw new HttpError(
          429,
          "RATE_LIMITED",
          `Rate limit of ${limit} requests per minute exceeded; retry in ${resetSeconds} seconds.`,
          { ...headers(limit, 0, resetSeconds), "retry-after": String(resetSeconds) },
        );
      }
      window.count++;
      return headers(limit, limit - window.count, resetSeconds);
    },
    reset: () => windows.clear(),
  };
}

function headers(limit: number, remaining: number, reset: number): Record<string, string> {
  return { "ratelimit-limit": String(limit), "ratelimit-remaining": String(remaining), "ratelimit-reset": String(reset) };
}

function prune(windows: Map<string, { start: number }>, now: number) {
  for (const [key, window] of windows) if (now - window.start >= WINDOW_MS) windows.delete(key);
}

/** Counts the request against its key's window; the RateLimit-* headers go on every answer after. */
export function limitRate(limiter: RateLimiter): Step<Authenticated> {
  return function limitRate(context, next) {
    Object.assign(context.headers, limiter.take(context.auth.key));
    return next(context);
  };
}
