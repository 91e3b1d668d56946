/**
 * Sends one call: per attempt it places the key, applies the timeout together with the caller's
 * AbortSignal, reads the whole response body, logs, and decides on a retry. The request body is
 * read once, so every attempt re-sends exactly the same bytes.
 *
 * It takes and returns plain shapes rather than Request and Response: on Node 20 each of those
 * costs the caller tens of microseconds, as much as the rest of a call. Resource methods send
 * straight through; openapi-fetch (`raw`, and resource calls while middleware is registered)
 * goes through `fetchFor`, which converts at the edges.
 */
import { placeKey } from "./auth.js";
import { AbortError, ConnectionError, IntakeConfigError, TimeoutError, retryAfterMs, type RequestSummary } from "./errors.js";
import type { LogEntry } from "./log.js";
import { nonNegativeInteger, positive, type ResolvedOptions } from "./options.js";
import { MAX_CAUSES, redactError, redactText, redactUrl } from "./redact.js";
import { backoffDelay, isSafeToRepeat, isUntrustedCertificate, mayRetryConnection, systemErrorCode } from "./retry-policy.js";

export interface CallOverrides {
  timeoutMs?: number;
  maxRetries?: number;
}

/** A call as the transport sends it, the key not yet placed. */
export interface Outgoing {
  method: string;
  /** Absolute; a fragment is dropped. */
  url: string;
  /** Lower-case names; they win over the client's `headers` option. */
  headers: Record<string, string>;
  body: string | ArrayBuffer | undefined;
  signal: AbortSignal | undefined;
}

/** A response, its body read whole within the timeout. */
export interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  body: ArrayBuffer;
  /** The method and redacted URL (key placed, then hidden) it answers, built when asked for. */
  summary: () => RequestSummary;
}

export type Send = (outgoing: Outgoing, overrides?: CallOverrides) => Promise<Answer>;

/** Statuses whose responses have no body, whatever the server sent. */
export const NULL_BODY_STATUS = new Set([204, 205, 304]);

/**
 * A fetch for openapi-fetch that sends through the transport. `signal`, when given, is the call's
 * own: resource calls keep it out of openapi-fetch's Request, whose listener on it would stay until
 * garbage collection (thousands on one long-lived signal). `onAnswer` sees each answer before it
 * becomes a Response (a resource call keeps its request summary for errors).
 */
export function fetchFor(
  send: Send,
  overrides?: CallOverrides,
  signal?: AbortSignal,
  onAnswer?: (answer: Answer) => void,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const body = request.body ? await request.arrayBuffer() : undefined;
    const answer = await send({ method: request.method, url: request.url, headers, body, signal: signal ?? request.signal }, overrides);
    onAnswer?.(answer);
    return new Response(NULL_BODY_STATUS.has(answer.status) ? null : answer.body, answer);
  };
}

type Outcome = { answer: Answer } | { failure: Error; retryable: boolean };

export function createTransport(options: ResolvedOptions): Send {
  const basePath = new URL(options.baseUrl).pathname.replace(/\/$/, "");

  return async function send(outgoing, overrides = {}) {
    const timeoutMs = positive("timeoutMs", overrides.timeoutMs, options.timeoutMs);
    const maxRetries = nonNegativeInteger("maxRetries", overrides.maxRetries, options.retry.maxRetries);
    const { method, body, signal: callerSignal } = outgoing;
    const headers = { ...options.headers, ...outgoing.headers };
    // A fragment is never sent; dropped, so the key cannot end up after one (and unsent).
    const hash = outgoing.url.indexOf("#");
    const target = hash === -1 ? outgoing.url : outgoing.url.slice(0, hash);
    // The key goes to the base URL the client was made for and nowhere else: not to a per-call
    // baseUrl given to raw, nor to a host a middleware rewrote the request to.
    if (!isUnder(target, options.baseUrl)) {
      throw new IntakeConfigError(
        `Refusing to send the API key to ${redactText(redactUrl(target), options.apiKey)}: it is not under this client's baseUrl ${options.baseUrl}. Create a client for that address instead.`,
      );
    }
    const url = placeKey(options.auth, options.apiKey, target, headers);
    // Built, redacted, when first needed (an answer, an error, a log line); the text pass catches
    // the key anywhere else a custom URL could have put it.
    let summary: RequestSummary | undefined;
    const summaryOf = (): RequestSummary => (summary ??= { method, url: redactText(redactUrl(url), options.apiKey) });
    const safe = isSafeToRepeat(method, pathOf(url).slice(basePath.length), body);
    // Absent without a logger, so `log?.(…)` does not even build the entry.
    const logger = options.logger;
    const log =
      logger &&
      ((entry: Omit<LogEntry, "method" | "url">) => {
        try {
          logger({ method: summaryOf().method, url: summaryOf().url, ...entry, message: redactText(entry.message, options.apiKey) });
        } catch {
          // A logger that fails must not fail the call: the request may already have taken effect.
        }
      });

    for (let attempt = 0; ; attempt++) {
      if (callerSignal?.aborted) throw new AbortError(summaryOf(), { cause: redactError(callerSignal.reason, options.apiKey) });
      const started = Date.now();
      log?.({ event: "request", attempt, message: `${summaryOf().method} ${summaryOf().url} (attempt ${attempt + 1})` });
      const outcome = await attemptOnce(url, { method, headers, body }, callerSignal, timeoutMs, summaryOf, safe, options);
      const durationMs = Date.now() - started;
      const canRetry = attempt < maxRetries;

      if ("failure" in outcome) {
        log?.({ event: "error", attempt, durationMs, reason: outcome.failure.name, message: outcome.failure.message });
        if (!(outcome.retryable && canRetry)) throw outcome.failure;
        await pause(backoffDelay(attempt, options.retry), outcome.failure.name, attempt);
        continue;
      }

      const { answer } = outcome;
      log?.({ event: "response", attempt, status: answer.status, durationMs, message: `${summaryOf().method} ${summaryOf().url} -> ${answer.status} in ${durationMs} ms` });
      const delay = retryDelay(answer, attempt, safe, options);
      if (delay === undefined || !canRetry) return answer;
      await pause(delay, `status ${answer.status}`, attempt);
    }

    async function pause(delayMs: number, reason: string, attempt: number) {
      log?.({ event: "retry", attempt, delayMs, reason, message: `retrying ${summaryOf().method} ${summaryOf().url} in ${delayMs} ms after ${reason}` });
      await sleep(delayMs, callerSignal).catch((cause: unknown) => {
        const aborted = new AbortError(summaryOf(), { cause: redactError(cause, options.apiKey) });
        log?.({ event: "error", attempt, reason: aborted.name, message: aborted.message });
        throw aborted;
      });
    }
  };
}

