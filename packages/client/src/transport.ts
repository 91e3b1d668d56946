/**
 * The fetch openapi-fetch sends through: per attempt it places the key, applies the timeout
 * together with the caller's AbortSignal, reads the whole response body, logs, and decides on a
 * retry. The request body is read once, so every attempt re-sends exactly the same bytes.
 */
import { placeKey } from "./auth.js";
import { uncertainEffect } from "./effect-advice.js";
import {
  AbortError,
  ConnectionError,
  IntakeConfigError,
  IntakeError,
  TimeoutError,
  retryAfterMs,
  withUncertainEffect,
  type RequestSummary,
} from "./errors.js";
import type { LogEntry } from "./log.js";
import { nonNegativeInteger, positive, type ResolvedOptions } from "./options.js";
import { MAX_CAUSES, redactError, redactText, redactUrl } from "./redact.js";
import { failureCode, hiddenReasonHint, trustHint } from "./connection-failure.js";
import { backoffDelay, isSafeToRepeat, isUntrustedCertificate, mayRetryConnection, wasNotSent } from "./retry-policy.js";
import { userAgent } from "./user-agent.js";

export interface CallOverrides {
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
}

/** A fetch with retries; `call.signal`, when given, is the caller's signal in place of the Request's own. */
export type Transport = (request: Request, call?: CallOverrides & { signal?: AbortSignal | undefined }) => Promise<Response>;

/** Statuses whose responses have no body, whatever the server sent. */
const NULL_BODY_STATUS = new Set([204, 205, 304]);

/** `uncertain`: the request may have reached the service and taken effect (no answer says whether). */
type Outcome = { response: Response } | { failure: Error; retryable: boolean; uncertain: boolean };

const USER_AGENT = userAgent();

