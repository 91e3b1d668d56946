/**
 * Client options, their defaults, and the checks that turn a mistake into a clear error at
 * construction rather than a confusing failure on the first call.
 */
import type { AuthForm } from "@intake/spec";
import { placeKey } from "./auth.js";
import { IntakeConfigError } from "./errors.js";
import type { LogEntry } from "./log.js";
import { redactText } from "./redact.js";

export type FetchFn = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt. Default 2; 0 disables retries. */
  maxRetries?: number | undefined;
  /** First backoff delay; it doubles on each retry, with jitter. Default 500 ms. */
  initialDelayMs?: number | undefined;
  /** Cap of a backoff delay. Default 8000 ms. */
  maxDelayMs?: number | undefined;
  /** A 429, or a safe operation's 5xx, asking (Retry-After) to wait longer than this is not retried but thrown. Default 60 000 ms. */
  maxRetryAfterMs?: number | undefined;
}

export interface IntakeClientOptions<F extends AuthForm = AuthForm> {
  /**
   * Where the key goes: `"query"` (`?apiKey=`, camelCase bodies; contacts, lists, messages),
   * `"header"` (`x-api-key`; sub-account credits) or `"bearer"` (`Authorization: Bearer`,
   * snake_case bodies; contacts and lists).
   */
  auth: F;
  /** The account's API key. Default: the `INTAKE_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /** The service's base address, ending in `/v1`. Default: the `INTAKE_BASE_URL` environment variable. */
  baseUrl?: string | undefined;
  /** A fetch to send requests with: a custom CA, a proxy, a test double. Default: `globalThis.fetch`. */
  fetch?: FetchFn | undefined;
  /** Time allowed for each attempt, response body included. Default 30 000 ms. */
  timeoutMs?: number | undefined;
  /** Shorthand for `retry.maxRetries`. */
  maxRetries?: number | undefined;
  retry?: RetryOptions | undefined;
  /** Headers sent with every request (never the key: the client places it itself). */
  headers?: Record<string, string> | undefined;
  /** Receives one entry per request, response, retry and failure. The key is always redacted. */
  logger?: ((entry: LogEntry) => void) | undefined;
  /**
   * Allow `http://` to a loopback host (localhost, 127.0.0.0/8, ::1), for a stateless mock such as
   * `prism mock` that does not speak TLS (and serves the paths at its root, so such a base URL
   * need not end in /v1). Any other `http://` address is always refused.
   */
  allowInsecureLoopback?: boolean | undefined;
}

/** How the transport sends one attempt. */
export type SendFn = (url: string, init: RequestInit) => Promise<Response>;

export interface ResolvedOptions {
  auth: AuthForm;
  apiKey: string;
  baseUrl: string;
  fetch: SendFn;
  timeoutMs: number;
  retry: { [K in keyof RetryOptions]-?: number };
  /** Sent with every request, beneath a call's own headers. */
  headers: Record<string, string>;
  logger: ((entry: LogEntry) => void) | undefined;
}

const AUTH_FORMS: readonly AuthForm[] = ["query", "header", "bearer"];

export function resolveOptions(options: IntakeClientOptions): ResolvedOptions {
  const apiKey: unknown = options?.apiKey ?? env("INTAKE_API_KEY");
  try {
    return resolve(options);
  } catch (error) {
    // A message quotes what it was given (a base URL, a header's value, the auth form), and a
    // key misplaced there would be printed with it.
    if (error instanceof IntakeConfigError && typeof apiKey === "string" && redactText(error.message, apiKey) !== error.message) {
      throw new IntakeConfigError(redactText(error.message, apiKey));
    }
    throw error;
  }
}

function resolve(options: IntakeClientOptions): ResolvedOptions {
  if (!options || !AUTH_FORMS.includes(options.auth)) {
    throw new IntakeConfigError(
      `auth must be one of "query", "header" or "bearer" (got ${JSON.stringify(options?.auth)}). ` +
        'Use "query" for contacts, lists and messages, "header" for /subaccounts/credits, "bearer" for funnel contacts and lists.',
    );
  }
  const apiKey = options.apiKey ?? env("INTAKE_API_KEY");
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new IntakeConfigError(
      "An API key is required: pass apiKey or set INTAKE_API_KEY. Generate one in Settings > Account > API Key (the reference server prints its accounts' keys at start; GET /__admin/accounts lists them).",
    );
  }
  checkKeyCanTravel(options.auth, apiKey);
  // The global fetch is looked up at call time, so one patched later (msw, a test double) is the
  // one used, and given the URL and init rather than a Request: it builds its own Request anyway,
  // and one fewer (with its AbortSignal) is a good part of what a call costs on Node 20.
  const custom = options.fetch;
  const fetchFn: SendFn = custom ? (url, init) => custom(new Request(url, init)) : (url, init) => globalThis.fetch(url, init);
  if (typeof options.fetch !== "function" && typeof globalThis.fetch !== "function") {
    throw new IntakeConfigError("No fetch is available in this runtime: pass a fetch implementation in options.fetch.");
  }
  const retry = options.retry ?? {};
  return {
    auth: options.auth,
    apiKey,
    baseUrl: resolveBaseUrl(options.baseUrl ?? env("INTAKE_BASE_URL"), options.allowInsecureLoopback ?? false),
    fetch: fetchFn,
    timeoutMs: positive("timeoutMs", options.timeoutMs, 30_000),
    retry: {
      maxRetries: nonNegativeInteger("maxRetries", options.maxRetries ?? retry.maxRetries, 2),
      initialDelayMs: positive("retry.initialDelayMs", retry.initialDelayMs, 500),
      maxDelayMs: positive("retry.maxDelayMs", retry.maxDelayMs, 8_000),
      maxRetryAfterMs: positive("retry.maxRetryAfterMs", retry.maxRetryAfterMs, 60_000),
    },
    headers: checkedHeaders("The headers option", options.headers, apiKey),
    logger: options.logger,
  };
}

