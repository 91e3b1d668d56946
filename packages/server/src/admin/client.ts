/**
 * A typed client of the admin API, for tests: seed and reset, advance the virtual clock, read the
 * journal, messages and deliveries, wait for a delivery, inject faults, follow the live events. Built on openapi-fetch
 * with admin-openapi.yaml's types; runs wherever fetch does (Node, a browser page with msw).
 */
import createClient from "openapi-fetch";
import type { components, paths } from "../generated/admin.js";
import { readEvents, type EventSubscription } from "./event-stream.js";
import { waitForDelivery, type WaitForDeliveryOptions } from "./wait-for-delivery.js";

export { DeliveryWaitError, type WaitForDeliveryOptions } from "./wait-for-delivery.js";

type Schemas = components["schemas"];
export type Delivery = Schemas["Delivery"];

export class AdminApiError extends Error {
  override name = "AdminApiError";
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

function apiError(status: number, error: unknown): AdminApiError {
  const detail = (error as { error?: { code?: string; message?: string } } | undefined)?.error;
  return new AdminApiError(status, detail?.code, detail?.message ?? `The admin API answered ${status}.`);
}

/** The data of an answered call, or an AdminApiError: for calls made through `client.raw`. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiError(response.status, error);
  return data as T;
}

export interface AdminClientOptions {
  /** `https://host:port/__admin`; in a browser page, a path on its origin will do (`/__admin`). */
  adminUrl: string;
  token: string;
  /** A fetch that reaches the server (one that trusts its certificate, or msw's). Default: globalThis.fetch. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

export type AdminClient = ReturnType<typeof createAdminClient>;

/** A list's query: one account's, or every account's (no parameter, under exactOptionalPropertyTypes too). */
const byAccount = (accountId: string | undefined) => (accountId === undefined ? {} : { accountId });

/** How `reset` leaves the clock, and the seed it loads (default: the one the server started with). */
export interface ResetOptions {
  /** `rewind` (default): a virtual clock goes back to where the server started it; `keep`: it stays. A real clock is never moved. */
  clock?: NonNullable<paths["/reset"]["post"]["parameters"]["query"]>["clock"] | undefined;
  seed?: Schemas["Seed"] | undefined;
}

/** A seed's only field is `accounts`: an object with `clock` or `seed` is options. */
function isResetOptions(value: Schemas["Seed"] | ResetOptions | undefined): value is ResetOptions {
  return typeof value === "object" && value !== null && ("clock" in value || "seed" in value);
}

type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;

export interface EventsOptions {
  /** Only this account's events. */
  accountId?: string | undefined;
  /** Replay the events the server still holds after this id first (a reconnection). */
  lastEventId?: number | undefined;
  /** Aborting it closes the subscription. */
  signal?: AbortSignal | undefined;
}

export function createAdminClient(options: AdminClientOptions) {
  const baseUrl = options.adminUrl.replace(/\/$/, "");
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const raw = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${options.token}` }, fetch: send });

  /**
   * Subscribes to GET /events. Resolves once the server has the subscription, so whatever happens
   * after is in it; iterate it with `for await`, and close it (or break out of the loop) when done.
   */
  const events = (subscription: EventsOptions = {}) => subscribe(baseUrl, options.token, send, subscription);

  const client = {
    /** The underlying openapi-fetch client, typed to the whole admin API. */
    raw,

    /**
     * Back to a seed (default: the one the server started with). A virtual clock goes back to where
     * it started unless `{ clock: "keep" }`: each test that resets starts on the same day.
     * `reset(seed, { clock })`, or `reset({ seed, clock })`.
     */
    reset(seedOrOptions?: Schemas["Seed"] | ResetOptions, options: Omit<ResetOptions, "seed"> = {}) {
      const { seed, clock } = isResetOptions(seedOrOptions) ? seedOrOptions : { ...options, seed: seedOrOptions };
      return unwrap(
        raw.POST("/reset", { ...(seed === undefined ? {} : { body: seed }), params: { query: clock === undefined ? {} : { clock } } }),
      );
    },
    seed: (seed: Schemas["Seed"]) => unwrap(raw.POST("/seed", { body: seed })),
    snapshot: () => unwrap(raw.GET("/snapshot")),
    restore: (snapshot: Schemas["Snapshot"]) => unwrap(raw.PUT("/snapshot", { body: snapshot })),

    accounts: () => unwrap(raw.GET("/accounts")),
    account: (accountId: string) => unwrap(raw.GET("/accounts/{accountId}", { params: { path: { accountId } } })),
    createAccount: (input: Schemas["AccountInput"]) => unwrap(raw.POST("/accounts", { body: input })),
    updateAccount: (accountId: string, patch: Schemas["AccountPatch"]) =>
      unwrap(raw.PATCH("/accounts/{accountId}", { params: { path: { accountId } }, body: patch })),
    /** Generates a new API key; the old one stops working at once. */
    rotateApiKey: (accountId: string, apiKey?: string) =>
      unwrap(raw.POST("/accounts/{accountId}/api-key", { params: { path: { accountId } }, ...(apiKey ? { body: { apiKey } } : {}) })),
    createSubaccount: (agencyId: string, input: Schemas["SubaccountInput"]) =>
      unwrap(raw.POST("/accounts/{accountId}/subaccounts", { params: { path: { accountId: agencyId } }, body: input })),
    /** One signed POST to the account's webhook URL now, with a sample payload: what the receiver answered. */
    sendTestWebhook: (accountId: string) => unwrap(raw.POST("/accounts/{accountId}/test-webhook", { params: { path: { accountId } } })),
    credits: (accountId: string) => unwrap(raw.GET("/accounts/{accountId}/credits", { params: { path: { accountId } } })),
    adjustCredits: (accountId: string, amount: number, description?: string) =>
      unwrap(raw.POST("/accounts/{accountId}/credits", { params: { path: { accountId } }, body: { amount, description } })),
    /** Sets the balance (0 rehearses an account with no credits), recorded as one transaction of the difference. */
    setCredits: (accountId: string, balance: number, description?: string) =>
      unwrap(raw.POST("/accounts/{accountId}/credits", { params: { path: { accountId } }, body: { balance, description } })),

    campaigns: (accountId?: string) => unwrap(raw.GET("/campaigns", { params: { query: byAccount(accountId) } })),
    createCampaign: (input: Schemas["CampaignInput"]) => unwrap(raw.POST("/campaigns", { body: input })),
    updateCampaign: (campaignId: string, patch: Schemas["CampaignPatch"]) =>
      unwrap(raw.PATCH("/campaigns/{campaignId}", { params: { path: { campaignId } }, body: patch })),
    /** Deletes a campaign: its lists unlinked, its queued openings and follow-ups cancelled. */
    deleteCampaign: (campaignId: string) => unwrap(raw.DELETE("/campaigns/{campaignId}", { params: { path: { campaignId } } })),
    lists: (accountId?: string) => unwrap(raw.GET("/lists", { params: { query: byAccount(accountId) } })),
    createList: (input: Schemas["ListInput"]) => unwrap(raw.POST("/lists", { body: input })),
    updateList: (listId: string, patch: Schemas["ListPatch"]) =>
      unwrap(raw.PATCH("/lists/{listId}", { params: { path: { listId } }, body: patch })),
    /** Deletes a list and its memberships (its contacts stay). */
    deleteList: (listId: string) => unwrap(raw.DELETE("/lists/{listId}", { params: { path: { listId } } })),
    members: (listId: string) => unwrap(raw.GET("/lists/{listId}/contacts", { params: { path: { listId } } })),
    /** The dashboard's manual add or import: one batch, as the funnel trigger sees it. */
    importContacts: (listId: string, input: Schemas["ImportInput"]) =>
      unwrap(raw.POST("/lists/{listId}/contacts", { params: { path: { listId } }, body: input })),

    contacts: (query: Query<"/contacts"> = {}) => unwrap(raw.GET("/contacts", { params: { query } })),
    contact: (contactId: string) => unwrap(raw.GET("/contacts/{contactId}", { params: { path: { contactId } } })),
    /** A contact made by hand, by the rules of POST /v1/contacts (a known phone number or email answers that contact). */
    createContact: (input: Schemas["ContactInput"]) => unwrap(raw.POST("/contacts", { body: input })),
    /** A message from the contact, as if they sent it: on their custom channel (the receive endpoint's processing) or a built-in one. */
    simulateInbound: (contactId: string, input: Schemas["InboundInput"]) =>
      unwrap(raw.POST("/contacts/{contactId}/inbound", { params: { path: { contactId } }, body: input })),
    /** A reply typed in the app. */
    reply: (contactId: string, body: string) =>
      unwrap(raw.POST("/contacts/{contactId}/replies", { params: { path: { contactId } }, body: { body } })),
    /** Pause or resume the bot for a contact (a hand-off pauses it). */
    setBotPaused: (contactId: string, botPaused: boolean) =>
      unwrap(raw.PATCH("/contacts/{contactId}", { params: { path: { contactId } }, body: { botPaused } })),
    /** Deletes a contact with its conversation, list memberships and pending work. */
    deleteContact: (contactId: string) => unwrap(raw.DELETE("/contacts/{contactId}", { params: { path: { contactId } } })),
    messages: (query: Query<"/messages"> = {}) => unwrap(raw.GET("/messages", { params: { query } })),
    message: (messageId: string) => unwrap(raw.GET("/messages/{messageId}", { params: { path: { messageId } } })),
    /** Asks the bot again about a received message whose answer failed (409 for any other). */
    retryBot: (messageId: string) => unwrap(raw.POST("/messages/{messageId}/retry-bot", { params: { path: { messageId } } })),
    deliveries: (query: Query<"/deliveries"> = {}) => unwrap(raw.GET("/deliveries", { params: { query } })),
    delivery: (deliveryId: string) => unwrap(raw.GET("/deliveries/{deliveryId}", { params: { path: { deliveryId } } })),
    alerts: (accountId?: string) => unwrap(raw.GET("/alerts", { params: { query: byAccount(accountId) } })),

    journal: (query: Query<"/journal"> = {}) => unwrap(raw.GET("/journal", { params: { query } })),
    clearJournal: () => unwrap(raw.DELETE("/journal")),
    /** The bot that answers received messages: deterministic (the default), model-backed, or yours. */
    bot: () => unwrap(raw.GET("/bot")),
    clock: () => unwrap(raw.GET("/clock")),
    /** Moves a virtual clock forward, running whatever falls due on the way. */
    advanceClock: (by: number | { to: string }) => unwrap(raw.POST("/clock/advance", { body: typeof by === "number" ? { ms: by } : by })),
    /** Waits until the work started by earlier requests (bot answers, webhook attempts) has finished. */
    settle: () => unwrap(raw.POST("/settle")),
    jobs: () => unwrap(raw.GET("/jobs")),

    /** The live events (GET /events), as an async iterable; see `events` above. */
    events,

    /** What the account's webhook inbox (/__inbox/{accountId}) received, newest first. */
    inbox: (accountId: string) => unwrap(raw.GET("/inbox/{accountId}", { params: { path: { accountId } } })),
    /** The status the inbox answers from now on (a 2xx, or an error status to rehearse failures). */
    setInboxAnswer: (accountId: string, answerStatus: number) =>
      unwrap(raw.PATCH("/inbox/{accountId}", { params: { path: { accountId } }, body: { answerStatus } })),
    clearInbox: (accountId: string) => unwrap(raw.DELETE("/inbox/{accountId}", { params: { path: { accountId } } })),

    faults: () => unwrap(raw.GET("/faults")),
    setFaults: (rules: Array<Schemas["FaultRuleInput"]>) => unwrap(raw.PUT("/faults", { body: rules })),
    clearFaults: () => unwrap(raw.DELETE("/faults")),

    /**
     * The first delivery that matches and is finished (delivered or failed), waiting for it up to
     * `timeoutMs` (real time, default 4000: under the test runners' 5000). Pass `state: "pending"`
     * to accept one still being retried. Under a virtual clock, when every matching delivery waits
     * for a later attempt, it throws at once a DeliveryWaitError naming the `advanceClock` call
     * that runs it: nothing would happen before the clock is advanced.
     */
    waitForDelivery: (match: (delivery: Delivery) => boolean = () => true, options: WaitForDeliveryOptions = {}): Promise<Delivery> =>
      waitForDelivery(
        { settle: client.settle, deliveries: () => client.deliveries({ limit: 10000 }), clock: client.clock, jobs: client.jobs },
        match,
        options,
      ),
  };
  return client;
}

/** GET /events, open: see `events` of the client. */
async function subscribe(
  baseUrl: string,
  token: string,
  send: (request: Request) => Promise<Response>,
  { accountId, lastEventId, signal }: EventsOptions,
): Promise<EventSubscription> {
  // A string, not a URL: a relative adminUrl ("/__admin" on a page) is the page's to resolve.
  const url = `${baseUrl}/events${accountId === undefined ? "" : `?${new URLSearchParams({ accountId })}`}`;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "text/event-stream" };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  const stop = () => {
    signal?.removeEventListener("abort", onAbort);
    controller.abort();
  };
  try {
    const response = await send(new Request(url, { headers, signal: controller.signal }));
    if (!response.ok || !response.body) {
      const body = (await response.json().catch(() => undefined)) as unknown;
      throw apiError(response.status, body);
    }
    return readEvents(response.body, stop);
  } catch (error) {
    // Refused or never answered: nothing is left listening on the caller's signal.
    stop();
    throw error;
  }
}
