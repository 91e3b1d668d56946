/**
 * The one front door: every request, whatever its path and whichever adapter brought it, is
 * numbered, routed (routes.ts) and run through its area's chain of named steps, composed once:
 *
 * | Area | Steps |
 * |---|---|
 * | /v1 (and any request an adapter refused) | record, hold for the data file, adapter's refusal, HTTPS, route, the contract's own document (no key), faults, API key, rate limit, validate, account still current, operation |
 * | /__admin | hold for the data file, HTTPS, route, admin token, validate, operation |
 * | /__dashboard | security headers, HTTPS, route, file |
 * | /__inbox | HTTPS, route, inbox (record the request, answer the account's chosen status) |
 *
 * Nothing is written until every check before the operation has passed. The door has one HTTPS
 * rule for every area (below) and one error-shape rule (exchange.ts's `errorResponse`, which the
 * node adapter uses too when the core cannot answer).
 */
import { document, type OpenApiDocument } from "@intake/spec";
import type { Handler, OperationId, OperationInput, Success } from "../api/types.js";
import type { Domain } from "../domain/domain.js";
import { startTimer } from "../shared/elapsed.js";
import { HttpError, badRequest, internalError } from "../shared/errors.js";
import { hostnameOf, isLoopbackHost } from "../shared/loopback.js";
import { authenticate, confirmAccount, limitRate, requireAdminToken, type RateLimiter } from "./keys.js";
import { Chain, type Ends, type Step } from "./compose.js";
import type { Area, Authenticated, Checked, Context, RouteMatch, Routed } from "./context.js";
import { secureDashboard, serveDashboard, type DashboardFiles } from "./dashboard.js";
import { answerOf, errorResponse, type ApiRequest, type ApiResponse, type HeaderReader, type Result } from "../contract/exchange.js";
import { CONTRACT_ROUTES, serveContractDocument } from "./contract-document.js";
import { injectFaults, type Faults } from "./faults.js";
import { holdAnswer, recordRequest, type AnswerHold } from "./answered.js";
import { INBOX_ROUTES, receiveAtInbox } from "./inbox.js";
import type { Inbox } from "../inbox/inbox.js";
import { BASES, createRouter, DASHBOARD_ROUTES, requireRoute, routesOf, type Router } from "./routes.js";
import { validateRequest } from "./input.js";
import type { OperationValidator } from "../contract/validation.js";
import type { AuthForm } from "@intake/spec";

/** The /v1 operations, by operationId. */
export type ApiOperations = { [Id in OperationId]: Handler<Id> };

/** An admin operation, by operationId, on its checked input. */
export type AdminOperation = (call: { body: unknown; query: Record<string, unknown>; params: Record<string, string>; headers: HeaderReader }) => Result | Promise<Result>;

export interface FrontDoorOptions {
  domain: Domain;
  api: {
    operations: ApiOperations;
    validator(operationId: string, form: AuthForm): OperationValidator;
  };
  admin: {
    /** Its contract, whose operations are its routes. */
    document: OpenApiDocument;
    operation(operationId: string): AdminOperation;
    validator(operationId: string): OperationValidator;
    token: string;
  };
  /** The webhook inbox, which /__inbox/{accountId} records requests in. */
  inbox: Inbox;
  /** The dashboard's files, once an adapter that serves them gave them. */
  dashboardFiles: () => DashboardFiles | undefined;
  rateLimiter: RateLimiter;
  faults: Faults;
  maxBodyBytes: number;
  trustForwardedProto: boolean;
  /** Where the service is mounted ("" at the root): every path is under it. */
  base: string;
  /** Numbers each request of a part of the service (X-Request-Id, and the journal's id). */
  requestId: (area: Area) => string;
  /** What answers wait for (the data file's commit). */
  hold: AnswerHold;
  onError: (error: unknown) => void;
}

export interface FrontDoor {
  handle(request: ApiRequest): Promise<ApiResponse>;
  /**
   * For an adapter whose core could not answer: the adapter's refusal, or else a 500, in the
   * route's shape (one rule for the core and the adapters).
   */
  failed(method: string, pathname: string, refusal?: ApiRequest["refusal"]): ApiResponse;
}

