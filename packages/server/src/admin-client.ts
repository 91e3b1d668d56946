/**
 * @intake/server/admin-client: the typed admin API client alone, for a browser page (the
 * dashboard) or any code that talks to a server started elsewhere. It loads none of the server
 * and nothing Node-only: openapi-fetch and eventsource-parser are all it brings. The one list of
 * the admin client's exports: `@intake/server` and `@intake/server/connect` (and so `/testing`)
 * re-export it whole.
 *
 * ```ts
 * const admin = createAdminClient({ adminUrl: "/__admin", token });
 * for await (const { event } of await admin.events({ accountId })) console.log(event.type);
 * ```
 */
export {
  createAdminClient,
  AdminApiError,
  DeliveryWaitError,
  unwrap,
  type AdminClient,
  type AdminClientOptions,
  type Delivery,
  type EventsOptions,
  type ResetOptions,
  type WaitForDeliveryOptions,
} from "./admin/client.js";
export type { AdminEvent, AdminEventOf, EventSubscription, ReceivedEvent } from "./admin/event-stream.js";
export type { components as AdminComponents, paths as AdminPaths } from "./generated/admin.js";
