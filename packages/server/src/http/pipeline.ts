/**
 * The request pipeline: a chain of small steps, each `(context, next)`, in the manner of Hono's
 * and Koa's `compose`. A step reads and fills the request's context, and either calls `next()`
 * to hand on, returns without calling it to end the chain, or throws an HttpError that the
 * `respond` step turns into the answer. /v1 and /__admin are two chains of the same steps.
 */
import type { AuthForm } from "@intake/spec";
import type { AccountRecord } from "../store/models.js";
import { HttpError, errorBody, internalError, type ErrorShape } from "../shared/errors.js";
import { httpDate, jsonResponse, type ApiRequest, type ApiResponse } from "./exchange.js";
import type { Route, RouteMatch } from "./routes.js";

/** What a handler answers: a 2xx status and its body. */
export interface Result {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as it comes instead of `body`, with `headers` saying its type (the live events). */
  stream?: ReadableStream<Uint8Array>;
}

/** One request on its way through the steps. */
export interface Context {
  readonly request: ApiRequest;
  readonly url: URL;
  /** When it arrived, on the server's clock. */
  started: number;
  /** The answer's headers, whatever the answer turns out to be. */
  readonly headers: Record<string, string>;
  /** The shape an error answer takes: the general one until the route says otherwise. */
  shape: ErrorShape;
  requestId?: string;
  match?: RouteMatch;
  route?: Route;
  params?: Record<string, string>;
  /** The fault rule that hit the request, if one did. */
  fault?: string;
  /** The API key and the form it came in (/v1). */
  auth?: { form: AuthForm; key: string };
  /** The account the request acts for, once its key is known (/v1). */
  account?: AccountRecord;
  /** The body's text, as sent (what the journal keeps). */
  bodyText?: string;
  /** The request's checked input. */
  input?: { query: Record<string, unknown>; params: Record<string, string>; body: unknown };
  /** What the handler answered. */
  result?: Result;
  /** Close the connection without an answer (a fault rule). */
  drop?: boolean;
  /** The code of the error answered, if one was. */
  errorCode?: string;
  response?: ApiResponse;
}

export type Next = () => Promise<void>;
export type Step = (context: Context, next: Next) => Promise<void> | void;

/** One step made of many: each step's `next` runs the rest of the chain. */
export function compose(steps: readonly Step[]): (context: Context) => Promise<void> {
  return (context) => {
    let reached = -1;
    const dispatch = async (index: number): Promise<void> => {
      // A step that called next twice would run the rest of the chain (and its writes) twice.
      if (index <= reached) throw new Error("A pipeline step called next() more than once.");
      reached = index;
      await steps[index]?.(context, () => dispatch(index + 1));
    };
    return dispatch(0);
  };
}

export interface PipelineOptions {
  now: () => number;
  onError: (error: unknown) => void;
  /** Numbers each request (X-Request-Id, and the journal's id). */
  requestId?: () => string;
}

/** A chain of steps as a request handler. The chain must have `respond` in it. */
export function pipeline(steps: readonly Step[], { now, onError, requestId }: PipelineOptions): (request: ApiRequest) => Promise<ApiResponse> {
  const run = compose(steps);
  return async (request) => {
    const context: Context = { request, url: request.url, started: NaN, headers: {}, shape: "general" };
    // Numbered first: whatever fails after, the answer carries the id a caller can quote.
    if (requestId) context.headers["x-request-id"] = context.requestId = requestId();
    try {
      context.started = now();
      context.headers.date = httpDate(context.started);
      await run(context);
      if (context.response) return context.response;
      throw new Error("The pipeline ended without an answer: it needs the respond step.");
    } catch (error) {
      // Only reached when the clock or a step outside `respond` (the journal) failed.
      onError(error);
      return jsonResponse(500, errorBody(context.shape, internalError()), context.headers);
    }
  };
}

/**
 * Turns what the steps after it did into the answer: the handler's result, or the error thrown,
 * in the route's error shape. Unexpected errors reach `onError` and the client sees a plain 500.
 */
export function respond(onError: (error: unknown) => void): Step {
  return async (context, next) => {
    try {
      await next();
      if (context.drop) {
        context.errorCode = "CONNECTION_DROPPED";
        context.response = { status: 0, headers: {}, body: null, drop: true };
        return;
      }
      const result = context.result;
      if (!result) throw new Error(`No step answered ${context.request.method} ${context.url.pathname}.`);
      if (result.headers) Object.assign(context.headers, result.headers);
      context.response = result.stream
        ? { status: result.status, headers: context.headers, body: null, stream: result.stream }
        : jsonResponse(result.status, result.body, context.headers);
    } catch (caught) {
      const error = caught instanceof HttpError ? caught : (onError(caught), internalError());
      Object.assign(context.headers, error.headers);
      context.errorCode = error.code;
      context.response = jsonResponse(error.status, errorBody(context.shape, error), context.headers);
    }
  };
}

/** What an answer waits for before it is given, if anything: the data file's commit of its changes. */
export type AnswerHold = () => Promise<void> | undefined;

/**
 * Holds the answer to a request that changed the state, or could confirm a change (any method
 * but GET: a retried grant answers what an earlier one did), until everything changed so far is
 * saved. After `respond`, so a save that fails is answered in the route's error shape instead of
 * the success it would have confirmed. `version` counts the state's changes: a read answers at once.
 */
export function holdAnswer(hold: AnswerHold, version: () => number): Step {
  return async (context, next) => {
    const before = version();
    try {
      await next();
    } finally {
      // Errors too: what a failed request changed before it failed is saved before it is told.
      const wait = context.request.method === "GET" && version() === before ? undefined : hold();
      if (wait) await wait;
    }
  };
}
