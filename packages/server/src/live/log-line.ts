/**
 * The live events as the CLI prints them on stderr: one readable line each, or one JSON line each
 * for programs. What a funnel builder watches at `info`: what happened to contacts, lists,
 * messages, the bot, webhooks, the inbox, alerts, campaigns, accounts and the clock, and the
 * requests that failed; at `debug` also every request, every job, and the small steps each of
 * those implies (a delivery queued, a message's status, a contact's fields, a credit charge). The
 * events carry ids, never keys (a request's path is redacted as the journal's).
 */
import type { AdminEvent } from "../shared/admin-event.js";
import type { FeedEntry } from "./feed.js";

export const LOG_LEVELS = ["quiet", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Whether `level` prints this event: decided before its data is made, which a skipped one never is. */
export function logs(level: LogLevel, entry: FeedEntry): boolean {
  if (level === "quiet") return false;
  return level === "debug" || !entry.detail;
}

/**
 * One line, without its newline. A text line starts with the time of day, or with the date and
 * time when `dated` (a virtual clock, whose days move when it is advanced).
 *
 * Lines carry words from outside (a model's answer or error, a webhook receiver's answer, a
 * request's path): every line is escaped, so no such text can start a line of its own shape or
 * drive the terminal. JSON.stringify escapes C0 controls already; the rest are escaped in JSON too,
 * as \u escapes, which parse back to the same text.
 */
export function logLine(format: LogFormat, id: number, event: AdminEvent, dated = false): string {
  if (format === "json") return JSON.stringify({ id, ...event }).replace(UNSAFE, unicodeEscape);
  const when = dated ? `${event.at.slice(0, 10)} ${event.at.slice(11, 23)}` : event.at.slice(11, 23);
  return `${when} ${(event.accountId ?? "-").padEnd(14)} ${describe(event)}`.replace(CONTROLS, textEscape);
}

/**
 * What a terminal takes as other than a character to print: C0 controls (newline, carriage return,
 * ESC), DEL, C1 controls (CSI, U+009B, is ESC [ in one character), the line and paragraph
 * separators, and the bidirectional overrides and isolates, which reorder what a line shows.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, but for the C0 controls JSON.stringify has escaped (a JSON line holds none raw). */
const UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
const textEscape = (char: string) => SHORT[char] ?? unicodeEscape(char);

/** Every type has a line of its own: one added to the contract and not here fails to compile at the end. */
function describe(event: AdminEvent): string {
  switch (event.type) {
    case "request.answered":
      return `${event.method} ${event.path} -> ${event.status}${event.code ? ` ${event.code}` : ""} in ${event.durationMs} ms (${event.requestId})`;
    case "contact.created":
      return `contact ${event.contactId} created`;
    case "message.received":
      return `message ${event.messageId} received from ${event.contactId}`;
    case "message.sent":
      return `message ${event.messageId} (${event.kind}) to ${event.contactId}: ${event.status}`;
    case "bot.outcome":
      // The error says what went wrong and what to do (the model's endpoint refused the key, say).
      return `bot: ${event.outcome.replace(/_/g, " ")} for message ${event.messageId} of ${event.contactId}${event.error ? `: ${event.error}` : ""}`;
    case "delivery.attempted": {
      const answer = event.status === null ? (event.error ?? "no answer") : `HTTP ${event.status}`;
      return `webhook ${event.deliveryId}${event.messageId ? ` (message ${event.messageId})` : ""} attempt ${event.attempt}: ${answer}, ${event.state}`;
    }
    case "job.queued":
    case "job.rescheduled":
      return `job ${event.jobId} (${event.kind}) ${event.type === "job.queued" ? "queued" : "moved"} for ${event.runAt}${event.contactId ? ` for ${event.contactId}` : ""}`;
    case "job.ran":
    case "job.cancelled":
      return `job ${event.jobId} (${event.kind}) ${event.type === "job.ran" ? "ran" : "cancelled"}`;
    case "clock.advanced":
      return `clock advanced to ${event.now}`;
    case "alert.raised":
      return `alert ${event.alertId}: ${event.contactId} handed to the team`;
    // The events of records created or changed, and of the inbox.
    case "contact.updated":
      return `contact ${event.contactId} updated`;
    case "contact.deleted":
      return `contact ${event.contactId} deleted`;
    case "list.joined":
      return `contact ${event.contactId} joined list ${event.listId} (${event.source})`;
    case "message.updated":
      return `message ${event.messageId} to ${event.contactId}: ${event.status}`;
    case "delivery.queued":
      return `webhook ${event.deliveryId}${event.messageId ? ` (message ${event.messageId})` : ""} queued`;
    case "delivery.updated":
      return `webhook ${event.deliveryId}${event.messageId ? ` (message ${event.messageId})` : ""} ${event.state === "failed" ? "failed with no attempt: nowhere to send it" : event.state}`;
    case "campaign.created":
    case "campaign.updated":
    case "campaign.deleted":
      return `campaign ${event.campaignId} ${event.type.slice("campaign.".length)}`;
    case "list.created":
    case "list.updated":
    case "list.deleted":
      return `list ${event.listId} ${event.type.slice("list.".length)}`;
    case "account.created":
    case "account.updated":
      return `account ${event.type === "account.created" ? "created" : "updated"}`;
    case "credits.changed":
      return `credits ${event.amount > 0 ? "+" : ""}${event.amount}, balance ${event.balance}`;
    case "state.replaced":
      return `state replaced (${event.cause})`;
    case "inbox.received": {
      const signature = event.verified ? "signature verified" : "signature NOT verified";
      return `inbox ${event.requestId} received${event.webhookId ? ` webhook ${event.webhookId}` : " a request"}: ${signature}, answered ${event.status}`;
    }
    default:
      return untold(event);
  }
}

/** Reached by no type the contract knows; at run time, a type from elsewhere prints as itself. */
const untold = (event: never): string => (event as AdminEvent).type;
