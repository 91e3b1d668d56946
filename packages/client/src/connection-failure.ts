/**
 * What a failed fetch says about why it failed, in each runtime the client supports. Node and Bun
 * give a system error code (`ECONNREFUSED`, `UNABLE_TO_VERIFY_LEAF_SIGNATURE`); Deno gives only a
 * message, from which the equivalent code is read; workerd and browsers hide the reason, and the
 * client says so rather than guess.
 */
import { MAX_CAUSES } from "./redact.js";

/**
 * Deno's messages (hyper and rustls underneath), each with the code Node gives for the same
 * failure. The os error numbers differ between systems, so the words are matched.
 */
const DENO_MESSAGES: Array<[RegExp, string]> = [
  [/invalid peer certificate: (certificate expired|Expired)/i, "CERT_HAS_EXPIRED"],
  [/invalid peer certificate: (certificate not valid yet|NotValidYet)/i, "CERT_NOT_YET_VALID"],
  [/invalid peer certificate: (certificate not valid for name|NotValidForName)/i, "ERR_TLS_CERT_ALTNAME_INVALID"],
  [/invalid peer certificate/i, "UNABLE_TO_GET_ISSUER_CERT"],
  [/Connection refused/i, "ECONNREFUSED"],
  [/dns error|failed to lookup address/i, "ENOTFOUND"],
  [/Network is unreachable/i, "ENETUNREACH"],
  [/No route to host/i, "EHOSTUNREACH"],
  [/Connection reset/i, "ECONNRESET"],
];

/** The system error code of a failed fetch: the runtime's own, else the one its message means. */
export function failureCode(error: unknown): string | undefined {
  return systemErrorCode(error) ?? codeFromMessages(error);
}

/** The first system error code in an error's cause chain (undici nests it, sometimes in an AggregateError). */
function systemErrorCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== "object" || error === null || depth > MAX_CAUSES) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = systemErrorCode(inner, depth + 1);
      if (found) return found;
    }
  }
  return systemErrorCode(cause, depth + 1);
}

function codeFromMessages(error: unknown): string | undefined {
  if (!isDeno()) return undefined;
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth <= MAX_CAUSES; depth++) {
    const found = DENO_MESSAGES.find(([pattern]) => pattern.test(current instanceof Error ? current.message : ""));
    if (found) return found[1];
    current = current.cause;
  }
  return undefined;
}

/** How to trust a certificate that is not in the system store, in this runtime. */
export function trustHint(): string {
  if (isDeno()) return "start Deno with DENO_CERT=<file> (or --cert <file>) naming the certificate file it printed";
  return "start the program with NODE_EXTRA_CA_CERTS=<file> naming the certificate file it printed";
}

/**
 * A sentence for a failure whose reason the runtime hides, or "" when it does not: a browser's
 * fetch TypeError carries no cause (a refused connection, an untrusted certificate, a CORS refusal
 * and being offline look the same to the page), and workerd answers "internal error" for a
 * certificate or a DNS failure.
 */
export function hiddenReasonHint(error: unknown, code: string | undefined): string {
  if (code !== undefined || !(error instanceof Error) || error.cause !== undefined) return "";
  if (isWorkerd() && /^internal error/i.test(error.message)) {
    return " workerd does not say why (an untrusted certificate or a failed DNS lookup look alike); the worker's log (wrangler tail, or the terminal running workerd) names the cause.";
  }
  if (isBrowser() && error.name === "TypeError") {
    return " The browser does not tell the page why (a refused connection, an untrusted certificate, a CORS refusal or being offline look alike); its developer console names the cause.";
  }
  return "";
}

const isDeno = () => "Deno" in globalThis;
const isWorkerd = () => (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === "Cloudflare-Workers";
const isBrowser = () => typeof (globalThis as { document?: unknown }).document !== "undefined";
