/**
 * Turns what happens in the server into live events: the store's changes (a contact, message, job
 * or alert created; the virtual clock advanced), the engine's outcomes (the bot's, a webhook
 * attempt's, a job run) and the journal's records (a /v1 request answered). Nothing here changes
 * state; an event is published as the change happens, so it reaches a subscriber with its cause.
 */
import type { Clock } from "../shared/clock.js";
import type { DomainEvents } from "../engine/events.js";
import type { JournalRecord } from "../http/journal.js";
import type { JobRecord, MessageRecord } from "../store/models.js";
import type { Change, Store } from "../store/store.js";
import type { EventFeed } from "./feed.js";

export interface HappeningSources {
  store: Store;
  clock: Clock;
  events: DomainEvents;
  onJobRan: (listener: (job: JobRecord) => void) => () => void;
  /** A journal record's method and path as the journal shows them: keys redacted. */
  requestLine: (record: JournalRecord) => { method: string; path: string };
}

export interface Happenings {
  /** A /v1 request was answered (the journal's record of it). */
  requestAnswered(record: JournalRecord): void;
  stop(): void;
}

export function observeHappenings(feed: EventFeed, sources: HappeningSources): Happenings {
  const { store, clock, events } = sources;
  // The time is taken as the event happens and written out only when somebody reads the event.
  const iso = (ms: number) => new Date(ms).toISOString();

  /** The account and contact a job is for, from what its payload names. */
  const subjectOf = (job: JobRecord): { accountId: string | null; contactId: string | null } => {
    const payload = JSON.parse(job.payload) as Record<string, unknown>;
    let message: MessageRecord | undefined;
    if (typeof payload.contactId === "string") {
      const contact = store.contactById(payload.contactId);
      return { accountId: contact?.accountId ?? null, contactId: payload.contactId };
    }
    if (typeof payload.messageId === "string") message = store.messageById(payload.messageId);
    if (typeof payload.deliveryId === "string") {
      const delivery = store.delivery(payload.deliveryId);
      if (!delivery) return { accountId: null, contactId: null };
      message = delivery.messageId ? store.messageById(delivery.messageId) : undefined;
      return { accountId: delivery.accountId, contactId: message?.contactId ?? null };
    }
    return { accountId: message?.accountId ?? null, contactId: message?.contactId ?? null };
  };

  const onChange = (change: Change) => {
    if (change.table === "clock") {
      const at = clock.now();
      return feed.publish("clock.advanced", null, () => ({ type: "clock.advanced", at: iso(at), accountId: null, now: iso(at) }));
    }
    if (change.table === "all" || !change.created || !change.record) return;
    const at = clock.now();
    switch (change.table) {
      case "contact": {
        const { id, accountId } = change.record as { id: string; accountId: string };
        return feed.publish("contact.created", accountId, () => ({ type: "contact.created", at: iso(at), accountId, contactId: id }));
      }
      case "message": {
        const { id, accountId, contactId, direction, source, status } = change.record as MessageRecord;
        if (direction === "inbound") {
          return feed.publish("message.received", accountId, () => ({ type: "message.received", at: iso(at), accountId, messageId: id, contactId }));
        }
        return feed.publish("message.sent", accountId, () => ({ type: "message.sent", at: iso(at), accountId, messageId: id, contactId, kind: source, status }));
      }
      case "job": {
        const job = change.record as JobRecord;
        const { accountId, contactId } = subjectOf(job);
        const runAt = job.runAt ?? at;
        return feed.publish("job.queued", accountId, () => ({ type: "job.queued", at: iso(at), accountId, jobId: job.id, kind: job.kind, runAt: iso(runAt), contactId }), true);
      }
      case "alert": {
        const { id, accountId, contactId } = change.record as { id: string; accountId: string; contactId: string };
        return feed.publish("alert.raised", accountId, () => ({ type: "alert.raised", at: iso(at), accountId, alertId: id, contactId }));
      }
    }
  };

  const stops = [
    store.onChange(onChange),
    events.on("botOutcome", ({ message, outcome }) => {
      const at = clock.now();
      const { accountId, contactId, id } = message;
      feed.publish("bot.outcome", accountId, () => ({ type: "bot.outcome", at: iso(at), accountId, contactId, messageId: id, outcome }));
    }),
    events.on("deliveryAttempted", ({ delivery, attempt }) => {
      const at = clock.now();
      const { accountId, id, messageId, state } = delivery;
      const { number, status, error } = attempt;
      feed.publish("delivery.attempted", accountId, () => ({
        type: "delivery.attempted",
        at: iso(at),
        accountId,
        deliveryId: id,
        messageId,
        attempt: number,
        status,
        error,
        state,
      }));
    }),
    sources.onJobRan((job) => {
      const at = clock.now();
      const { accountId } = subjectOf(job);
      feed.publish("job.ran", accountId, () => ({ type: "job.ran", at: iso(at), accountId, jobId: job.id, kind: job.kind }), true);
    }),
  ];

  return {
    requestAnswered(record) {
      const at = record.at + record.durationMs;
      feed.publish("request.answered", record.accountId, () => ({
        type: "request.answered",
        at: iso(at),
        accountId: record.accountId,
        ...sources.requestLine(record),
        status: record.status,
        requestId: record.id,
        durationMs: record.durationMs,
        code: record.errorCode,
      }),
        record.status >= 200 && record.status < 400,
      );
    },
    stop() {
      for (const stop of stops) stop();
    },
  };
}
