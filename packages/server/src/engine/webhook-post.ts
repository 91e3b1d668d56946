/**
 * One signed webhook POST (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` with the account's secret), bounded by a timeout and a stop signal, and
 * what came of it: the receiver's status, its error, its Retry-After, how long it took in real
 * milliseconds. A delivery's attempts (delivery.ts) and the test webhook (test-webhook.ts) send
 * through it. A URL of the server's own inbox goes to the in-process origin (shared/webhook-url.ts),
 * which the fetch given (app.ts) hands to the server's own core.
 */
import { Webhook } from "standardwebhooks";
import { elapsedMs, startTimer } from "../shared/elapsed.js";
import { requestUrlOf } from "../shared/webhook-url.js";

export type FetchLike = (request: Request) => Promise<Response>;

export interface Signed {
  /** As stored: an absolute URL, or `/__inbox/<accountId>`. */
  url: string;
  secret: string;
  webhookId: string;
  /** The JSON body, as signed and sent. */
  payload: string;
}

export interface Posted {
  webhookTimestamp: number;
  webhookSignature: string;
  /** The receiver's status; null when none came (refused, timed out). */
  status: number | null;
  durationMs: number;
  error: string | null;
  retryAfterMs: number | null;
}

/** The receiver's answer is theirs to word: `redact` takes the server's secrets out of it before it is kept. */
export async function postWebhook(
  fetch: FetchLike,
  { url, secret, webhookId, payload }: Signed,
  timeoutMs: number,
  stop: AbortSignal,
  redact: (text: string) => string,
): Promise<Posted> {
  // Receivers check webhook-timestamp against their own clock, so it is wall-clock time even
  // when the server runs on a virtual clock.
  const sentAt = new Date();
  const webhookTimestamp = Math.floor(sentAt.getTime() / 1000);
  const webhookSignature = new Webhook(secret).sign(webhookId, sentAt, payload);
  const headers = {
    "content-type": "application/json",
    "user-agent": "Intake-Webhooks/1.0",
    "webhook-id": webhookId,
    "webhook-timestamp": String(webhookTimestamp),
    "webhook-signature": webhookSignature,
  };
  // Kept with the attempt, so the admin API (and the dashboard) show what the receiver was sent.
  const signed = { webhookTimestamp, webhookSignature };
  const started = startTimer();
  const took = () => elapsedMs(started);
  // One signal for the timeout and the stop, its listener on the stop removed once done: a
  // composite (AbortSignal.any) of the server-long stop signal is freed only by the collector's
  // finalizers, which fall behind under a stream of attempts.
  const controller = new AbortController();
  const { signal } = controller;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("timed out", "TimeoutError"));
  }, timeoutMs);
  const onStop = () => controller.abort(stop.reason);
  if (stop.aborted) onStop();
  else stop.addEventListener("abort", onStop, { once: true });
  try {
    // Raced against the signal too, so an injected fetch that ignores it still times out.
    const response = await untilAborted(
      fetch(new Request(requestUrlOf(url), { method: "POST", headers, body: payload, redirect: "manual", signal })),
      signal,
    );
    // Redacted before it is cut, so a secret the cut runs through is still found whole.
    const text = redact((await untilAborted(response.text(), signal).catch(() => "")).slice(0, KEPT + MARGIN)).slice(0, KEPT);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ...signed,
      status: response.status,
      durationMs: took(),
      error: ok ? null : `HTTP ${response.status}${text ? `: ${text}` : ""}`,
      retryAfterMs: retryAfter(response.headers.get("retry-after")),
    };
  } catch (error) {
    const reason = timedOut ? new DOMException("timed out", "TimeoutError") : error;
    return { ...signed, status: null, durationMs: took(), error: redact(describe(reason, timeoutMs)), retryAfterMs: null };
  } finally {
    clearTimeout(timer);
    stop.removeEventListener("abort", onStop);
  }
}

/** What is kept of a receiver's answer, in characters; and how far past it a secret is looked for. */
const KEPT = 500;
const MARGIN = 4096;

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

function retryAfter(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return `No answer within ${timeoutMs} ms.`;
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { message, code } = e as { message?: string; code?: string };
    if (code === "ECONNREFUSED") return "The connection was refused.";
    if (message) parts.push(message);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(": ") || "The request failed.";
}
