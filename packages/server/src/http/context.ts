/**
 * What a request carries through the pipeline. Every step sees `Context`; what a step finds it
 * adds for the steps after it, which name it in their type (`Step<Authenticated>`). The optional
 * fields are the same facts as the steps that run around the others (the journal) see them: there
 * only if a step got that far.
 */
import type { AuthForm } from "@intake/spec";
import type { ErrorShape } from "../shared/errors.js";
import type { AccountRecord } from "../store/models.js";
import type { ApiRequest } from "../contract/exchange.js";

export type Area = "api" | "admin" | "dashboard" | "inbox";

export interface Route {
  area: Area;
  operationId: string;
  method: string;
  /** The path under the area's base, as its contract writes it: `/lists/{listId}/contacts`. */
  template: string;
  pattern: RegExp;
  paramNames: string[];
  forms: AuthForm[];
  shape: ErrorShape;
  takesBody: boolean;
  /** Whether the body must be sent (else an empty one is no body). */
  bodyRequired: boolean;
}

export type RouteMatch =
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "wrong-method"; allow: string[]; shape: ErrorShape; template: string }
  | { kind: "not-found" };

export interface Context {
  readonly request: ApiRequest;
  readonly url: URL;
  /** Where the service is mounted: "" at the origin's root, `/s/<name>` for a hosted sandbox. */
  readonly base: string;
  /** The URL's path under the base: what routes the request. */
  readonly path: string;
  /** When it arrived, on the server's clock. */
  readonly started: number;
  /** When it arrived, to measure how long it took in real milliseconds (shared/elapsed.ts). */
  readonly timer: number;
  readonly requestId: string;
  /** The answer's headers, whatever the answer turns out to be. */
  readonly headers: Record<string, string>;
  /** The part of the service the path names: it picks the chain, the words and the error shape. */
  area: Area;
  /** The shape an error answer takes: the route's, once it is known. */
  shape: ErrorShape;
  match?: RouteMatch;
  route?: Route;
  auth?: ApiKey;
  account?: AccountRecord;
  /** The fault rule that hit the request, if one did. */
  fault?: string;
  /** The body's text, as sent (what the journal keeps of it, up to 64 KiB). */
  bodyText?: string;
  /** The code of the error answered, if one was. */
  errorCode?: string;
}

export interface ApiKey {
  form: AuthForm;
  key: string;
}

/** The operation the request is for. */
export interface Routed {
  route: Route;
  params: Record<string, string>;
}

/** The account the request acts for, from its API key (/v1). */
export interface Authenticated {
  auth: ApiKey;
  account: AccountRecord;
}

/** The request's input, checked against its operation's contract. */
export interface Checked {
  input: { query: Record<string, unknown>; params: Record<string, string>; body: unknown };
}

/**
 * Adds what a step found to the context, for the steps after it, which then see it in their type:
 * `next(add(context, "account", account))`. Written onto the context itself, which the steps
 * around (the journal) read too.
 */
export function add<C extends Context, K extends string, V>(context: C, key: K, value: V): C & { [P in K]: V } {
  (context as unknown as Record<K, V>)[key] = value;
  return context as C & { [P in K]: V };
}
