/**
 * Resource methods: typed calls that return the response data and throw a typed error for any
 * non-2xx answer. Each auth form gets only the resources its view of the contract contains.
 */
import type { AuthForm } from "@intake/spec";
import type { Client } from "openapi-fetch";
import { NotFoundError, errorFromResponse, type RequestSummary } from "./errors.js";
import { requestSummaryOf, type CallOverrides, type Send } from "./transport.js";
import type { ExactlyOne, FormsWith, JsonBody, JsonData, PathsByForm, QueryOf } from "./types.js";

/** Options of a single call. */
export interface CallOptions extends CallOverrides {
  /** Aborts the call, retries and backoff included; the call then throws AbortError. */
  signal?: AbortSignal;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

type ContactForms = FormsWith<"/contacts", "post">;
type ListForms = FormsWith<"/lists/{listId}/contacts", "post">;
type P<F extends AuthForm> = PathsByForm[F];

export interface ContactsResource<F extends ContactForms> {
  /**
   * Creates a contact; with a phone number (or email) that is already known, returns the existing
   * contact instead of making a duplicate.
   */
  create(body: JsonBody<P<F>, "/contacts", "post">, options?: CallOptions): Promise<JsonData<P<F>, "/contacts", "post">>;
  /** The contact with this phone number or email, or `null` when there is none. */
  find(
    by: ExactlyOne<QueryOf<P<F>, "/contacts", "get">>,
    options?: CallOptions,
  ): Promise<(JsonData<P<F>, "/contacts", "get"> extends { contact: infer C } ? C : never) | null>;
}

export interface ListsResource<F extends ListForms> {
  /** Adds an existing contact to a list; a second add is a success with `added: false`. */
  addContact(
    listId: string,
    body: JsonBody<P<F>, "/lists/{listId}/contacts", "post">,
    options?: CallOptions,
  ): Promise<JsonData<P<F>, "/lists/{listId}/contacts", "post">>;
}

export interface MessagesResource {
  /** Records a message your own system sent to a contact on a custom channel. */
  send(
    body: JsonBody<P<"query">, "/send_custom_channel_message", "post">,
    options?: CallOptions,
  ): Promise<JsonData<P<"query">, "/send_custom_channel_message", "post">>;
  /**
   * Hands the service a message a user sent on your platform. Safe to retry: the service never
   * processes a messageSid twice.
   */
  receive(
    body: JsonBody<P<"query">, "/incoming_custom_channel_message", "post">,
    options?: CallOptions,
  ): Promise<JsonData<P<"query">, "/incoming_custom_channel_message", "post">>;
}

export interface SubaccountsResource {
  /**
   * Grants credits to an agency's sub-account. Not retried after a 5xx or a lost connection: a
   * grant must not be doubled. Pass the auto-recharge webhook's idempotency_key as idempotencyKey.
   */
  grantCredits(
    body: JsonBody<P<"header">, "/subaccounts/credits", "post">,
    options?: CallOptions & { idempotencyKey?: string },
  ): Promise<JsonData<P<"header">, "/subaccounts/credits", "post">>;
}

export interface ResourcesByForm {
  query: { contacts: ContactsResource<"query">; lists: ListsResource<"query">; messages: MessagesResource };
  header: { subaccounts: SubaccountsResource };
  bearer: { contacts: ContactsResource<"bearer">; lists: ListsResource<"bearer"> };
}

interface CallInit {
  params?: { query?: Record<string, unknown>; path?: Record<string, unknown>; header?: Record<string, unknown> };
  body?: unknown;
}

// The public interfaces above carry the types; inside, one untyped call path serves every form.
type LooseClient = Client<Record<string, Record<string, unknown>>>;

function caller(raw: LooseClient, send: Send) {
  return async function call<T>(method: "GET" | "POST", path: string, init: CallInit, options: CallOptions = {}): Promise<T> {
    const { signal, headers, timeoutMs, maxRetries } = options;
    let sent: RequestSummary = { method, url: path };
    const { data, error, response } = await (raw.request as (m: string, p: string, i: object) => ReturnType<LooseClient["GET"]>)(
      method,
      path,
      {
        ...init,
        ...(signal ? { signal } : {}),
        headers,
        fetch: (request: Request) => {
          sent = { method: request.method, url: request.url };
          return send(request, { timeoutMs, maxRetries });
        },
      },
    );
    if (!response.ok) throw errorFromResponse(response, error, requestSummaryOf(response) ?? sent);
    return data as T;
  };
}

export function buildResources<F extends AuthForm>(form: F, raw: LooseClient, send: Send): ResourcesByForm[F] {
  const call = caller(raw, send);
  const contacts = {
    create: (body: unknown, options?: CallOptions) => call("POST", "/contacts", { body }, options),
    find: async (by: Record<string, unknown>, options?: CallOptions) => {
      try {
        return (await call<{ contact: unknown }>("GET", "/contacts", { params: { query: by } }, options)).contact;
      } catch (error) {
        // Only "no such contact" is an answer; any other 404 (a wrong base URL) stays an error.
        if (error instanceof NotFoundError && error.code === "CONTACT_NOT_FOUND") return null;
        throw error;
      }
    },
  };
  const lists = {
    addContact: (listId: string, body: unknown, options?: CallOptions) =>
      call("POST", "/lists/{listId}/contacts", { params: { path: { listId } }, body }, options),
  };
  const messages = {
    send: (body: unknown, options?: CallOptions) => call("POST", "/send_custom_channel_message", { body }, options),
    receive: (body: unknown, options?: CallOptions) => call("POST", "/incoming_custom_channel_message", { body }, options),
  };
  const subaccounts = {
    grantCredits: (body: unknown, options: CallOptions & { idempotencyKey?: string } = {}) => {
      const { idempotencyKey, ...rest } = options;
      const header = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : undefined;
      return call("POST", "/subaccounts/credits", { body, params: { header } }, rest);
    },
  };
  const byForm = {
    query: { contacts, lists, messages },
    header: { subaccounts },
    bearer: { contacts, lists },
  };
  return byForm[form] as unknown as ResourcesByForm[F];
}
