/**
 * The service accepts HTTPS only. An adapter hands the core a request whose URL says how the
 * request arrived; behind a TLS-terminating proxy, X-Forwarded-Proto is believed only when the
 * server was told to trust it.
 */
import { badRequest } from "./errors.js";
import type { ApiRequest } from "./exchange.js";

export function requireHttps(request: ApiRequest, url: URL, trustForwardedProto: boolean): void {
  const forwarded = trustForwardedProto ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() : undefined;
  const scheme = forwarded || url.protocol.slice(0, -1);
  if (scheme !== "https") {
    throw badRequest(
      "HTTPS_REQUIRED",
      `The API accepts HTTPS only: send this request to https://${url.host}${url.pathname}. Plain HTTP is refused so API keys do not travel in clear.`,
    );
  }
}
