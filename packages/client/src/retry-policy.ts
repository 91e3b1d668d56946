/**
 * When a failed attempt may be sent again without doubling its effect.
 *
 * - 429: the service refused the request before doing anything, so every operation is retried.
 * - 5xx, a timeout or a connection lost mid-request: the request may have taken effect, so only
 *   operations that are safe to repeat are retried: GET, a contact create that carries a phone
 *   number (the service returns the existing contact for a known phone), and receive (the
 *   service de-duplicates by messageSid or id, which the contract requires).
 * - A connection that failed before the request left (refused, DNS, unreachable): every operation.
 * - A server certificate that was not verified: none; the next attempt would meet the same one.
 */
import type { paths } from "@intake/spec";
import type { ResolvedOptions } from "./options.js";

const CONTACTS = "/contacts" satisfies keyof paths;
const RECEIVE = "/incoming_custom_channel_message" satisfies keyof paths;

export function isSafeToRepeat(method: string, path: string, body: ArrayBuffer | undefined): boolean {
  if (method === "GET" || method === "HEAD") return true;
  if (method !== "POST") return false;
  if (path === RECEIVE) return true;
  if (path === CONTACTS) return carriesPhone(body);
  return false;
}

function carriesPhone(body: ArrayBuffer | undefined): boolean {
  if (!body) return false;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    if (typeof parsed !== "object" || parsed === null) return false;
    const { phone, phone_number } = parsed as Record<string, unknown>;
    return typeof phone === "string" || typeof phone_number === "string";
  } catch {
    return false;
  }
}

/** System error codes meaning no byte of the request reached the server. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

export function wasNotSent(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT.has(code);
}

/**
 * Codes of a server certificate that was not verified (self-signed, expired, for another name,
 * from an unknown issuer): the certificate, not the moment, is at fault. Other TLS failures
 * (an alert from a load balancer, a record corrupted on the way) may pass, and are retried.
 */
const UNTRUSTED_CERTIFICATE = /^(CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_|ERR_TLS_CERT_ALTNAME_INVALID)/;

export function isUntrustedCertificate(code: string | undefined): boolean {
  return code !== undefined && UNTRUSTED_CERTIFICATE.test(code);
}

/** A failed connection may be tried again where nothing was sent or the operation is safe to repeat, never for its certificate. */
export function mayRetryConnection(code: string | undefined, safe: boolean): boolean {
  return !isUntrustedCertificate(code) && (safe || wasNotSent(code));
}

/** Exponential backoff with "equal jitter": between half and all of min(cap, initial * 2^attempt). */
export function backoffDelay(attempt: number, retry: ResolvedOptions["retry"], random: () => number = Math.random): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.initialDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
