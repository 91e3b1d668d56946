/**
 * One error class per kind of failure, so callers can `catch (e) { if (e instanceof RateLimitError) ... }`.
 * Both error shapes of the API are normalised here: `{ error: { code, message } }` (general) and
 * `{ error: "message" }` (the receive endpoint).
 */
import type { ErrorCode } from "@intake/spec";
import { redactText, redactValue } from "./redact.js";

/** A code from the contract, or a newer one this client does not know yet. */
export type IntakeErrorCode = ErrorCode | (string & {});

export interface RequestSummary {
  method: string;
  /** The request URL with the API key redacted. */
  url: string;
}

export class IntakeError extends Error {
  override name = "IntakeError";
  /**
   * The service's X-Request-Id for the answer this error is about: quote it when asking for help.
   * `undefined` when no answer came (a failed connection, a timeout, an abort, a configuration error).
   */
  readonly requestId: string | undefined = undefined;
  /**
   * True when the call failed without an answer to trust (a 5xx, a timeout, a connection lost or
   * aborted mid-request) and was not retried because repeating it could double its effect: it may
   * have taken effect. The message says how to find out or repeat it safely.
   */
  readonly mayHaveTakenEffect: boolean = false;

  /** What `JSON.stringify` keeps: the name, the message and the fields (not the headers, which a Headers object would lose). */
  toJSON(): Record<string, unknown> {
    const fields: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) {
      if (key !== "headers" && key !== "cause" && value !== undefined) fields[key] = value;
    }
    return fields;
  }
}

/** Marks an error as one whose call may have taken effect, with what to do in its message. */
export function withUncertainEffect<E extends IntakeError>(error: E, advice: string): E {
  error.message += advice;
  (error as { mayHaveTakenEffect: boolean }).mayHaveTakenEffect = true;
  return error;
}

/** The client was configured in a way that cannot work (bad base URL, missing key, ...). */
export class IntakeConfigError extends IntakeError {
  override name = "IntakeConfigError";
}

/** The service answered with an error status. */
export class IntakeApiError extends IntakeError {
  override name = "IntakeApiError";
  readonly status: number;
  /** The general shape's code; `undefined` for the receive endpoint's string shape. */
  readonly code: IntakeErrorCode | undefined;
  /** The response's headers, with the key redacted from every value (a `Location` can carry `?apiKey=`). */
  readonly headers: Headers;
  /** The parsed response body, as received. */
  readonly body: unknown;
  readonly request: RequestSummary;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.headers = init.headers;
    this.body = init.body;
    this.request = init.request;
    (this as { requestId: string | undefined }).requestId = init.headers.get(REQUEST_ID) ?? undefined;
  }
}

/** The header the service names every answer with (openapi.yaml, components.headers). */
export const REQUEST_ID = "x-request-id";

export type ApiErrorInit = Pick<IntakeApiError, "status" | "code" | "headers" | "body" | "request" | "message">;

/** 400: a parameter is wrong; `code` says which rule (for example `INVALID_PHONE`). */
export class BadRequestError extends IntakeApiError {
  override name = "BadRequestError";
}
/** 401: the API key is missing, invalid, rotated, or sent in a form this operation does not accept. */
export class AuthenticationError extends IntakeApiError {
  override name = "AuthenticationError";
}
/** 403: the key is valid but may not do this (for example a non-agency granting credits). */
export class PermissionDeniedError extends IntakeApiError {
  override name = "PermissionDeniedError";
}
/** 404: the contact, list, campaign or sub-account does not exist in this account. */
export class NotFoundError extends IntakeApiError {
  override name = "NotFoundError";
}
/** 405: the path does not support this method. */
export class MethodNotAllowedError extends IntakeApiError {
  override name = "MethodNotAllowedError";
}
/** 429: too many requests for this key; wait `retryAfterMs` before the next. */
export class RateLimitError extends IntakeApiError {
  override name = "RateLimitError";
  /** From `Retry-After` (or `RateLimit-Reset`), in milliseconds; `undefined` when the service sent neither. */
  readonly retryAfterMs: number | undefined;
  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfterMs = retryAfterMs(init.headers);
  }
}
/** 5xx: the service failed. */
export class ServerError extends IntakeApiError {
  override name = "ServerError";
}