export function createFrontDoor(options: FrontDoorOptions): FrontDoor {
  const { domain, onError } = options;
  const { store, events, clock } = domain;
  const now = () => clock.now();
  const router = serviceRouter(options.admin.document);
  const version = () => store.version;

  const ends: Ends = {
    onError(error, context) {
      const known = error instanceof HttpError ? error : (onError(error), internalError());
      context.errorCode = known.code;
      return errorResponse(context.shape, known, context.headers);
    },
    onUnanswered(context) {
      onError(new Error(`No step answered ${context.request.method} ${context.url.pathname}.`));
      return errorResponse(context.shape, internalError(), context.headers);
    },
  };

  const chains: Record<Area, (context: Context) => Promise<ApiResponse>> = {
    api: Chain.start()
      .then(recordRequest(events))
      .then(holdAnswer(options.hold, version))
      .then(refuseForAdapter)
      .then(requireHttps(options.trustForwardedProto))
      .then(requireRoute)
      .then(serveContractDocument)
      .then(injectFaults(options.faults))
      .then(authenticate(store))
      .then(limitRate(options.rateLimiter))
      .then(validateRequest<Authenticated>((context) => options.api.validator(context.route.operationId, context.auth.form), options.maxBodyBytes))
      .then(confirmAccount(store))
      .then(runApiOperation(options.api.operations, domain))
      .compose(ends),
    admin: Chain.start()
      .then(holdAnswer(options.hold, version))
      .then(requireHttps(options.trustForwardedProto))
      .then(requireRoute)
      .then(requireAdminToken(options.admin.token))
      .then(validateRequest((context) => options.admin.validator(context.route.operationId), options.maxBodyBytes))
      .then(runAdminOperation(options.admin.operation))
      .compose(ends),
    dashboard: Chain.start()
      .then(secureDashboard)
      .then(requireHttps(options.trustForwardedProto))
      .then(requireRoute)
      .then(serveDashboard(options.dashboardFiles))
      .compose(ends),
    inbox: Chain.start()
      .then(requireHttps(options.trustForwardedProto))
      .then(requireRoute)
      .then(receiveAtInbox(options.inbox, store, options.maxBodyBytes))
      .compose(ends),
  };

  const { base } = options;

  return {
    async handle(request) {
      const html = request.headers.get("accept")?.includes("text/html") === true;
      const path = pathUnder(base, request.url.pathname);
      const { area, match } = router.match(request.method, path, request.refusal !== undefined, html);
      const requestId = options.requestId(area);
      const headers: Record<string, string> = { "x-request-id": requestId };
      const shape = shapeOf(area, match);
      try {
        const timer = startTimer();
        const started = now();
        headers.date = new Date(started).toUTCString();
        return await chains[area]({ request, url: request.url, base, path, started, timer, requestId, headers, area, match, shape });
      } catch (error) {
        // Only reached when the clock failed: every step's error is its chain's answer.
        onError(error);
        return errorResponse(shape, internalError(), headers);
      }
    },
    failed(method, pathname, refusal) {
      const error = refusal ? new HttpError(refusal.status ?? 400, refusal.code, refusal.message) : internalError();
      return errorAt(router, base, method, pathname, error, refusal !== undefined);
    },
  };
}

/** The one route table: /v1 and the contract's own document, /__admin from its contract, the dashboard's files, the inbox. */
export function serviceRouter(adminDocument: OpenApiDocument): Router {
  return createRouter({ api: [...routesOf(document, "api"), ...CONTRACT_ROUTES], admin: routesOf(adminDocument, "admin"), dashboard: DASHBOARD_ROUTES, inbox: INBOX_ROUTES });
}

/** The path under the base the service is mounted at; a path outside it is none of the service's, routed as one no area has. */
function pathUnder(base: string, pathname: string): string {
  if (base === "") return pathname;
  if (pathname === base) return "/";
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : "//";
}

/**
 * An error answered in the shape of the route a request names, where the core cannot answer it: an
 * adapter's refusal (`refused`: in the API's shapes, whatever the path), an adapter's last resort,
 * a host with no sandbox of that name or whose sandbox reset while answering.
 */
export function errorAt(router: Router, base: string, method: string, pathname: string, error: HttpError<string>, refused = false): ApiResponse {
  const { area, match } = router.match(method, pathUnder(base, pathname), refused);
  return errorResponse(shapeOf(area, match), error, {});
}