export function createTransport(options: ResolvedOptions): Transport {
  const basePath = new URL(options.baseUrl).pathname.replace(/\/$/, "");

  return async function send(request, call = {}) {
    const timeoutMs = positive("timeoutMs", call.timeoutMs, options.timeoutMs);
    const maxRetries = nonNegativeInteger("maxRetries", call.maxRetries, options.retry.maxRetries);
    const { method } = request;
    const signal = call.signal ?? request.signal;
    const target = withoutFragment(request.url);
    // The key goes to the base URL the client was made for and nowhere else: not to a per-call
    // baseUrl given to raw, nor to a host a middleware rewrote the request to.
    if (!isUnder(target, options.baseUrl)) {
      throw new IntakeConfigError(
        `Refusing to send the API key to ${redactText(redactUrl(target), options.apiKey)}: it is not under this client's baseUrl ${options.baseUrl}. Create a client for that address instead.`,
      );
    }
    const headers = new Headers(request.headers);
    // A User-Agent given in headers (the client's or a call's) is the caller's choice, and stays.
    if (USER_AGENT && !headers.has("user-agent")) headers.set("user-agent", USER_AGENT);
    const url = placeKey(options.auth, options.apiKey, target, headers);
    const body = request.body ? await request.arrayBuffer() : undefined;
    // Only an error, a log line or a retry needs these: a call that succeeds makes neither.
    let summary: RequestSummary | undefined;
    const summaryOf = () => (summary ??= summarize(request, options));
    let safe: boolean | undefined;
    const path = () => new URL(url).pathname.slice(basePath.length);
    const safeToRepeat = () => (safe ??= isSafeToRepeat(method, path(), body));
    // Absent without a logger, so `log?.(…)` does not even build its entry.
    const logger = options.logger;
    const log =
      logger &&
      ((entry: Omit<LogEntry, "method" | "url">) => {
        try {
          logger({ ...summaryOf(), ...entry, message: redactText(entry.message, options.apiKey) });
        } catch {
          // A logger that fails must not fail the call: the request may already have taken effect.
        }
      });

    const firstStarted = Date.now();
    for (let attempt = 0; ; attempt++) {
      if (signal.aborted) throw new AbortError(summaryOf(), { cause: redactError(signal.reason, options.apiKey) });
      const started = Date.now();
      log?.({ event: "request", attempt, message: `${summaryOf().method} ${summaryOf().url} (attempt ${attempt + 1})` });
      // A redirect could carry a query-form key to another host; the service never redirects. It
      // is refused after the fact ("manual"), as workerd implements no "error" mode.
      const outcome = await attemptOnce(
        url,
        { method, headers, body: body ?? null, redirect: "manual" },
        signal,
        timeoutMs,
        summaryOf,
        safeToRepeat,
        options,
      );
      const durationMs = Date.now() - started;
      const canRetry = attempt < maxRetries;

      if ("failure" in outcome) {
        log?.({ event: "error", attempt, durationMs, reason: outcome.failure.name, message: outcome.failure.message });
        if (!(outcome.retryable && canRetry)) {
          // The last of several attempts: the error says how many there were and how long they took.
          const failure =
            outcome.failure instanceof TimeoutError && attempt > 0
              ? new TimeoutError(summaryOf(), timeoutMs, { attempts: attempt + 1, elapsedMs: Date.now() - firstStarted })
              : outcome.failure;
          if (outcome.uncertain && !safeToRepeat() && failure instanceof IntakeError)
            throw withUncertainEffect(failure, uncertainEffect(path(), headers));
          throw failure;
        }
        await pause(backoffDelay(attempt, options.retry), outcome.failure.name, attempt);
        continue;
      }

      const { response } = outcome;
      log?.({
        event: "response",
        attempt,
        status: response.status,
        durationMs,
        message: `${summaryOf().method} ${summaryOf().url} -> ${response.status} in ${durationMs} ms`,
      });
      const delay = retryDelay(response, attempt, safeToRepeat, options);
      if (delay === undefined || !canRetry) return response;
      await pause(delay, `status ${response.status}`, attempt);
    }

    async function pause(delayMs: number, reason: string, attempt: number) {
      log?.({
        event: "retry",
        attempt,
        delayMs,
        reason,
        message: `retrying ${summaryOf().method} ${summaryOf().url} in ${delayMs} ms after ${reason}`,
      });
      await sleep(delayMs, signal).catch((cause: unknown) => {
        const aborted = new AbortError(summaryOf(), { cause: redactError(cause, options.apiKey) });
        log?.({ event: "error", attempt, reason: aborted.name, message: aborted.message });
        throw aborted;
      });
    }
  };
}

/**
 * A request as errors and logs name it: its method and its URL with the key placed, then
 * redacted (as text too, for the key anywhere else a custom URL could have put it).
 */
export function summarize(request: Request, options: ResolvedOptions): RequestSummary {
  const url = placeKey(options.auth, options.apiKey, withoutFragment(request.url), new Headers());
  return { method: request.method, url: redactText(redactUrl(url), options.apiKey) };
}

/** A fragment is never sent; dropped, so the key cannot end up after one (and unsent). */
function withoutFragment(url: string): string {
  const hash = url.indexOf("#");
  return hash === -1 ? url : url.slice(0, hash);
}

/** The wait before retrying this answer, or undefined when it must not be retried. */
function retryDelay(response: Response, attempt: number, safe: () => boolean, options: ResolvedOptions): number | undefined {
  if (!(response.status === 429 || (response.status >= 500 && safe()))) return undefined;
  const asked = retryAfterMs(response.headers);
  if (asked === undefined) return backoffDelay(attempt, options.retry);
  return asked <= options.retry.maxRetryAfterMs ? asked : undefined;
}

/** Whether a URL is the base URL or below it (a path or a query after it). */
function isUnder(url: string, base: string): boolean {
  if (!url.startsWith(base)) return false;
  const next = url.charAt(base.length);
  return next === "" || next === "/" || next === "?";
}