/** No response: the connection failed (refused, reset, DNS, TLS). */
export class ConnectionError extends IntakeError {
  override name = "ConnectionError";
  readonly request: RequestSummary;
  /** The system error code when there is one (`ECONNREFUSED`, `CERT_HAS_EXPIRED`, ...), the key redacted from it. */
  readonly code: string | undefined;
  constructor(message: string, request: RequestSummary, code: string | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.request = request;
    this.code = code;
  }
}

/** No response within the timeout. */
export class TimeoutError extends IntakeError {
  override name = "TimeoutError";
  readonly request: RequestSummary;
  readonly timeoutMs: number;
  /** Attempts made, this one included (1 when none was retried). */
  readonly attempts: number;
  /** From the first attempt's start to this one's end, retries' waits included. */
  readonly elapsedMs: number;
  constructor(
    request: RequestSummary,
    timeoutMs: number,
    tried: { attempts: number; elapsedMs: number } = { attempts: 1, elapsedMs: timeoutMs },
  ) {
    super(
      `${request.method} ${request.url} got no response within ${timeoutMs} ms` +
        (tried.attempts > 1 ? ` on its last attempt, after ${tried.attempts} attempts in ${seconds(tried.elapsedMs)} s in all.` : "."),
    );
    this.request = request;
    this.timeoutMs = timeoutMs;
    this.attempts = tried.attempts;
    this.elapsedMs = tried.elapsedMs;
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The caller's AbortSignal fired. */
export class AbortError extends IntakeError {
  override name = "AbortError";
  readonly request: RequestSummary;
  constructor(request: RequestSummary, options?: { cause?: unknown }) {
    super(`${request.method} ${request.url} was aborted by the caller.`, options);
    this.request = request;
  }
}

const classByStatus: Record<number, typeof IntakeApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  429: RateLimitError,
};

/**
 * The error for a non-2xx response whose body has been parsed (JSON when it was JSON). A body
 * or a header that echoes the key (a proxy's error page, a redirect's Location) is redacted
 * before it is kept.
 */
export function errorFromResponse(response: Response, parsed: unknown, request: RequestSummary, apiKey: string): IntakeApiError {
  const body = redactValue(parsed, apiKey);
  const { code, message } = describe(body, response);
  const Kind = classByStatus[response.status] ?? (response.status >= 500 ? ServerError : IntakeApiError);
  return new Kind({ status: response.status, code, message, headers: redactedHeaders(response.headers, apiKey), body, request });
}

/**
 * A copy with the key out of every value. A header whose name holds the key is left out: a name
 * cannot hold the brackets of [REDACTED].
 */
function redactedHeaders(headers: Headers, apiKey: string): Headers {
  const out = new Headers();
  // getSetCookie keeps several Set-Cookie apart, which forEach would join into one value.
  headers.forEach((value, name) => {
    if (name !== "set-cookie" && redactText(name, apiKey) === name) out.append(name, redactText(value, apiKey));
  });
  for (const cookie of headers.getSetCookie?.() ?? []) out.append("set-cookie", redactText(cookie, apiKey));
  return out;
}

function describe(body: unknown, response: Response): { code: IntakeErrorCode | undefined; message: string } {
  const error = isObject(body) ? body.error : undefined;
  if (isObject(error) && (typeof error.message === "string" || typeof error.code === "string")) {
    const code = typeof error.code === "string" ? error.code : undefined;
    if (typeof error.message === "string" && error.message) return { code, message: error.message };
    if (code) return { code, message: `HTTP ${response.status} ${code}` };
  }
  if (typeof error === "string" && error) return { code: undefined, message: error };
  if (typeof body === "string" && body.trim()) return { code: undefined, message: truncate(body.trim()) };
  return { code: undefined, message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function truncate(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * How long the service asked us to wait, in ms: `Retry-After` as seconds or an HTTP date,
 * else `RateLimit-Reset` seconds.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = headers.get("ratelimit-reset")?.trim();
  if (reset && /^\d+$/.test(reset)) return Number(reset) * 1000;
  return undefined;
}