/** The wait before retrying this answer, or undefined when it must not be retried. */
function retryDelay(answer: { status: number; headers: Headers }, attempt: number, safe: boolean, options: ResolvedOptions): number | undefined {
  if (!(answer.status === 429 || (answer.status >= 500 && safe))) return undefined;
  const asked = retryAfterMs(answer.headers);
  if (asked === undefined) return backoffDelay(attempt, options.retry);
  return asked <= options.retry.maxRetryAfterMs ? asked : undefined;
}

/** Whether a URL is the base URL or below it (a path or a query after it). */
function isUnder(url: string, base: string): boolean {
  if (!url.startsWith(base)) return false;
  const next = url.charAt(base.length);
  return next === "" || next === "/" || next === "?";
}

/** The path of an absolute URL without a fragment, as text: a URL object per call costs more. */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

async function attemptOnce(
  url: string,
  { method, headers, body }: Pick<Outgoing, "method" | "headers" | "body">,
  callerSignal: AbortSignal | undefined,
  timeoutMs: number,
  summaryOf: () => RequestSummary,
  safe: boolean,
  options: ResolvedOptions,
): Promise<Outcome> {
  // One controller per attempt, aborted by the timer or by the caller's signal. The attempt's
  // promise rejects at the same moment, so a fetch (or a mocked body) that ignores its signal
  // still stops; one promise settled by whichever comes first costs less than racing each step.
  const attempt = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let followCaller: (() => void) | undefined;
  try {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const stop = (reason: unknown) => {
        attempt.abort(reason);
        reject(reason);
      };
      timer = setTimeout(() => {
        timedOut = true;
        stop(new DOMException("The operation timed out.", "TimeoutError"));
      }, timeoutMs);
      if (callerSignal) {
        followCaller = () => stop(callerSignal.reason);
        if (callerSignal.aborted) return followCaller();
        callerSignal.addEventListener("abort", followCaller, { once: true });
      }
      // Awaited rather than chained, so a fetch or a body double that returns a plain value works.
      (async () => {
        // A redirect could carry a query-form key to another host; the service never redirects.
        const raw = await options.fetch(url, { method, headers, body, redirect: "error", signal: attempt.signal });
        const bytes = await raw.arrayBuffer();
        resolve({ status: raw.status, statusText: raw.statusText, headers: raw.headers, body: bytes, summary: summaryOf });
      })().catch(reject);
    });
    return { answer };
  } catch (error) {
    if (callerSignal?.aborted) return { failure: new AbortError(summaryOf(), { cause: redactError(error, options.apiKey) }), retryable: false };
    if (timedOut) return { failure: new TimeoutError(summaryOf(), timeoutMs), retryable: safe };
    const code = systemErrorCode(error);
    return { failure: connectionError(summaryOf(), error, code, options.apiKey), retryable: mayRetryConnection(code, safe) };
  } finally {
    clearTimeout(timer);
    if (followCaller) callerSignal!.removeEventListener("abort", followCaller);
  }
}

function connectionError(summary: RequestSummary, error: unknown, code: string | undefined, apiKey: string): ConnectionError {
  const detail = redactText(describeCause(error), apiKey);
  const hint =
    isUntrustedCertificate(code)
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

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
