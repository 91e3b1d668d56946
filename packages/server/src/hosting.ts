/**
 * @intake/server/hosting: what an adapter that hosts the core on another platform needs (the
 * Cloudflare Worker, packages/worker): an Intake's adapter-facing parts (`internals(intake)`: its
 * core on the core's own request shapes, the hold on answers, the dashboard's files…), the
 * write-through and the SQL tables it keeps the state in, an error answered in a route's shape when
 * no service can answer, the demo, and the model bot asking its endpoint over fetch. Nothing here
 * is Node-specific.
 */
import { bodyChecker } from "./admin/validators.js";
import type { Seed } from "./domain/state.js";
import { adminDocument } from "./generated/admin-document.js";
import { toFetchResponse } from "./contract/exchange.js";
import { errorAt, serviceRouter } from "./http/front-door.js";
import type { Router } from "./http/routes.js";
import { HttpError } from "./shared/errors.js";
import { base64, newApiKey, randomIds } from "./shared/ids.js";

export { internals, type IntakeInternals } from "./internals.js";
export type { ApiRequest, ApiResponse, HeaderReader } from "./contract/exchange.js";
export type { DashboardFiles } from "./http/steps/serve-dashboard.js";
export {
  writeThrough,
  NotSavedError,
  type Persisted,
  type StateStore,
  type WriteThrough,
  type WriteThroughOptions,
} from "./durable/write-through.js";
export {
  createTables,
  readState,
  replaceState,
  writeChanges,
  TABLES,
  type Changes,
  type Meta,
  type RowRefusal,
  type SqlDatabase,
  type SqlValue,
} from "./durable/sql-state.js";
export { DEMO_SEED, startDemo } from "./admin/demo-seed.js";
export { createModelBot, type ModelBotOptions } from "./model-bot/model-bot.js";

let router: Router | undefined;

/**
 * An error, answered as the service answers it at that path (`base`: where the service is
 * mounted): `{ error: { code, message } }`, or `{ error }` on the receive endpoint, or text for
 * the dashboard.
 */
export function errorAnswer(
  request: Request,
  base: string,
  error: { status: number; code: string; message: string; headers?: Record<string, string> },
): Response {
  router ??= serviceRouter(adminDocument);
  const known = new HttpError(error.status, error.code, error.message, error.headers);
  return toFetchResponse(errorAt(router, base, request.method, new URL(request.url).pathname, known));
}

/**
 * A hosted sandbox's seed: checked as POST /__admin/seed checks one (an HttpError 400 naming the
 * field), with every account's and sub-account's API key and webhook secret drawn anew, so a
 * sandbox's keys are its own whatever seed it was made from (the demo's are in the README), and
 * kept in the seed, so a reset keeps them. `keepGiven`: those the seed gives are kept (a CI suite
 * whose configuration names its keys); only the missing ones are drawn.
 */
export function sandboxSeed(seed: unknown, keepGiven = false): Seed {
  bodyChecker("applySeed", "Seed")(seed);
  const ids = randomIds();
  const drawn = <T extends { apiKey?: string | undefined; webhookSecret?: string | undefined }>(entry: T): T => ({
    ...entry,
    apiKey: (keepGiven && entry.apiKey) || newApiKey(ids),
    webhookSecret: (keepGiven && entry.webhookSecret) || `whsec_${base64(ids.bytes(24))}`,
  });
  const { accounts = [] } = seed as Seed;
  return {
    ...(seed as Seed),
    accounts: accounts.map((account) => ({
      ...drawn(account),
      ...(account.subaccounts ? { subaccounts: account.subaccounts.map(drawn) } : {}),
    })),
  };
}

/** A new secret of `length` characters of the base62 alphabet (a sandbox's admin token, say). */
export const randomToken = (length: number): string => randomIds().token(length);
