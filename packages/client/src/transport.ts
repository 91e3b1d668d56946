/**
 * The fetch that openapi-fetch calls, below its middleware. Per attempt it places the key, applies
 * the timeout together with the caller's AbortSignal, buffers the response, logs, and decides on a
 * retry. The request body is read once, so every attempt re-sends exactly the same bytes.
 */
import { placeKey } from "./auth.js";
import { AbortError, ConnectionError, TimeoutError, retryAfterMs, type RequestSummary } from "./errors.js";
import type { LogEntry } from "./log.js";
import { nonNegativeInteger, positive, type ResolvedOptions } from "./options.js";
import { MAX_CAUSES, redactError, redactText, redactUrl } from "./redact.js";
import { backoffDelay, isSafeToRepeat, systemErrorCode, wasNotSent } from "./retry-policy.js";

export interface CallOverrides {
  timeoutMs?: number;
  maxRetries?: number;
}

export type Send = (request: Request, overrides?: CallOverrides) => Promise<Response>;

const summaries = new WeakMap<Response, () => RequestSummary>();

/** The method and redacted URL (key placed, then hidden) of the request that produced a response. */
export function requestSummaryOf(response: Response): RequestSummary | undefined {
  return summaries.get(response)?.();
}

const NULL_BODY_STATUS = new Set([204, 205, 304]);
const TLS_CODES = /^(CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL)/;

type Outcome = { response: Response } | { failure: Error; retryable: boolean };

export function createTransport(options: ResolvedOptions): Send {
  const basePath = new URL(options.baseUrl).pathname.replace(/\/$/, "");

  return async function send(request, overrides = {}) {
    const timeoutMs = positive("timeoutMs", overrides.timeoutMs, options.timeoutMs);
    const maxRetries = nonNegativeInteger("maxRetries", overrides.maxRetries, options.retry.maxRetries);
    const url = new URL(request.url);
    const headers = new Headers(options.headers);
    request.headers.forEach((value, name) => headers.set(name, value));
    placeKey(options.auth, options.apiKey, url, headers);
    // Built, redacted, when first needed (an error, a log line): most calls never need it.
    let summary: RequestSummary | undefined;
    const summaryOf = (): RequestSummary => (summary ??= { method: request.method, url: redactUrl(url) });
    const body = request.body ? await request.arrayBuffer() : undefined;
    const safe = isSafeToRepeat(request.method, url.pathname.slice(basePath.length), body);
    const callerSignal = request.signal;
    // Absent without a logger, so `log?.(…)` does not even build the entry.
    const logger = options.logger;
    const log =
      logger &&
      ((entry: Omit<LogEntry, "method" | "url">) => logger({ method: summaryOf().method, url: summaryOf().url, ...entry, message: redactText(entry.message, options.apiKey) }));

    for (let attempt = 0; ; attempt++) {
      if (callerSignal.aborted) throw new AbortError(summaryOf(), { cause: redactError(callerSignal.reason, options.apiKey) });
      const started = Date.now();
      log?.({ event: "request", attempt, message: `${summaryOf().method} ${summaryOf().url} (attempt ${attempt + 1})` });
      const outcome = await attemptOnce(
        // A redirect could carry a query-form key to another host; the service never redirects.
        { url, init: { method: request.method, headers, body, redirect: "error" } },
        callerSignal,
        timeoutMs,
        summaryOf,
        safe,
        options,
      );
      const durationMs = Date.now() - started;
      const canRetry = attempt < maxRetries;

      if ("failure" in outcome) {
        log?.({ event: "error", attempt, durationMs, reason: outcome.failure.name, message: outcome.failure.message });
        if (!(outcome.retryable && canRetry)) throw outcome.failure;
        await pause(backoffDelay(attempt, options.retry), outcome.failure.name, attempt);
        continue;
      }

      const { response } = outcome;
      log?.({ event: "response", attempt, status: response.status, durationMs, message: `${summaryOf().method} ${summaryOf().url} -> ${response.status} in ${durationMs} ms` });
      const delay = retryDelay(response, attempt, safe, options);
      if (delay === undefined || !canRetry) {
        summaries.set(response, summaryOf);
        return response;
      }
      await pause(delay, `status ${response.status}`, attempt);
    }

    async function pause(delayMs: number, reason: string, attempt: number) {
      log?.({ event: "retry", attempt, delayMs, reason, message: `retrying ${summaryOf().method} ${summaryOf().url} in ${delayMs} ms after ${reason}` });
      await sleep(delayMs, callerSignal).catch((cause: unknown) => {
        throw new AbortError(summaryOf(), { cause: redactError(cause, options.apiKey) });
      });
    }
  };
}

/** The wait before retrying this response, or undefined when it must not be retried. */
function retryDelay(response: Response, attempt: number, safe: boolean, options: ResolvedOptions): number | undefined {
  if (!(response.status === 429 || (response.status >= 500 && safe))) return undefined;
  const asked = retryAfterMs(response.headers);
  if (asked === undefined) return backoffDelay(attempt, options.retry);
  return asked <= options.retry.maxRetryAfterMs ? asked : undefined;
}

async function attemptOnce(
  request: { url: URL; init: RequestInit },
  callerSignal: AbortSignal,
  timeoutMs: number,
  summaryOf: () => RequestSummary,
  safe: boolean,
  options: ResolvedOptions,
): Promise<Outcome> {
  // One controller per attempt, aborted by the timer or by the caller's signal: AbortSignal.any
  // costs a call several times what this does on Node 20.
  const attempt = new AbortController();
  const signal = attempt.signal;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(new DOMException("The operation timed out.", "TimeoutError"));
  }, timeoutMs);
  const followCaller = () => attempt.abort(callerSignal.reason);
  if (callerSignal.aborted) followCaller();
  else callerSignal.addEventListener("abort", followCaller, { once: true });
  try {
    // Raced against the signal too, so a fetch (or a mocked body) that ignores signals still stops.
    const raw = await untilAborted(options.fetch(request.url, { ...request.init, signal }), signal);
    const buffered = await untilAborted(raw.arrayBuffer(), signal, () => raw.body?.cancel().catch(() => {}));
    const response = new Response(NULL_BODY_STATUS.has(raw.status) ? null : buffered, {
      status: raw.status,
      statusText: raw.statusText,
      headers: raw.headers,
    });
    return { response };
  } catch (error) {
    if (callerSignal.aborted) return { failure: new AbortError(summaryOf(), { cause: redactError(error, options.apiKey) }), retryable: false };
    if (timedOut) return { failure: new TimeoutError(summaryOf(), timeoutMs), retryable: safe };
    const code = systemErrorCode(error);
    return { failure: connectionError(summaryOf(), error, code, options.apiKey), retryable: safe || wasNotSent(code) };
  } finally {
    clearTimeout(timer);
    callerSignal.removeEventListener("abort", followCaller);
  }
}

function connectionError(summary: RequestSummary, error: unknown, code: string | undefined, apiKey: string): ConnectionError {
  const detail = redactText(describeCause(error), apiKey);
  const hint =
    code && TLS_CODES.test(code)
      ? " The server's TLS certificate is not trusted: for the reference server, trust the certificate file it printed (NODE_EXTRA_CA_CERTS=<file>) or pass a fetch that trusts it."
      : "";
  return new ConnectionError(`${summary.method} ${summary.url} failed: ${detail}.${hint}`, summary, code, { cause: redactError(error, apiKey) });
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

function untilAborted<T>(work: Promise<T>, signal: AbortSignal, onAbort?: () => void): Promise<T> {
  if (signal.aborted) {
    onAbort?.();
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
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
