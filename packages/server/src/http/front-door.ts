/**
 * The one front door: every request, whatever its path and whichever adapter brought it, is
 * numbered, routed (routes.ts) and run through its area's chain of named steps, composed once
 * (compose.ts). Each step is a file of steps/ named for it (`requireHttps`: require-https.ts):
 *
 * - /v1 (and any request an adapter refused): record, hold for the data file, adapter's refusal,
 *   HTTPS, route, the contract's own document (no key), faults, API key, rate limit, validate,
 *   account still current, operation;
 * - /__admin: hold for the data file, HTTPS, route, admin token, validate, operation;
 * - /__dashboard: security headers, HTTPS, route, file;
 * - /__inbox: HTTPS, route, inbox (record the request, answer the account's chosen status).
 *
 * Nothing is written until every check before the operation has passed. The door has one HTTPS
 * rule for every area (steps/require-https.ts) and one error-shape rule (contract/exchange.ts's
 * `errorResponse`, which the node adapter uses too when the core cannot answer). Both operation
 * sets come with their validators, from app.ts.
 */
import { document, type AuthForm, type OpenApiDocument } from "@intake/spec";
import { errorResponse, httpDate, type ApiRequest, type ApiResponse } from "../contract/exchange.js";
import type { OperationValidator } from "../contract/validation.js";
import type { Domain } from "../domain/domain.js";
import type { Faults } from "../faults/faults.js";
import type { Inbox } from "../inbox/inbox.js";
import { startTimer } from "../shared/elapsed.js";
import { HttpError, internalError } from "../shared/errors.js";
import { Chain, type Ends } from "./compose.js";
import type { Area, Authenticated, Context, RouteMatch } from "./context.js";
import type { RateLimiter } from "./rate-limiter.js";
import { createRouter, DASHBOARD_ROUTES, routesOf, type Router } from "./routes.js";
import { authenticate } from "./steps/authenticate.js";
import { confirmAccount } from "./steps/confirm-account.js";
import { holdAnswer, type AnswerHold } from "./steps/hold-answer.js";
import { injectFaults } from "./steps/inject-faults.js";
import { limitRate } from "./steps/limit-rate.js";
import { CONTRACT_ROUTES, serveContractDocument } from "./steps/serve-contract-document.js";
import { INBOX_ROUTES, receiveAtInbox } from "./steps/receive-at-inbox.js";
import { recordRequest } from "./steps/record-request.js";
import { refuseForAdapter } from "./steps/refuse-for-adapter.js";
import { requireAdminToken } from "./steps/require-admin-token.js";
import { requireHttps } from "./steps/require-https.js";
import { requireRoute } from "./steps/require-route.js";
import { runAdminOperation, type AdminOperation } from "./steps/run-admin-operation.js";
import { runApiOperation, type ApiOperations } from "./steps/run-api-operation.js";
import { secureDashboard } from "./steps/secure-dashboard.js";
import { serveDashboard, type DashboardFiles } from "./steps/serve-dashboard.js";
import { validateRequest } from "./steps/validate-request.js";

export interface FrontDoorOptions {
  domain: Domain;
  /** /v1: its operations, and their validators by auth form (api/validators.ts). */
  api: {
    operations: ApiOperations;
    validator(operationId: string, form: AuthForm): OperationValidator;
  };
  /** /__admin: its operations and their validators (admin/validators.ts). */
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
      .then(
        validateRequest<Authenticated>(
          (context) => options.api.validator(context.route.operationId, context.auth.form),
          options.maxBodyBytes,
        ),
      )
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
        headers.date = httpDate(started);
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
  return createRouter({
    api: [...routesOf(document, "api"), ...CONTRACT_ROUTES],
    admin: routesOf(adminDocument, "admin"),
    dashboard: DASHBOARD_ROUTES,
    inbox: INBOX_ROUTES,
  });
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
export function errorAt(
  router: Router,
  base: string,
  method: string,
  pathname: string,
  error: HttpError<string>,
  refused = false,
): ApiResponse {
  const { area, match } = router.match(method, pathUnder(base, pathname), refused);
  return errorResponse(shapeOf(area, match), error, {});
}

/** The error shape of a request: its route's, else its area's. */
function shapeOf(area: Area, match: RouteMatch) {
  if (match.kind === "found") return match.route.shape;
  if (match.kind === "wrong-method") return match.shape;
  return area === "dashboard" ? "text" : "general";
}
