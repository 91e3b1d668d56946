/**
 * Keys: who a request acts for, and how often it may. On /v1 the API key may come in three places;
 * an operation accepts only some of them (the contract's security list), and a key in a place it
 * does not accept is refused with a message naming the place it does. Each key has so many requests
 * a minute. /__admin takes its own token.
 */
import type { AuthForm } from "@intake/spec";
import type { StoreReader } from "../store/store.js";
import { HttpError } from "../shared/errors.js";
import type { Step } from "./compose.js";
import { add, type ApiKey, type Authenticated, type Context, type Route, type Routed } from "./context.js";
import type { ApiRequest } from "../contract/exchange.js";

const accountOf = (store: StoreReader, key: string) => (key ? store.account.find("apiKey", "", key) : undefined);

/** The request's account, from its API key in a form the route accepts. */
export function authenticate(store: StoreReader): Step<Routed, Authenticated> {
  return function authenticate(context, next) {
    const auth = presentedKey(context.request, context.url, context.route);
    const account = accountOf(store, auth.key) ?? invalidKey();
    return next(add(add(context, "auth", auth), "account", account));
  };
}

/**
 * The request's account in the state as it is now. A request that waited for its body may have
 * outlived its key (replaced) or the state it was checked against (a reset, a snapshot restored):
 * it is applied whole to the state it finds, or refused as a request sent with that key now is
 * (no account, no rate-limit headers).
 */
export function confirmAccount(store: StoreReader): Step<Authenticated> {
  return function confirmAccount(context, next) {
    if (context.bodyText === undefined) return next(context);
    const account = accountOf(store, context.auth.key);
    if (!account) {
      for (const name of Object.keys(context.headers)) if (name.startsWith("ratelimit-")) delete context.headers[name];
      // Journaled as a request with that key now is: with no account.
      const journaled: Context = context;
      delete journaled.account;
      invalidKey();
    }
    return next(add(context, "account", account));
  };
}

/** /__admin: the admin token, as a Bearer header. */
export function requireAdminToken(token: string): Step {
  return function requireAdminToken(context, next) {
    const given = /^Bearer\s+(.+)$/i.exec(context.request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    if (!equal(given, token)) {
      throw new HttpError(401, "UNAUTHORIZED", "Send the admin token as Authorization: Bearer <token>; the server printed it at start (or set it with --admin-token).");
    }
    return next(context);
  };
}

/** Compares in time independent of where the strings differ. */
function equal(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

const DESCRIBE: Record<AuthForm, string> = {
  query: "the query parameter ?apiKey=<API_KEY>",
  header: "the header x-api-key: <API_KEY>",
  bearer: "the header Authorization: Bearer <API_KEY>",
};

/** Every place the request carries a key in. */
function presentedKeys(request: ApiRequest, url: URL): Array<{ form: AuthForm; key: string }> {
  const found: Array<{ form: AuthForm; key: string }> = [];
  const query = url.searchParams.getAll("apiKey");
  if (query.length > 1) throw new HttpError(401, "INVALID_API_KEY", "apiKey is given more than once in the query; send it once.");
  for (const key of query) found.push({ form: "query", key: key.trim() });
  const header = request.headers.get("x-api-key");
  if (header !== null) found.push({ form: "header", key: header.trim() });
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const bearer = /^Bearer\s+(.*)$/i.exec(authorization.trim());
    if (!bearer) {
      throw new HttpError(401, "INVALID_API_KEY", "The Authorization header must be 'Bearer <API_KEY>'.");
    }
    found.push({ form: "bearer", key: (bearer[1] ?? "").trim() });
  }
  return found;
}

/** The one key the request carries, in a form its route accepts. */
function presentedKey(request: ApiRequest, url: URL, route: Route): ApiKey {
  const presented = presentedKeys(request, url);
  // Only an error names them; a request that authenticates pays for none of this text.
  const where = () => `${route.method} ${route.template}`;
  const accepted = () => route.forms.map((form) => DESCRIBE[form]).join(" or ");
  if (presented.length === 0) {
    throw new HttpError(401, "MISSING_API_KEY", `Missing API key: ${where()} takes it as ${accepted()}.`);
  }
  const wrong = presented.find((p) => !route.forms.includes(p.form));
  if (wrong) {
    throw new HttpError(
      401,
      "WRONG_AUTH_FORM",
      `${where()} takes the API key as ${accepted()}, not as ${DESCRIBE[wrong.form]}.` +
        (wrong.form === "query" ? " Remove apiKey from the query." : ""),
    );
  }
  if (presented.length > 1) {
    throw new HttpError(401, "WRONG_AUTH_FORM", `Send the API key in one place only; this request has it as ${presented.map((p) => DESCRIBE[p.form]).join(" and ")}.`);
  }
  return presented[0] as ApiKey;
}

function invalidKey(): never {
  throw new HttpError(
    401,
    "INVALID_API_KEY",
    "Invalid API key. It may have been replaced by a newer one: generate a key in Settings > Account > API Key (on the reference server: POST /__admin/accounts/{id}/api-key, or /__dashboard/settings).",
  );
}

// The rate limit: requests per API key per minute, in fixed windows that start with a key's first
// request. Every authenticated answer carries the RateLimit-* headers; a request over the limit
// gets 429 with Retry-After. It guards the server's real capacity, so it counts real time whatever
// the server's clock: a client that waits the Retry-After it was told is served, even when nobody
// advances a virtual clock (and advancing one opens no new window).

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimiter {
  /** Counts a request; throws 429 over the limit. Returns the headers to send either way. */
  take(key: string): Record<string, string>;
  reset(): void;
}

/** `limit` requests per key in each window of `windowMs`, on real time (`now`, Date.now by default). */
export function createRateLimiter(limit: number, windowMs = RATE_LIMIT_WINDOW_MS, now: () => number = Date.now): RateLimiter {
  if (!Number.isInteger(windowMs) || windowMs < 1000) throw new RangeError(`rateLimitWindowMs must be a whole number of milliseconds, 1000 or more (got ${windowMs}).`);
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

function prune(windows: Map<string, { start: number }>, now: number, windowMs: number) {
  for (const [key, window] of windows) if (now - window.start >= windowMs) windows.delete(key);
}

/** Counts the request against its key's window; the RateLimit-* headers go on every answer after. */
export function limitRate(limiter: RateLimiter): Step<Authenticated> {
  return function limitRate(context, next) {
    Object.assign(context.headers, limiter.take(context.auth.key));
    return next(context);
  };
}
