/**
 * The admin API's live events (GET /__admin/events), as types the client and the server share:
 * the one name for an event on the wire. Inside the server an event is a `DomainEvent`
 * (events/events.ts), which live/feed-events.ts turns into these, or deliberately does not.
 */
import type { components } from "../generated/admin.js";

export type AdminEvent = components["schemas"]["AdminEvent"];
export type AdminEventType = AdminEvent["type"];

/**
 * The event of one type, `AdminEventOf<"job.queued">`, its `type` narrowed to it. (Some schemas
 * serve two types, `job.queued` and `job.rescheduled`, where `Extract` would find neither.)
 */
export type AdminEventOf<T extends AdminEventType> = AdminEvent extends infer E
  ? E extends { type: infer U }
    ? T extends U
      ? E & { type: T }
      : never
    : never
  : never;
