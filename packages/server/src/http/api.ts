/**
 * /v1: the pipeline's steps for the API — route (by operationId, from the contract), HTTPS,
 * faults, API key, rate limit, validation, the operation — answering in each operation's error
 * shape, every request numbered and journaled. Nothing is written until every check has passed.
 */
import { document } from "@intake/spec";
import { handlers } from "../operations/index.js";
import type { OperationId, OperationInput, Services, Success } from "../operations/types.js";
import { apiKey, currentAccount } from "./auth.js";
import type { ApiRequest, ApiResponse } from "./exchange.js";
import { injectFaults, type Faults } from "./faults.js";
import { journal, type JournalRecord } from "./journal.js";
import { holdAnswer, pipeline, respond, type AnswerHold, type Step } from "./pipeline.js";
import { rateLimit, type RateLimiter } from "./rate-limit.js";
import { buildRoutes } from "./routes.js";
import { requireRoute, route } from "./routing.js";
import { adapterRefusal, httpsOnly } from "./transport.js";
import { validate } from "./validate.js";
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
  /** What answers wait for (the data file's commit), and the count of changes that tells when to. */
  hold: AnswerHold;
  version: () => number;
  onError: (error: unknown) => void;
}

export function createApi(options: ApiOptions): (request: ApiRequest) => Promise<ApiResponse> {
  const { services, onError } = options;
  const now = () => services.clock.now();
  const validators = compileApiValidators(document);
  return pipeline(
    [
      journal(options.record, now),
      respond(onError),
      holdAnswer(options.hold, options.version),
      route(buildRoutes(document), API_BASE),
      adapterRefusal,
      httpsOnly(options.trustForwardedProto),
      requireRoute({
        notFound: (method, pathname) => `No operation at ${method} ${pathname}. Paths start with ${API_BASE}/, for example ${API_BASE}/contacts.`,
        path: (template) => template,
      }),
      injectFaults(options.faults),
      apiKey(services.store),
      rateLimit(options.rateLimiter),
      validate((context) => validators(context.route!.operationId, context.auth!.form), options.maxBodyBytes),
      currentAccount(services.store),
      operate(services),
    ],
    { now, onError, requestId: options.requestId },
  );
}

type AnyHandler = (input: OperationInput<OperationId>, services: Services) => Success<OperationId> | Promise<Success<OperationId>>;

/** Runs the route's operation on the checked input. */
function operate(services: Services): Step {
  return async (context) => {
    const handler = handlers[context.route!.operationId as OperationId] as AnyHandler;
    const { query, params, body } = context.input!;
    context.result = await handler(
      { account: context.account!, form: context.auth!.form, body: body as never, query: query as Record<string, string>, params, headers: context.request.headers },
      services,
    );
  };
}