/** The error shape of a request: its route's, else its area's. */
function shapeOf(area: Area, match: RouteMatch) {
  if (match.kind === "found") return match.route.shape;
  if (match.kind === "wrong-method") return match.shape;
  return area === "dashboard" ? "text" : "general";
}

/** Any /v1 operation, its input and answer those of every operation (the route says which it is). */
type AnyApiOperation = (input: OperationInput<OperationId>, domain: Domain) => Success<OperationId> | Promise<Success<OperationId>>;

/** Runs the route's /v1 operation on the checked input. */
function runApiOperation(operations: ApiOperations, domain: Domain): Step<Routed & Authenticated & Checked> {
  return async function runApiOperation(context) {
    const operation = operations[context.route.operationId as OperationId] as AnyApiOperation;
    const { query, params, body } = context.input;
    const input = { account: context.account, form: context.auth.form, body: body as never, query: query as Record<string, string>, params, headers: context.request.headers };
    return answerOf(await operation(input, domain), context.headers);
  };
}

/** Runs the route's admin operation on the checked input. */
function runAdminOperation(operation: (operationId: string) => AdminOperation): Step<Routed & Checked> {
  return async function runAdminOperation(context) {
    const { query, params, body } = context.input;
    return answerOf(await operation(context.route.operationId)({ body, query, params, headers: context.request.headers }), context.headers);
  };
}

// The service accepts HTTPS only. An adapter hands the core a request whose URL says how it
// arrived; behind a TLS-terminating proxy, X-Forwarded-Proto is believed only when the server was
// told to trust it. The dashboard, the admin API and the inbox also take plain HTTP from this
// machine, so that the printed link opens in a browser with no certificate warning: nothing
// crosses a network in clear, and /v1 stays HTTPS-only as the interface says.

/** Whether the request came over HTTPS (or, trusted, through a proxy that says it did). */
function isSecure(request: ApiRequest, trustForwardedProto: boolean): boolean {
  const forwarded = trustForwardedProto ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() : undefined;
  return (forwarded || request.url.protocol.slice(0, -1)) === "https";
}

/** Headers a proxy adds: a request relayed from elsewhere is not this machine's, whatever connection brought it. */
const RELAYED = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip"];

/**
 * Whether a plain-HTTP request is this machine's own: its connection came from a loopback address,
 * no proxy relayed it, and its Host is a loopback name (so a web page whose DNS name was made to
 * point at 127.0.0.1 cannot reach the admin API through the visitor's browser).
 */
function isLocal(request: ApiRequest): boolean {
  if (!request.local || RELAYED.some((name) => request.headers.get(name) !== null)) return false;
  const host = request.headers.get("host");
  const hostname = host === null ? undefined : hostnameOf(host);
  return hostname !== undefined && isLoopbackHost(hostname);
}

export function requireHttps(trustForwardedProto: boolean): Step {
  return function requireHttps(context, next) {
    if (isSecure(context.request, trustForwardedProto)) return next(context);
    if (context.area !== "api" && isLocal(context.request)) return next(context);
    const { host, pathname } = context.url;
    throw badRequest(
      "HTTPS_REQUIRED",
      context.area === "api"
        ? `The API accepts HTTPS only: send this request to https://${host}${pathname}. Plain HTTP is refused so API keys do not travel in clear.`
        : `${context.area === "dashboard" ? "The dashboard is" : "This part of the service is"} served over HTTPS: https://${host}${context.area === "dashboard" ? `${context.base}${BASES.dashboard}/` : pathname}. ` +
          "Plain HTTP is accepted only from the server's own machine, at a loopback address (http://127.0.0.1:<port>), and not through a proxy.",
    );
  };
}

/**
 * A request the adapter could not hand over as sent (headers over its limit, bytes that are not
 * HTTP, a target that is not a path) is answered with the adapter's reason, in the shape of the
 * route its path names.
 */
export const refuseForAdapter: Step = function refuseForAdapter(context, next) {
  const { refusal } = context.request;
  if (refusal) throw new HttpError(refusal.status ?? 400, refusal.code, refusal.message);
  return next(context);
};
