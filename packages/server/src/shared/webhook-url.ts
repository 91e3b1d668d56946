/**
 * Where outgoing webhooks may go. fetch also "delivers" to data: URLs (answering 200 from the URL
 * itself, so every reply was recorded as Sent to no one) and would be asked to read file: or run
 * other schemes; plain http:// puts signed payloads in clear on the network. So: https:// to any
 * host; http:// to a loopback host (a receiver on the same machine, as in tests and examples), or
 * to any host when the server is started to allow it; and the server's own webhook inbox, written
 * as the path `/__inbox/<accountId>`, which webhooks reach in process (no network, no port, no
 * certificate), whatever port the server runs on and whichever adapter serves it.
 */
import { isLoopbackHost } from "./loopback.js";

export const WEBHOOK_URL_RULE =
  "Webhooks go to https:// URLs, or to this server's own inbox, /__inbox/<accountId>; http:// is accepted for localhost, 127.0.0.0/8 and [::1], and for any host when the server runs with --allow-http-webhooks (allowHttpWebhooks in code).";

/** Where the server's own webhook inbox is: `/__inbox/<accountId>`. */
export const INBOX_BASE = "/__inbox";
const OWN_INBOX = /^\/__inbox\/[A-Za-z0-9_-]+$/;

/** The webhook URL of an account's inbox on this server. */
export const inboxUrl = (accountId: string): string => `${INBOX_BASE}/${accountId}`;

/** Whether a webhook URL is this server's own inbox (`/__inbox/<accountId>`). */
export const isOwnInbox = (url: string): boolean => OWN_INBOX.test(url);

/**
 * The origin a request handed to the server's own core carries (its in-process admin client's, a
 * webhook to its own inbox): the core routes by path, and this origin is no host on any network.
 */
export const IN_PROCESS_ORIGIN = "https://intake.in-process";

/** The URL a webhook request is made for: the stored URL, or for the server's own inbox, that path on the in-process origin. */
export const requestUrlOf = (url: string): string => (isOwnInbox(url) ? `${IN_PROCESS_ORIGIN}${url}` : url);

/** What is wrong with a webhook URL, as the end of a sentence that starts with its name; undefined when it is accepted. */
export function webhookUrlProblem(value: string, allowHttp: boolean): string | undefined {
  if (isOwnInbox(value)) return undefined;
  if (value.startsWith("/"))
    return `is a path other than this server's own inbox (/__inbox/<accountId>, an account id after it). ${WEBHOOK_URL_RULE}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `is not an absolute URL. ${WEBHOOK_URL_RULE}`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `uses the ${url.protocol} scheme. ${WEBHOOK_URL_RULE}`;
  // fetch refuses to build a request whose URL carries credentials: every attempt would fail.
  if (url.username || url.password)
    return "carries a user name or password, which a webhook request cannot send; put the receiver's credentials elsewhere (the webhook is signed).";
  if (url.protocol === "http:" && !allowHttp && !isLoopbackHost(url.hostname)) {
    return `is plain http:// to ${url.hostname}, which is not a loopback host. ${WEBHOOK_URL_RULE}`;
  }
  return undefined;
}
