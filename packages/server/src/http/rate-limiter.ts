/**
 * The rate limit: requests per API key per minute, in fixed windows that start with a key's first
 * request. Every authenticated answer carries the RateLimit-* headers; a request over the limit
 * gets 429 with Retry-After. It guards the server's real capacity, so it counts real time whatever
 * the server's clock: a client that waits the Retry-After it was told is served, even when nobody
 * advances a virtual clock (and advancing one opens no new window).
 */
import { HttpError } from "../shared/errors.js";

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimiter {
  /** Counts a request; throws 429 over the limit. Returns the headers to send either way. */
  take(key: string): Record<string, string>;
  reset(): void;
}

/** `limit` requests per key in each window of `windowMs`, on real time (`now`, Date.now by default). */
export function createRateLimiter(limit: number, windowMs = RATE_LIMIT_WINDOW_MS, now: () => number = Date.now): RateLimiter {
  if (!Number.isInteger(windowMs) || windowMs < 1000)
    throw new RangeError(`rateLimitWindowMs must be a whole number of milliseconds, 1000 or more (got ${windowMs}).`);
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      if (!Number.isFinite(limit) || limit <= 0) return {};
      const at = now();
      let window = windows.get(key);
      if (!window || at - window.start >= windowMs) {
        if (windows.size > 10_000) prune(windows, at, windowMs);
        window = { start: at, count: 0 };
        windows.set(key, window);
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - at) / 1000));
      if (window.count >= limit) {
        throw new HttpError(429, "RATE_LIMITED", `Rate limit of ${limit} requests per minute exceeded; retry in ${resetSeconds} seconds.`, {
          ...headers(limit, 0, resetSeconds),
          "retry-after": String(resetSeconds),
        });
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

function prune(windows: Map<string, { start: number }>, now: number, windowMs: number) {
  for (const [key, window] of windows) if (now - window.start >= windowMs) windows.delete(key);
}
