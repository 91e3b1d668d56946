/**
 * The /v1 request pipeline: route (by operationId, from the contract) -> transport -> auth ->
 * rate limit -> validation -> operation -> response in the operation's error shape. Each step
 * either passes or throws an HttpError; nothing is written until every check has passed.
 */
import { document } from "@intake/spec";
import type { JournalRecord } from "../journal.js";
import { handlers } from "../operations/index.js";
import type { OperationId, Services } from "../operations/types.js";
import { accountNow, authenticate } from "./auth.js";
import { readJson } from "./body.js";
import { HttpError, badRequest, errorBody, internalError, type ErrorShape } from "./errors.js";
import { httpDate, jsonResponse, type ApiRequest, type ApiResponse } from "./exchange.js";
import type { Faults } from "./faults.js";
import type { RateLimiter } from "./rate-limit.js";
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
  record: (entry: JournalRecord) => void;
  onError: (error: unknown) => void;
}

export function createApi(options: ApiOptions): (request: ApiRequest) => Promise<ApiResponse> {
  const routes = buildRoutes<OperationId>(document);
  const validatorFor = compileApiValidators(document);
  const { services } = options;
  const { clock } = services;

  return async function handle(request) {
    const id = options.requestId();
    try {
      return await pipeline(request, id);
    } catch (error) {
      // Only reached when the pipeline's own bookkeeping failed (the clock, the journal); the
      // answer still carries its request id, the one thing a caller can quote when reporting it.
      options.onError(error);
      const shape = matchRoute(routes, request.method, request.url.pathname.slice(API_BASE.length));
      return jsonResponse(500, errorBody(shape.kind === "not-found" ? "general" : shape.kind === "found" ? shape.route.shape : shape.shape, internalError()), { "x-request-id": id });
    }
  };

  async function pipeline(request: ApiRequest, id: string): Promise<ApiResponse> {
    const started = clock.now();
    const { url } = request;
    const path = url.pathname.startsWith(`${API_BASE}/`) ? url.pathname.slice(API_BASE.length) : url.pathname;
    const headers: Record<string, string> = { date: httpDate(started), "x-request-id": id };
    const entry: JournalRecord = {
      id,
      at: started,
      method: request.method,
      // A refused request may carry up to 64 KiB of URL: the journal keeps 1 KiB of its path, no query.
      path: request.refusal ? url.pathname.slice(0, 1024) : url.pathname,
      search: request.refusal ? "" : url.search,
      operationId: null,
      authForm: null,
      accountId: null,
      status: 0,
      errorCode: null,
      fault: null,
      durationMs: 0,
      requestText: null,
      responseText: null,
    };
    let shape: ErrorShape = "general";
    let status: number;
    let body: unknown;
    try {
      const match = url.pathname.startsWith(`${API_BASE}/`) ? matchRoute(routes, request.method, path) : ({ kind: "not-found" } as const);
      if (match.kind === "wrong-method") shape = match.shape;
      if (match.kind === "found") shape = match.route.shape;
      if (request.refusal) throw badRequest(request.refusal.code, request.refusal.message);
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
          return { status: 0, headers: {}, body: null, drop: true };
        }
        if (fault.status !== null) throw injected(fault.status, fault.retryAfter, fault.ruleId);
      }
      const auth = authenticate(request, url, route, services.store);
      entry.authForm = auth.form;
      entry.accountId = auth.account.id;
      const limits = options.rateLimiter.take(auth.key);
      Object.assign(headers, limits);
      const validator = validatorFor(route.operationId, auth.form);
      const query = validator.query(url) as Record<string, string>;
      const params = validator.path(match.params);
      validator.header(request.headers);
      const read = route.takesBody ? await readJson(request, options.maxBodyBytes) : undefined;
      const input = read?.value;
      entry.requestText = read?.text ?? null;
      validator.body(input);
      let account = auth.account;
      if (read) {
        try {
          account = accountNow(auth, services.store);
        } catch (refused) {
          // Refused as a request sent with that key now is: no account, no rate-limit headers.
          for (const name of Object.keys(limits)) delete headers[name];
          entry.accountId = null;
          throw refused;
        }
      }
      entry.accountId = account.id;
      const handler = handlers[route.operationId] as (i: object, s: Services) => ReturnType<(typeof handlers)[typeof route.operationId]>;
      const result = await handler(
        { account, form: auth.form, body: input, query, params, headers: request.headers },
        services,
      );
      if (result.headers) Object.assign(headers, result.headers);
      status = result.status;
      body = result.body;
    } catch (caught) {
      const error = caught instanceof HttpError ? caught : (options.onError(caught), internalError());
      Object.assign(headers, error.headers);
      status = error.status;
      body = errorBody(shape, error);
      entry.errorCode = error.code;
    }
    const response = jsonResponse(status, body, headers);
    entry.status = status;
    entry.responseText = response.body;
    entry.durationMs = clock.now() - started;
    options.record(entry);
    return response;
  }
}

function injected(status: number, retryAfter: number, ruleId: string): HttpError {
  const message = `Injected fault ${ruleId}: ${status}. See GET /__admin/faults.`;
  const wait: Record<string, string> = status === 429 || status === 503 ? { "retry-after": String(retryAfter) } : {};
  return new HttpError(status, status === 429 ? "RATE_LIMITED" : "INTERNAL_ERROR", message, wait);
}
