/**
 * The live events as the CLI prints them on stderr: one readable line each, or one JSON line each
 * for programs. What a funnel builder watches at `info`: what happened to contacts, messages, the
 * bot, webhooks, alerts and the clock, and the requests that failed; every request and every job
 * at `debug`. The events carry ids, never keys (a request's path is redacted as the journal's).
 */
import type { FeedEntry, LiveEvent } from "./feed.js";

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
 */
export function logLine(format: LogFormat, id: number, event: LiveEvent, dated = false): string {
  if (format === "json") return JSON.stringify({ id, ...event });
  const when = dated ? `${event.at.slice(0, 10)} ${event.at.slice(11, 23)}` : event.at.slice(11, 23);
  return `${when} ${(event.accountId ?? "-").padEnd(14)} ${describe(event)}`;
}

function describe(event: LiveEvent): string {
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
      return `bot: ${event.outcome.replace(/_/g, " ")} for message ${event.messageId} of ${event.contactId}`;
    case "delivery.attempted": {
      const answer = event.status === null ? (event.error ?? "no answer") : `HTTP ${event.status}`;
      return `webhook ${event.deliveryId}${event.messageId ? ` (message ${event.messageId})` : ""} attempt ${event.attempt}: ${answer}, ${event.state}`;
    }
    case "job.queued":
      return `job ${event.jobId} (${event.kind}) queued for ${event.runAt}${event.contactId ? ` for ${event.contactId}` : ""}`;
    case "job.ran":
      return `job ${event.jobId} (${event.kind}) ran`;
    case "clock.advanced":
      return `clock advanced to ${event.now}`;
    case "alert.raised":
      return `alert ${event.alertId}: ${event.contactId} handed to the team`;
  }
}
