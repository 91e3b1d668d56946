/**
 * The /v1 request pipeline: route (by operationId, from the contract) -> transport -> auth ->
 * rate limit -> validation -> operation -> response in the operation's error shape. Each step
 * either passes or throws an HttpError; nothing is written until every check has passed.
 */
import { document } from "@intake/spec";
import type { JournalEntry } from "../journal.js";
import { handlers } from "../operations/index.js";
import type { OperationId, Services } from "../operations/types.js";
import { authenticate } from "./auth.js";
import { readJson } from "./body.js";
import { HttpError, errorBody, internalError, type ErrorShape } from "./errors.js";
import type { Faults } from "./faults.js";
import type { RateLimiter } from "./rate-limit.js";
import { json } from "./respond.js";
import { buildRoutes, matchRoute } from "./routes.js";
import { requireHttps } from "./transport.js";
import { compileApiValidators } from "./validation.js";

export const API_BASE = "/v1";

export interface ApiOptions {
  services: Services;
  rateLimiter: RateLimiter;
  faults: Faults;
  maxBodyBytes: number;
  trustForwardedProto: boolean;
  requestId: () => string;
  record: (entry: JournalEntry) => void;
  onError: (error: unknown) => void;
}

export function createApi(options: ApiOptions): (request: Request) => Promise<Response> {
  const routes = buildRoutes<OperationId>(document);
  const validatorFor = compileApiValidators(document);
  const { services } = options;
  const { clock } = services;

  return async function handle(request) {
    try {
      return await pipeline(request);
    } catch (error) {
      // Only reached when the pipeline's own bookkeeping failed (the clock, the journal).
      options.onError(error);
      const shape = matchRoute(routes, request.method, new URL(request.url).pathname.slice(API_BASE.length));
      return json(500, errorBody(shape.kind === "not-found" ? "general" : shape.kind === "found" ? shape.route.shape : shape.shape, internalError()), new Headers());
    }
  };

  async function pipeline(request: Request): Promise<Response> {
    const started = clock.now();
    const url = new URL(request.url);
    const path = url.pathname.startsWith(`${API_BASE}/`) ? url.pathname.slice(API_BASE.length) : url.pathname;
    const headers = new Headers({ date: new Date(started).toUTCString(), "x-request-id": options.requestId() });
    const entry: JournalEntry = {
      id: headers.get("x-request-id")!,
      at: new Date(started).toISOString(),
      method: request.method,
      path: url.pathname,
      query: redactedQuery(url),
      operationId: null,
      authForm: null,
      accountId: null,
      status: 0,
      errorCode: null,
      fault: null,
      durationMs: 0,
      requestBody: null,
      responseBody: null,
    };
    let shape: ErrorShape = "general";
    let status: number;
    let body: unknown;
    try {
      const match = url.pathname.startsWith(`${API_BASE}/`) ? matchRoute(routes, request.method, path) : ({ kind: "not-found" } as const);
      if (match.kind === "wrong-method") shape = match.shape;
      if (match.kind === "found") shape = match.route.shape;
      requireHttps(request, url, options.trustForwardedProto);
      if (match.kind === "not-found") {
        throw new HttpError(404, "NOT_FOUND", `No operation at ${request.method} ${url.pathname}. Paths start with ${API_BASE}/, for example ${API_BASE}/contacts.`);
      }
      if (match.kind === "wrong-method") {
        throw new HttpError(
          405,
          "METHOD_NOT_ALLOWED",
          `Method ${request.method} is not allowed on ${match.template}; use ${match.allow.join(" or ")}.`,
          { allow: match.allow.join(", ") },
        );
      }
      const { route } = match;
      entry.operationId = route.operationId;
      const fault = options.faults.pick(route.operationId);
      if (fault) {
        entry.fault = fault.ruleId;
        if (fault.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
        if (fault.drop) {
          entry.errorCode = "CONNECTION_DROPPED";
          options.record(entry);
          return Response.error();
        }
        if (fault.status !== null) throw injected(fault.status, fault.retryAfter, fault.ruleId);
      }
      const auth = authenticate(request, url, route, services.store);
      entry.authForm = auth.form;
      entry.accountId = auth.account.id;
      for (const [name, value] of Object.entries(options.rateLimiter.take(auth.key))) headers.set(name, value);
      const validator = validatorFor(route.operationId, auth.form);
      const query = validator.query(url) as Record<string, string>;
      const params = validator.path(match.params);
      validator.header(request.headers);
      const input = route.takesBody ? await readJson(request, options.maxBodyBytes) : undefined;
      entry.requestBody = input ?? null;
      validator.body(input);
      const handler = handlers[route.operationId] as (i: object, s: Services) => ReturnType<(typeof handlers)[typeof route.operationId]>;
      const result = await handler(
        { account: auth.account, form: auth.form, body: input, query, params, headers: request.headers },
        services,
      );
      for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, value);
      status = result.status;
      body = result.body;
    } catch (caught) {
      const error = caught instanceof HttpError ? caught : (options.onError(caught), internalError());
      for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
      status = error.status;
      body = errorBody(shape, error);
      entry.errorCode = error.code;
    }
    entry.status = status;
    entry.responseBody = body;
    entry.durationMs = clock.now() - started;
    options.record(entry);
    return json(status, body, headers);
  }
}

function injected(status: number, retryAfter: number, ruleId: string): HttpError {
  const message = `Injected fault ${ruleId}: ${status}. See GET /__admin/faults.`;
  const wait: Record<string, string> = status === 429 || status === 503 ? { "retry-after": String(retryAfter) } : {};
  return new HttpError(status, status === 429 ? "RATE_LIMITED" : "INTERNAL_ERROR", message, wait);
}

function redactedQuery(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name === "apiKey" ? "[REDACTED]" : value;
  return query;
}
