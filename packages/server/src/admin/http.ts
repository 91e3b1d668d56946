/**
 * /__admin over HTTP: the admin service behind its own token, validated against its own
 * contract (admin-openapi.yaml), answering in the general error shape.
 */
import { adminDocument } from "../generated/admin-document.js";
import type { operations } from "../generated/admin.js";
import { HttpError } from "../shared/errors.js";
import type { ApiRequest, ApiResponse, HeaderReader } from "../http/exchange.js";
import { holdAnswer, pipeline, respond, type AnswerHold, type Result, type Step } from "../http/pipeline.js";
import { buildRoutes } from "../http/routes.js";
import { requireRoute, route } from "../http/routing.js";
import { httpsOnly } from "../http/transport.js";
import { validate } from "../http/validate.js";
import { oncePerDocument, operationCompiler, type OperationValidator } from "../http/validation.js";
import { listOperations } from "@intake/spec";
import type { AdminErrorCode, AdminService } from "./service.js";

export const ADMIN_BASE = "/__admin";

type AdminOperationId = keyof operations;
type BodyOf<Id extends AdminOperationId> = operations[Id] extends { requestBody?: { content: { "application/json": infer B } } } ? B : undefined;

interface Call<Id extends AdminOperationId> {
  body: BodyOf<Id>;
  query: Record<string, unknown>;
  params: Record<string, string>;
  headers: HeaderReader;
}
type Handlers = { [Id in AdminOperationId]: (call: Call<Id>) => Result | Promise<Result> };

const ok = (body: unknown): Result => ({ status: 200, body });
const created = (body: unknown): Result => ({ status: 201, body });

/** The live events' stream, of one account or all, after a replay of the events held after `after`. */
export type OpenEvents = (options: { accountId?: string; after?: number }) => ReadableStream<Uint8Array>;

function handlersFor(admin: AdminService, openEvents: OpenEvents): Handlers {
  return {
    getAdminOpenApi: () => ok(adminDocument),
    getSnapshot: () => ok(admin.snapshot()),
    restoreSnapshot: async ({ body }) => ok(await admin.restore(body)),
    resetState: async ({ body }) => ok(await admin.reset(body)),
    applySeed: ({ body }) => ok(admin.applySeed(body)),
    listAccounts: () => ok(admin.listAccounts()),
    createAccount: ({ body }) => created(admin.createAccount(body)),
    getAccount: ({ params }) => ok(admin.getAccount(params.accountId!)),
    updateAccount: ({ params, body }) => ok(admin.updateAccount(params.accountId!, body)),
    generateApiKey: ({ params, body }) => ok(admin.generateApiKey(params.accountId!, body?.apiKey)),
    createSubaccount: ({ params, body }) => created(admin.createSubaccount(params.accountId!, body)),
    getCredits: ({ params }) => ok(admin.credits(params.accountId!)),
    adjustCredits: ({ params, body }) => ok(admin.adjustCredits(params.accountId!, body.amount, body.description)),
    listCampaigns: ({ query }) => ok(admin.listCampaigns(query.accountId as string | undefined)),
    createCampaign: ({ body }) => created(admin.createCampaign(body)),
    getCampaign: ({ params }) => ok(admin.getCampaign(params.campaignId!)),
    updateCampaign: ({ params, body }) => ok(admin.updateCampaign(params.campaignId!, body)),
    listLists: ({ query }) => ok(admin.listLists(query.accountId as string | undefined)),
    createList: ({ body }) => created(admin.createList(body)),
    getList: ({ params }) => ok(admin.getList(params.listId!)),
    updateList: ({ params, body }) => ok(admin.updateList(params.listId!, body)),
    listMembers: ({ params, query }) => ok(admin.listMembers(params.listId!, query)),
    importContacts: ({ params, body }) => ok(admin.importContacts(params.listId!, body)),
    listContacts: ({ query }) => ok(admin.listContacts(query)),
    getContact: ({ params }) => ok(admin.getContact(params.contactId!)),
    listMessages: ({ query }) => ok(admin.listMessages(query)),
    getMessage: ({ params }) => ok(admin.getMessage(params.messageId!)),
    updateContact: ({ params, body }) => ok(admin.updateContact(params.contactId!, body)),
    replyToContact: ({ params, body }) => created(admin.replyToContact(params.contactId!, body.body)),
    listDeliveries: ({ query }) => ok(admin.listDeliveries(query)),
    getDelivery: ({ params }) => ok(admin.getDelivery(params.deliveryId!)),
    redeliver: ({ params }) => ok(admin.redeliver(params.deliveryId!)),
    listAlerts: ({ query }) => ok(admin.listAlerts(query.accountId as string | undefined)),
    listJobs: () => ok(admin.listJobs()),
    settle: async () => ok(await admin.settle()),
    getJournal: ({ query }) => ok(admin.journal(query)),
    clearJournal: () => {
      admin.clearJournal();
      return { status: 204, body: null };
    },
    listFaults: () => ok(admin.listFaults()),
    setFaults: ({ body }) => ok(admin.setFaults(body)),
    clearFaults: () => {
      admin.clearFaults();
      return { status: 204, body: null };
    },
    getClock: () => ok(admin.clock()),
    advanceClock: async ({ body }) => ok(await admin.advanceClock(body)),
    streamEvents: ({ query, headers }) => {
      const after = lastEventId(headers.get("last-event-id")) ?? (query.lastEventId as number | undefined);
      return {
        status: 200,
        body: null,
        stream: openEvents({ accountId: query.accountId as string | undefined, after }),
        // x-accel-buffering: a proxy in front (nginx) passes each event on as it comes.
        headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" },
      };
    },
  };
}

