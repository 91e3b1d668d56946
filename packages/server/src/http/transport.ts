/**
 * The service accepts HTTPS only. An adapter hands the core a request whose URL says how the
 * request arrived; behind a TLS-terminating proxy, X-Forwarded-Proto is believed only when the
 * server was told to trust it.
 */
import { HttpError, badRequest } from "../shared/errors.js";
import type { Step } from "./pipeline.js";

export function httpsOnly(trustForwardedProto: boolean): Step {
  return (context, next) => {
    const { request, url } = context;
    const forwarded = trustForwardedProto ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() : undefined;
    const scheme = forwarded || url.protocol.slice(0, -1);
    if (scheme !== "https") {
      throw badRequest(
        "HTTPS_REQUIRED",
        `The API accepts HTTPS only: send this request to https://${url.host}${url.pathname}. Plain HTTP is refused so API keys do not travel in clear.`,
      );
    }
    return next();
  };
}

/**
 * A request the adapter could not hand over as sent (headers over its limit, bytes that are not
 * HTTP, a target that is not a path) is answered with the adapter's reason, in the shape of the
 * route its path names.
 */
export const adapterRefusal: Step = (context, next) => {
  const { refusal } = context.request;
  if (refusal) throw new HttpError(refusal.status ?? 400, refusal.code, refusal.message);
  return next();
};