async function attemptOnce(
  url: string,
  init: RequestInit,
  callerSignal: AbortSignal,
  timeoutMs: number,
  summaryOf: () => RequestSummary,
  safe: () => boolean,
  options: ResolvedOptions,
): Promise<Outcome> {
  // One controller per attempt, aborted by the timer or by the caller's signal. The attempt's
  // promise rejects at the same moment, so a fetch (or a mocked body) that ignores its signal
  // still stops.
  const attempt = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let followCaller: (() => void) | undefined;
  try {
    const response = await new Promise<Response>((resolve, reject) => {
      const stop = (reason: unknown) => {
        attempt.abort(reason);
        reject(reason);
      };
      timer = setTimeout(() => {
        timedOut = true;
        stop(new DOMException("The operation timed out.", "TimeoutError"));
      }, timeoutMs);
      followCaller = () => stop(callerSignal.reason);
      if (callerSignal.aborted) return followCaller();
      callerSignal.addEventListener("abort", followCaller, { once: true });
      // Awaited rather than chained, so a fetch or a body double that returns a plain value works.
      (async () => {
        const answer = await options.fetch(url, { ...init, signal: attempt.signal });
        if (isRedirect(answer)) {
          await answer.body?.cancel();
          throw new RedirectRefused(answer);
        }
        const bytes = await answer.arrayBuffer();
        resolve(new Response(NULL_BODY_STATUS.has(answer.status) ? null : bytes, answer));
      })().catch(reject);
    });
    return { response };
  } catch (error) {
    if (callerSignal.aborted)
      return { failure: new AbortError(summaryOf(), { cause: redactError(error, options.apiKey) }), retryable: false, uncertain: true };
    if (timedOut) return { failure: new TimeoutError(summaryOf(), timeoutMs), retryable: safe(), uncertain: true };
    if (error instanceof RedirectRefused)
      return { failure: connectionError(summaryOf(), error, undefined, options.apiKey), retryable: false, uncertain: false };
    const code = failureCode(error);
    // A runtime that gives no code (workerd, browsers) cannot say the request was not sent.
    const uncertain = !wasNotSent(code) && !isUntrustedCertificate(code);
    return { failure: connectionError(summaryOf(), error, code, options.apiKey), retryable: mayRetryConnection(code, safe()), uncertain };
  } finally {
    clearTimeout(timer);
    if (followCaller) callerSignal.removeEventListener("abort", followCaller);
  }
}

/** A browser's "manual" redirect is an opaque answer of status 0; elsewhere it is the 3xx itself. */
function isRedirect(answer: Response): boolean {
  return answer.type === "opaqueredirect" || (answer.status >= 300 && answer.status < 400 && answer.status !== 304);
}

class RedirectRefused extends Error {
  constructor(answer: Response) {
    const to = answer.headers.get("location");
    super(
      `the server answered with a redirect (${answer.status || "opaque"}${to ? ` to ${to}` : ""}), which the client does not follow: ` +
        "the service never redirects, and following one could carry the key elsewhere. Check baseUrl",
    );
  }
}

function connectionError(summary: RequestSummary, error: unknown, code: string | undefined, apiKey: string): ConnectionError {
  const detail = redactText(describeCause(error), apiKey);
  const hint = isUntrustedCertificate(code)
    ? ` The server's TLS certificate is not trusted: for the reference server, ${trustHint()}, or pass a fetch that trusts it.`
    : hiddenReasonHint(error, code);
  // The code is whatever a custom fetch's error called its code: text like any other it made.
  const shownCode = code === undefined ? undefined : redactText(code, apiKey);
  return new ConnectionError(`${summary.method} ${summary.url} failed: ${detail}.${hint}`, summary, shownCode, {
    cause: redactError(error, apiKey),
  });
}

function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth <= MAX_CAUSES; depth++) {
    if (current instanceof Error && current.message) parts.push(current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(": ") || "network error";
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