/** The admin contract's validators. */
const compileAdmin = oncePerDocument((doc) => {
  const compile = operationCompiler(doc, "admin");
  const validators = new Map<string, OperationValidator>();
  for (const { operation, pathParameters } of listOperations(doc)) validators.set(operation.operationId!, compile(operation, pathParameters));
  return validators;
});
const adminValidators = () => compileAdmin(adminDocument);

/**
 * Checks a value given in code (createIntake's seed or fault rules, the CLI's) as the admin API
 * checks the same value in a request body, with errors saying what it was.
 */
export function bodyChecker(operationId: AdminOperationId, label: string): (value: unknown) => void {
  return (value) => {
    try {
      adminValidators().get(operationId)!.body(value);
    } catch (error) {
      if (error instanceof HttpError) throw new HttpError(400, error.code, `${label}: ${error.message}`);
      throw error;
    }
  };
}

export interface AdminApiOptions {
  admin: AdminService;
  token: string;
  trustForwardedProto: boolean;
  maxBodyBytes: number;
  now: () => number;
  /** What answers wait for (the data file's commit), and the count of changes that tells when to. */
  hold: AnswerHold;
  version: () => number;
  onError: (error: unknown) => void;
  openEvents: OpenEvents;
}

/** /__admin: the pipeline's steps for the admin API — route, HTTPS, the admin token, validation, the call. */
export function createAdminApi(options: AdminApiOptions): (request: ApiRequest) => Promise<ApiResponse> {
  const validators = adminValidators();
  return pipeline(
    [
      respond(options.onError),
      holdAnswer(options.hold, options.version),
      route(buildRoutes(adminDocument), ADMIN_BASE),
      httpsOnly(options.trustForwardedProto),
      requireRoute({
        notFound: (method, pathname) => `No admin operation at ${method} ${pathname}. The admin API is described at ${ADMIN_BASE}/openapi.json.`,
        path: (template) => `${ADMIN_BASE}${template}`,
      }),
      adminToken(options.token),
      validate((context) => validators.get(context.route!.operationId)!, options.maxBodyBytes),
      operate(handlersFor(options.admin, options.openEvents)),
    ],
    options,
  );
}

/** Runs the admin call on the checked input. */
function operate(handlers: Handlers): Step {
  return async (context) => {
    const handler = handlers[context.route!.operationId as AdminOperationId] as (call: Call<AdminOperationId>) => Result | Promise<Result>;
    const { body, query, params } = context.input!;
    context.result = await handler({ body: body as never, query, params, headers: context.request.headers });
  };
}

/** A Last-Event-ID header's id (the stream's ids are whole numbers). */
function lastEventId(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (!/^\d{1,15}$/.test(header.trim())) throw new HttpError<AdminErrorCode>(400, "VALIDATION_ERROR", "Last-Event-ID must be the id of an event of this stream, a whole number.");
  return Number(header.trim());
}

function adminToken(token: string): Step {
  return (context, next) => {
    const given = /^Bearer\s+(.+)$/i.exec(context.request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    if (!equal(given, token)) {
      throw new HttpError<AdminErrorCode>(
        401,
        "UNAUTHORIZED",
        "Send the admin token as Authorization: Bearer <token>; the server printed it at start (or set it with --admin-token).",
      );
    }
    return next();
  };
}

/** Compares in time independent of where the strings differ. */
function equal(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
