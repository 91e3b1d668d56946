/**
 * The service accepts HTTPS only. An adapter hands the core a request whose URL says how it
 * arrived; behind a TLS-terminating proxy, X-Forwarded-Proto is believed only when the server was
 * told to trust it. One rule for the API, the admin API and the dashboard alike.
 */
import { HttpError, badRequest } from "../shared/errors.js";
import type { Step } from "./compose.js";
import type { ApiRequest } from "./exchange.js";
import { BASES } from "./routes.js";

/** Whether the request came over HTTPS (or, trusted, through a proxy that says it did). */
export function isSecure(request: ApiRequest, trustForwardedProto: boolean): boolean {
  const forwarded = trustForwardedProto ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() : undefined;
  return (forwarded || request.url.protocol.slice(0, -1)) === "https";
}

export function requireHttps(trustForwardedProto: boolean): Step {
  return function requireHttpsStep(context, next) {
    if (isSecure(context.request, trustForwardedProto)) return next(context);
    const { host, pathname } = context.url;
    throw badRequest(
      "HTTPS_REQUIRED",
      context.area === "dashboard"
        ? `The dashboard is served over HTTPS only: https://${host}${BASES.dashboard}/`
        : `The API accepts HTTPS only: send this request to https://${host}${pathname}. Plain HTTP is refused so API keys do not travel in clear.`,
    );
  };
}

/**
 * A request the adapter could not hand over as sent (headers over its limit, bytes that are not
 * HTTP, a target that is not a path) is answered with the adapter's reason, in the shape of the
 * route its path names.
 */
export const refuseForAdapter: Step = function refuseForAdapter(context, next) {
  const { refusal } = context.request;
  if (refusal) throw new HttpError(refusal.status ?? 400, refusal.code, refusal.message);
  return next(context);
};
