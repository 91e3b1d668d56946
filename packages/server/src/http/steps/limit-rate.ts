import type { Step } from "../compose.js";
import type { Authenticated } from "../context.js";
import type { RateLimiter } from "../rate-limiter.js";

/** Counts the request against its key's window; the RateLimit-* headers go on every answer after. */
export function limitRate(limiter: RateLimiter): Step<Authenticated> {
  return function limitRate(context, next) {
    Object.assign(context.headers, limiter.take(context.auth.key));
    return next(context);
  };
}
