/**
 * Resource methods: typed calls that return the response data and throw a typed error for any
 * non-2xx answer. Each auth form gets only the resources its view of the contract contains.
 */
import type { AuthForm } from "@intake/spec";
import type { Client } from "openapi-fetch";
import { IntakeApiError, IntakeConfigError, NotFoundError, errorFromResponse, type Received, type RequestSummary } from "./errors.js";
import { checkedHeaders, type ResolvedOptions } from "./options.js";
import { NULL_BODY_STATUS, fetchFor, type Answer, type CallOverrides, type Outgoing, type Send } from "./transport.js";
import type { ExactlyOne, Forbid, FormsWith, JsonBody, JsonData, PathsByForm, QueryOf, WithMediaRule } from "./types.js";

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
/** The form with the other field spelling, on the operations that have two. */
type OtherSpelling<F extends AuthForm> = F extends "query" ? "bearer" : "query";
type SpelledBody<F extends AuthForm, Path extends string> = Path extends keyof P<F> & keyof P<OtherSpelling<F>>
  ? "post" extends keyof P<F>[Path] & keyof P<OtherSpelling<F>>[Path]
    ? Forbid<JsonBody<P<F>, Path, "post">, JsonBody<P<OtherSpelling<F>>, Path, "post">>
    : never
  : never;

export interface ContactsResource<F extends ContactForms> {
  /**
   * Creates a contact; with a phone number (or email) that is already known, returns the existing
   * contact instead of making a duplicate.
   */
  create(body: SpelledBody<F, "/contacts">, options?: CallOptions): Promise<JsonData<P<F>, "/contacts", "post">>;
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
    body: SpelledBody<F, "/lists/{listId}/contacts">,
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
    body: WithMediaRule<JsonBody<P<"query">, "/incoming_custom_channel_message", "post">>,
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
  params?: { query?: Record<string, unknown>; path?: Record<string, unknown>; header?: Record<string, string> };
  body?: unknown;
}

// The public interfaces above carry the types; inside, one untyped call path serves every form.
type LooseClient = Client<Record<string, Record<string, unknown>>>;

/** What a resource call needs from the client that owns it. */
export interface ResourceContext {
  raw: LooseClient;
  send: Send;
  options: ResolvedOptions;
  /** Whether middleware is registered on `raw`: resource calls then go through it too. */
  hasMiddleware: () => boolean;
}

function caller({ raw, send, options, hasMiddleware }: ResourceContext) {
  const decoder = new TextDecoder();

  return async function call<T>(method: "GET" | "POST", path: string, init: CallInit, callOptions: CallOptions = {}): Promise<T> {
    const pathParams = init.params?.path;
    for (const name in pathParams) {
      const value = pathParams[name];
      // A URL path cannot carry these: any URL parser folds them into the path ("/lists/../contacts" is "/contacts").
      if (value === "." || value === "..") throw new IntakeConfigError(`${name} cannot be "${value}": no record has that id, and a URL cannot carry it.`);
    }
    const headers = {
      ...(callOptions.headers && checkedHeaders("The headers call option", callOptions.headers)),
      ...(init.params?.header && checkedHeaders("idempotencyKey", init.params.header)),
    };
    const plain = !hasMiddleware() && scalars(init.params?.query, false) && scalars(init.params?.path, true);
    return plain ? direct<T>(method, path, init, headers, callOptions) : viaOpenapiFetch<T>(method, path, init, headers, callOptions);
  };

  /** Straight to the transport: the same request openapi-fetch would build, without its Request and Response. */
  async function direct<T>(method: string, path: string, init: CallInit, headers: Record<string, string>, { signal, timeoutMs, maxRetries }: CallOptions): Promise<T> {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const outgoing: Outgoing = {
      method,
      url: options.baseUrl + expandPath(path, init.params?.path) + queryString(init.params?.query),
      headers: body === undefined ? headers : { ...JSON_CONTENT, ...headers },
      body,
      signal,
    };
    const answer = await send(outgoing, { timeoutMs, maxRetries });
    const text = NULL_BODY_STATUS.has(answer.status) ? "" : decoder.decode(answer.body);
    if (answer.status < 200 || answer.status > 299) {
      // As openapi-fetch reads an error: no body when Content-Length says 0, else JSON when it parses.
      const parsed = answer.headers.get("content-length") === "0" ? undefined : parseLoosely(text);
      throw errorFromResponse(answer, parsed, answer.summary(), options.apiKey);
    }
    if (!text) throw unexpected(answer, answer.summary(), "an empty body");
    try {
      return JSON.parse(text) as T;
    } catch {
      throw unexpected(answer, answer.summary(), "a body that is not JSON");
    }
  }

  /**
   * Through openapi-fetch: so its middleware sees the call as it sees `raw` calls, and so its
   * serializers decide what a value the types do not allow (an array, an object) becomes.
   */
  async function viaOpenapiFetch<T>(method: string, path: string, init: CallInit, headers: Record<string, string>, { signal, timeoutMs, maxRetries }: CallOptions): Promise<T> {
    // The path alone until an answer comes (a middleware may answer without sending anything).
    let answered: Answer | undefined;
    const summary = (): RequestSummary => answered?.summary() ?? { method, url: path };
    const request = raw.request as (m: string, p: string, i: object) => ReturnType<LooseClient["GET"]>;
    let result: Awaited<ReturnType<LooseClient["GET"]>>;
    try {
      result = await request(method, path, {
        body: init.body,
        params: { query: init.params?.query, path: init.params?.path },
        // JSON whatever the content type says, as the direct path sends it: the API takes nothing else.
        bodySerializer: asJson,
        headers,
        fetch: fetchFor(send, { timeoutMs, maxRetries }, signal, (answer) => (answered = answer)),
      });
    } catch (error) {
      // openapi-fetch parses a 2xx body as JSON; anything else is not the API answering.
      if (error instanceof SyntaxError && answered) throw unexpected(answered, summary(), "a body that is not JSON");
      throw error;
    }
    const { data, error, response } = result;
    if (!response.ok) throw errorFromResponse(response, error, summary(), options.apiKey);
    if (data === undefined) throw unexpected(response, summary(), "an empty body");
    return data as T;
  }
}

const JSON_CONTENT = { "content-type": "application/json" };
const asJson = (body: unknown) => JSON.stringify(body);

/** Whether every value is a string, number or boolean (absent ones too, unless `required`): what `direct` writes. */
function scalars(values: Record<string, unknown> | undefined, required: boolean): boolean {
  for (const name in values) {
    const value = values[name];
    if (value === undefined || value === null) {
      if (required) return false;
    } else if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return false;
  }
  return true;
}

/** Path parameters the way openapi-fetch's default serializer puts them: percent-encoded. */
function expandPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{([^{}]+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name])));
}

/** Query parameters the way openapi-fetch's default serializer writes strings; absent ones left out. */
function queryString(query: Record<string, unknown> | undefined): string {
  let out = "";
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    out += `${out ? "&" : "?"}${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`;
  }
  return out;
}

/** An error body as JSON when it is JSON, else as text (a proxy's page). */
function parseLoosely(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function unexpected(response: Received, summary: RequestSummary, what: string) {
  return new IntakeApiError({
    status: response.status,
    code: undefined,
    message: `${summary.method} ${summary.url} answered ${response.status} with ${what}; expected JSON. Is baseUrl the Intake API?`,
    headers: response.headers,
    body: undefined,
    request: summary,
  });
}

export function buildResources<F extends AuthForm>(form: F, context: ResourceContext): ResourcesByForm[F] {
  const call = caller(context);
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