export function resolveBaseUrl(input: string | undefined, allowInsecureLoopback: boolean): string {
  if (!input) {
    throw new IntakeConfigError(
      "baseUrl is required: the service's address ending in /v1, for example https://127.0.0.1:8443/v1 (or set INTAKE_BASE_URL).",
    );
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new IntakeConfigError(`baseUrl ${JSON.stringify(input)} is not a URL; expected something like https://api.example.com/v1.`);
  }
  if (url.protocol === "http:") {
    if (!(allowInsecureLoopback && isLoopback(url.hostname))) {
      throw new IntakeConfigError(
        `Refusing the http:// base URL ${url.origin}: the service accepts HTTPS only, and the API key would travel in clear. ` +
          "Use https://." +
          (isLoopback(url.hostname) ? " For a local mock without TLS (such as prism mock), pass allowInsecureLoopback: true." : ""),
      );
    }
  } else if (url.protocol !== "https:") {
    throw new IntakeConfigError(`baseUrl must use https:// (got ${url.protocol}//).`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new IntakeConfigError(
      "baseUrl must not carry credentials, a query or a fragment: pass the key as apiKey and the client places it.",
    );
  }
  const base = url.toString().replace(/\/+$/, "");
  // A stateless mock on loopback (prism) serves the paths at its root, without /v1.
  if (!base.endsWith("/v1") && url.protocol === "https:") {
    const other = /\/(v\d+)$/.exec(base);
    throw new IntakeConfigError(
      other
        ? `baseUrl ends in /${other[1]}, a version this client does not speak: it supports /v1 only. Use ${base.slice(0, -other[0].length)}/v1.`
        : `baseUrl must end with the version segment /v1: did you mean ${base}/v1?`,
    );
  }
  return base;
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A key its auth form cannot carry fails here, not as a request that fails (and is retried) as if
 * the network had. The message never quotes the key.
 */
function checkKeyCanTravel(form: AuthForm, apiKey: string): void {
  try {
    // Placed as every call places it; the URL is only a stand-in.
    placeKey(form, apiKey, "https://intake.invalid/", new Headers());
  } catch {
    const where =
      form === "query" ? "in a URL (it holds a lone surrogate)" : "in an HTTP header (only visible ASCII and Latin-1 text, no line breaks)";
    throw new IntakeConfigError(`The API key cannot be sent ${where}: check that apiKey is the key as issued.`);
  }
}

/**
 * Headers with their names in lower case, so that merging two sets cannot send a name twice. A
 * name or value fetch would refuse is an error here, naming where it came from, rather than a
 * request that fails (and is retried) as if the network had.
 */
export function checkedHeaders(
  where: string,
  headers: Record<string, string | null | undefined> | undefined,
  apiKey: string,
): Record<string, string> {
  const out: Record<string, string> = {};
  // A header given as null or undefined is not sent, as openapi-fetch treats it.
  for (const name in headers) if (headers[name] !== undefined && headers[name] !== null) out[name.toLowerCase()] = headers[name];
  try {
    new Headers(out);
  } catch (error) {
    // The runtime's message quotes the refused value, which may be the key (a line break after it, say).
    throw new IntakeConfigError(redactText(`${where}: ${(error as Error).message}`, apiKey));
  }
  return out;
}

function env(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env?.[name] || undefined;
}

/** The longest delay a timer takes (about 24.8 days): a longer one fires at once in Node and browsers. */
const MAX_TIMER_MS = 2_147_483_647;

export function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new IntakeConfigError(
      `${name} must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (about 24.8 days) (got ${value}).`,
    );
  }
  return value;
}

export function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new IntakeConfigError(`${name} must be a whole number, 0 or more (got ${value}).`);
  return value;
}
