/**
 * Resource methods: typed calls that return the response data and throw a typed error for any
 * non-2xx answer. Each auth form gets only the resources its view of the contract contains.
 */
import type { AuthForm, BodySpellings } from "@intake/spec";
import type { Client } from "openapi-fetch";
import { uncertainEffect } from "./effect-advice.js";
import {
  IntakeApiError,
  IntakeConfigError,
  NotFoundError,
  REQUEST_ID,
  errorFromResponse,
  withUncertainEffect,
  type RequestSummary,
} from "./errors.js";
import { isSafeToRepeat } from "./retry-policy.js";
import { checkedHeaders, type ResolvedOptions } from "./options.js";
import { summarize, type CallOverrides, type Transport } from "./transport.js";
import type { ExactlyOne, Forbid, FormsWith, JsonBody, JsonData, MediaChecked, PathsByForm, QueryOf, WithMediaRule } from "./types.js";

/** Options of a single call. */
export interface CallOptions extends CallOverrides {
  /** Aborts the call, retries and backoff included; the call then throws AbortError. */
  signal?: AbortSignal | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/**
 * A call's result, with the service's X-Request-Id for the answer (not enumerable, so it stays out
 * of JSON and spreads). Named with an underscore so that no field of the API can collide with it.
 */
export type WithRequestId<T> = T & { readonly _requestId: string | undefined };

type ContactForms = FormsWith<"/contacts", "post">;
type ListForms = FormsWith<"/lists/{listId}/contacts", "post">;
type P<F extends AuthForm> = PathsByForm[F];
/** The form with the other field spelling, on the operations that have two. */
type OtherSpelling<F extends AuthForm> = F extends "query" ? "bearer" : "query";
/** The other form's field names on a path's body, each with this form's name for it. */
type OwnSpelling<F extends AuthForm, Path extends string> = Path extends keyof BodySpellings
  ? "post" extends keyof BodySpellings[Path]
    ? F extends keyof BodySpellings[Path]["post"]
      ? BodySpellings[Path]["post"][F]
      : never
    : never
  : never;
type SpelledBody<F extends AuthForm, Path extends string> = Path extends keyof P<F> & keyof P<OtherSpelling<F>>
  ? "post" extends keyof P<F>[Path] & keyof P<OtherSpelling<F>>[Path]
    ? Forbid<JsonBody<P<F>, Path, "post">, JsonBody<P<OtherSpelling<F>>, Path, "post">, OwnSpelling<F, Path>, OtherSpelling<F>>
    : never
  : never;

/**
 * The body a call takes, worked out from the body given (B): one that carries a field of the other
 * spelling gets that field's rule as its type, so a body held in a variable is refused with
 * "phone_number is the bearer form's spelling: use phone" rather than with whichever required
 * field TypeScript happens to pick as missing. Any other body is checked against the contract's.
 */
type Checked<F extends AuthForm, Path extends string, B> = [Extract<keyof B, keyof OwnSpelling<F, Path>>] extends [never]
  ? SpelledBody<F, Path>
  : {
      [K in keyof B]: K extends keyof OwnSpelling<F, Path>
        ? `${K & string} is the ${OtherSpelling<F>} form's spelling: use ${OwnSpelling<F, Path>[K] & string}`
        : B[K];
    };

export interface ContactsResource<F extends ContactForms> {
  /**
   * Creates a contact; with a phone number (or email) that is already known, returns the existing
   * contact instead of making a duplicate.
   */
  create<B>(body: Checked<F, "/contacts", B>, options?: CallOptions): Promise<WithRequestId<JsonData<P<F>, "/contacts", "post">>>;
  /** The contact with this phone number or email, or `null` when there is none. */
  find(
    by: ExactlyOne<QueryOf<P<F>, "/contacts", "get">>,
    options?: CallOptions,
  ): Promise<WithRequestId<JsonData<P<F>, "/contacts", "get"> extends { contact: infer C } ? C : never> | null>;
}

export interface ListsResource<F extends ListForms> {
  /** Adds an existing contact to a list; a second add is a success with `added: false`. */
  addContact<B>(
    listId: string,
    body: Checked<F, "/lists/{listId}/contacts", B>,
    options?: CallOptions,
  ): Promise<WithRequestId<JsonData<P<F>, "/lists/{listId}/contacts", "post">>>;
}

export interface MessagesResource {
  /** Records a message your own system sent to a contact on a custom channel. */
  send(
    body: JsonBody<P<"query">, "/send_custom_channel_message", "post">,
    options?: CallOptions,
  ): Promise<WithRequestId<JsonData<P<"query">, "/send_custom_channel_message", "post">>>;
  /**
   * Hands the service a message a user sent on your platform. Safe to retry: the service never
   * processes a messageSid twice.
   */
  receive<B>(
    body: MediaChecked<WithMediaRule<JsonBody<P<"query">, "/incoming_custom_channel_message", "post">>, B>,
    options?: CallOptions,
  ): Promise<WithRequestId<JsonData<P<"query">, "/incoming_custom_channel_message", "post">>>;
}

export interface SubaccountsResource {
  /**
   * Grants credits to an agency's sub-account. Not retried after a 5xx or a lost connection: a
   * grant must not be doubled. Pass the auto-recharge webhook's idempotency_key as idempotencyKey.
   */
  grantCredits(
    body: JsonBody<P<"header">, "/subaccounts/credits", "post">,
    options?: CallOptions & { idempotencyKey?: string | undefined },
  ): Promise<WithRequestId<JsonData<P<"header">, "/subaccounts/credits", "post">>>;
}

export interface ResourcesByForm {
  query: { contacts: ContactsResource<"query">; lists: ListsResource<"query">; messages: MessagesResource };
  header: { subaccounts: SubaccountsResource };
  bearer: { contacts: ContactsResource<"bearer">; lists: ListsResource<"bearer"> };
}

interface CallInit {
  params?: { query?: Record<string, unknown>; path?: Record<string, unknown>; header?: Record<string, string> | undefined };
  body?: unknown;
}

// The public interfaces above carry the types; inside, one untyped call path serves every form.
type LooseClient = Client<Record<string, Record<string, unknown>>>;

/**
 * JSON whatever Content-Type a call's headers give: the API takes nothing else, and openapi-fetch's
 * default would write a form body for `application/x-www-form-urlencoded`.
 */
const asJson = (body: unknown) => JSON.stringify(body);

function caller(raw: LooseClient, send: Transport, options: ResolvedOptions) {
  const basePath = new URL(options.baseUrl).pathname.replace(/\/$/, "");
  const rawRequest = raw.request as (method: string, path: string, init: object) => ReturnType<LooseClient["GET"]>;

  return async function call<T>(
    method: "GET" | "POST",
    path: string,
    init: CallInit,
    { signal, timeoutMs, maxRetries, headers }: CallOptions = {},
  ): Promise<T> {
    const pathParams = init.params?.path;
    for (const name in pathParams) {
      const value = pathParams[name];
      // A URL path cannot carry these: any URL parser folds them into the path ("/lists/../contacts" is "/contacts").
      if (value === "." || value === "..")
        throw new IntakeConfigError(`${name} cannot be "${value}": no record has that id, and a URL cannot carry it.`);
    }
    // The Request openapi-fetch hands to fetch (after any middleware), and the transport's answer.
    let sent: Request | undefined;
    let answer: Response | undefined;
    // Until something is sent, the path alone (a middleware may answer without sending anything).
    const summary = (): RequestSummary => (sent ? summarize(sent, options) : { method, url: path });
    let result: Awaited<ReturnType<LooseClient["GET"]>>;
    try {
      result = await rawRequest(method, path, {
        body: init.body,
        params: { query: init.params?.query, path: pathParams },
        headers: {
          ...(headers && checkedHeaders("The headers call option", headers, options.apiKey)),
          ...(init.params?.header && checkedHeaders("idempotencyKey", init.params.header, options.apiKey)),
        },
        bodySerializer: asJson,
        // The caller's signal goes to the transport, not into openapi-fetch's Request: a Request
        // keeps a listener on it until garbage collection (thousands on one long-lived signal).
        fetch: async (request: Request) => {
          sent = request;
          return (answer = await send(request, { signal, timeoutMs, maxRetries }));
        },
      });
    } catch (error) {
      // openapi-fetch parses a 2xx body as JSON; anything else is not the API answering.
      if (error instanceof SyntaxError && answer) throw unexpected(answer, summary(), "a body that is not JSON");
      throw error;
    }
    const { data, error, response } = result;
    if (!response.ok) {
      const failure = errorFromResponse(response, error, summary(), options.apiKey);
      // A 5xx of a call that is not safe to repeat was not retried: it may have taken effect.
      if (response.status >= 500 && sent) {
        const path = new URL(sent.url).pathname.slice(basePath.length);
        const body = init.body === undefined ? undefined : (new TextEncoder().encode(asJson(init.body)).buffer as ArrayBuffer);
        if (!isSafeToRepeat(method, path, body)) throw withUncertainEffect(failure, uncertainEffect(path, sent.headers));
      }
      throw failure;
    }
    if (data === undefined) throw unexpected(response, summary(), "an empty body");
    return withRequestId(data, response) as T;
  };
}

/** The value with the answer's request id on it, where it is an object that can carry one. */
function withRequestId<T>(value: T, response: Response): T {
  if (typeof value === "object" && value !== null && Object.isExtensible(value)) {
    Object.defineProperty(value, "_requestId", { value: response.headers.get(REQUEST_ID) ?? undefined, enumerable: false });
  }
  return value;
}

function unexpected(response: Response, summary: RequestSummary, what: string) {
  return new IntakeApiError({
    status: response.status,
    code: undefined,
    message: `${summary.method} ${summary.url} answered ${response.status} with ${what}; expected JSON. Is baseUrl the Intake API?`,
    headers: response.headers,
    body: undefined,
    request: summary,
  });
}

export function buildResources<F extends AuthForm>(
  form: F,
  raw: LooseClient,
  send: Transport,
  options: ResolvedOptions,
): ResourcesByForm[F] {
  const call = caller(raw, send, options);
  const contacts = {
    create: (body: unknown, options?: CallOptions) => call("POST", "/contacts", { body }, options),
    find: async (by: Record<string, unknown>, options?: CallOptions) => {
      try {
        const found = await call<{ contact: unknown; _requestId?: string }>("GET", "/contacts", { params: { query: by } }, options);
        // The contact carries the id of the answer it came in.
        if (typeof found.contact === "object" && found.contact !== null)
          Object.defineProperty(found.contact, "_requestId", { value: found._requestId, enumerable: false });
        return found.contact;
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
    grantCredits: (body: unknown, options: CallOptions & { idempotencyKey?: string | undefined } = {}) => {
      const { idempotencyKey, ...rest } = options;
      const header = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : undefined;
      return call("POST", "/subaccounts/credits", { body, params: { header } }, rest);
    },
  };
  const all = { contacts, lists, messages, subaccounts };
  const byForm = Object.fromEntries(
    Object.entries(OFFERED).map(([name, offered]) => [name, Object.fromEntries(offered.map((r) => [r, all[r]]))]),
  );
  return byForm[form] as unknown as ResourcesByForm[F];
}

/** Which resources each auth form's view of the contract has. */
const OFFERED: { [F in AuthForm]: Array<keyof ResourcesByForm[F]> } = {
  query: ["contacts", "lists", "messages"],
  header: ["subaccounts"],
  bearer: ["contacts", "lists"],
};

/**
 * Getters for the resources this form lacks, each throwing an error that names the forms that
 * have it: TypeScript refuses them, but plain JavaScript would otherwise meet "Cannot read
 * properties of undefined". Not enumerable, so the client shows and spreads as its resources only.
 */
export function absentResources(form: AuthForm): PropertyDescriptorMap {
  const offered = (name: string) => (Object.keys(OFFERED) as AuthForm[]).filter((f) => (OFFERED[f] as string[]).includes(name));
  const absent = [...new Set(Object.values(OFFERED).flat())].filter((name) => !(OFFERED[form] as string[]).includes(name));
  return Object.fromEntries(
    absent.map((name) => {
      const forms = offered(name).map((f) => `auth: "${f}"`);
      const message = `${name} is not on a client made with auth: "${form}" (it has ${OFFERED[form].join(", ")}): create one with ${forms.join(" or ")} for ${name}.`;
      return [
        name,
        {
          enumerable: false,
          get: () => {
            throw new IntakeConfigError(message);
          },
        },
      ];
    }),
  );
}
