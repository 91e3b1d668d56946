/** The admin API's live events (GET /__admin/events), as types the client and the server share. */
import type { components } from "../generated/admin.js";

export type AdminEvent = components["schemas"]["AdminEvent"];

/**
 * The event of one type, `AdminEventOf<"job.queued">`, its `type` narrowed to it. (Some schemas
 * serve two types, `job.queued` and `job.rescheduled`, where `Extract` would find neither.)
 */
export type AdminEventOf<T extends AdminEvent["type"]> = AdminEvent extends infer E ? (E extends { type: infer U } ? (T extends U ? E & { type: T } : never) : never) : never;
