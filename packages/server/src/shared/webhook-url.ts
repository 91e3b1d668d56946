/**
 * Where outgoing webhooks may go. fetch also "delivers" to data: URLs (answering 200 from the URL
 * itself, so every reply was recorded as Sent to no one) and would be asked to read file: or run
 * other schemes; plain http:// puts signed payloads in clear on the network. So: https:// to any
 * host; http:// to a loopback host (a receiver on the same machine, as in tests and examples), or
 * to any host when the server is started to allow it.
 */
import { isLoopbackHost } from "./loopback.js";

export const WEBHOOK_URL_RULE =
  "Webhooks go to https:// URLs; http:// is accepted for localhost, 127.0.0.0/8 and [::1], and for any host when the server runs with --allow-http-webhooks (allowHttpWebhooks in code).";

/** What is wrong with a webhook URL, as the end of a sentence that starts with its name; undefined when it is accepted. */
export function webhookUrlProblem(value: string, allowHttp: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not an absolute URL. ${WEBHOOK_URL_RULE}`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `uses the ${url.protocol} scheme. ${WEBHOOK_URL_RULE}`;
  // fetch refuses to build a request whose URL carries credentials: every attempt would fail.
  if (url.username || url.password) return "carries a user name or password, which a webhook request cannot send; put the receiver's credentials elsewhere (the webhook is signed).";
  if (url.protocol === "http:" && !allowHttp && !isLoopbackHost(url.hostname)) {
    return `is plain http:// to ${url.hostname}, which is not a loopback host. ${WEBHOOK_URL_RULE}`;
  }
  return undefined;
}
