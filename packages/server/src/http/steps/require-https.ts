/**
 * The service accepts HTTPS only. An adapter hands the core a request whose URL says how it
 * arrived; behind a TLS-terminating proxy, X-Forwarded-Proto is believed only when the server was
 * told to trust it. The dashboard, the admin API and the inbox also take plain HTTP from this
 * machine, so that the printed link opens in a browser with no certificate warning: nothing
 * crosses a network in clear, and /v1 stays HTTPS-only as the interface says.
 */
import type { ApiRequest } from "../../contract/exchange.js";
import { badRequest } from "../../shared/errors.js";
import { hostnameOf, isLoopbackHost } from "../../shared/loopback.js";
import type { Step } from "../compose.js";
import { BASES } from "../routes.js";

/** Whether the request came over HTTPS (or, trusted, through a proxy that says it did). */
function isSecure(request: ApiRequest, trustForwardedProto: boolean): boolean {
  const forwarded = trustForwardedProto ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() : undefined;
  return (forwarded || request.url.protocol.slice(0, -1)) === "https";
}

/** Headers a proxy adds: a request relayed from elsewhere is not this machine's, whatever connection brought it. */
const RELAYED = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"];

/**
 * Whether a plain-HTTP request is this machine's own: its connection came from a loopback address,
 * no proxy relayed it, and its Host is a loopback name (so a web page whose DNS name was made to
 * point at 127.0.0.1 cannot reach the admin API through the visitor's browser).
 */
function isLocal(request: ApiRequest): boolean {
  if (!request.local || RELAYED.some((name) => request.headers.get(name) !== null)) return false;
  const host = request.headers.get("host");
  const hostname = host === null ? undefined : hostnameOf(host);
  return hostname !== undefined && isLoopbackHost(hostname);
}

/** Refuses a request that did not come over HTTPS, but for the local exceptions above. */
export function requireHttps(trustForwardedProto: boolean): Step {
  return function requireHttps(context, next) {
    if (isSecure(context.request, trustForwardedProto)) return next(context);
    if (context.area !== "api" && isLocal(context.request)) return next(context);
    const { host, pathname } = context.url;
    throw badRequest(
      "HTTPS_REQUIRED",
      context.area === "api"
        ? `The API accepts HTTPS only: send this request to https://${host}${pathname}. Plain HTTP is refused so API keys do not travel in clear.`
        : `${context.area === "dashboard" ? "The dashboard is" : "This part of the service is"} served over HTTPS: https://${host}${context.area === "dashboard" ? `${context.base}${BASES.dashboard}/` : pathname}. ` +
            "Plain HTTP is accepted only from the server's own machine, at a loopback address (http://127.0.0.1:<port>), and not through a proxy.",
    );
  };
}
