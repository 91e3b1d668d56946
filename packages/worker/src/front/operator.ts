/**
 * The operator API, `/__operator/sandboxes`, with the operator token (the secret OPERATOR_TOKEN)
 * as a Bearer token:
 *
 * | Request | Does |
 * |---|---|
 * | POST /__operator/sandboxes | creates one, from a seed (the body: a seed file, or `{ seed }`) or the demo (`?demo`) |
 * | GET /__operator/sandboxes | lists them |
 * | GET /__operator/sandboxes/{name} | one, with its admin token, keys and secrets |
 * | POST /__operator/sandboxes/{name}/reset | back to its seed |
 * | DELETE /__operator/sandboxes/{name} | deletes it and everything it holds |
 */
import { randomToken } from "@intake/server/hosting";
import type { Env } from "./env.js";
import { errorJson, OperatorError } from "../sandbox/errors.js";
import type { Outcome, SandboxInfo } from "../sandbox/sandbox.js";
import { checkName, checkRequest, createRequestOf } from "../sandbox/settings.js";

export const OPERATOR_BASE = "/__operator/sandboxes";

export async function operate(request: Request, env: Env): Promise<Response> {
  try {
    authorize(request, env);
    const url = new URL(request.url);
    const [name, action, ...rest] = url.pathname.slice(OPERATOR_BASE.length).split("/").filter(Boolean);
    if (rest.length || (action !== undefined && action !== "reset")) throw notFound(url.pathname);
    if (name === undefined) {
      if (request.method === "POST") return await create(request, env);
      if (request.method === "GET") return await list(url.origin, env);
      throw wrongMethod(request.method, "GET or POST", url.pathname);
    }
    const sandbox = sandboxOf(env, checkName(name));
    if (action === "reset") {
      if (request.method !== "POST") throw wrongMethod(request.method, "POST", url.pathname);
      return answer(await sandbox.reset(), (info) => Response.json(described(url.origin, info)));
    }
    if (request.method === "GET") return answer(await sandbox.describe(), (info) => Response.json(described(url.origin, info)));
    if (request.method === "DELETE") {
      const deleted = await sandbox.destroy();
      // A name claimed by a create that never finished is listed with no sandbox: deleting it frees the name.
      if (deleted.ok || deleted.code === "SANDBOX_NOT_FOUND") await registryOf(env).release(name);
      return answer(deleted, () => new Response(null, { status: 204 }));
    }
    throw wrongMethod(request.method, "GET or DELETE", url.pathname);
  } catch (error) {
    if (error instanceof OperatorError) return errorJson(error);
    throw error;
  }
}

async function create(request: Request, env: Env): Promise<Response> {
  const asked = checkRequest(await createRequestOf(request));
  const name = asked.name ?? `sbx-${randomToken(10).toLowerCase()}`;
  const registry = registryOf(env);
  const createdAt = await registry.claim(name);
  if (createdAt === null)
    throw new OperatorError(
      409,
      "SANDBOX_EXISTS",
      `Sandbox ${name} exists already: pick another name, or delete it first (DELETE ${OPERATOR_BASE}/${name}).`,
    );
  // A create that failed kept nothing (the sandbox says so), and its name is free again; one
  // refused because a sandbox of that name exists keeps the name listed.
  let made: Outcome<SandboxInfo>;
  try {
    made = await sandboxOf(env, name).create(name, createdAt, asked);
  } catch (error) {
    await registry.release(name);
    throw error;
  }
  if (!made.ok && made.code !== "SANDBOX_EXISTS") await registry.release(name);
  return answer(made, (info) => Response.json(described(new URL(request.url).origin, info), { status: 201 }));
}

async function list(origin: string, env: Env): Promise<Response> {
  const listed = await registryOf(env).list();
  return Response.json({ sandboxes: listed.map(({ name, createdAt }) => ({ name, createdAt, ...addresses(origin, name) })) });
}

/** Sandbox `name`'s object (made, empty, when nobody created it). */
export const sandboxOf = (env: Env, name: string) => env.SANDBOX.get(env.SANDBOX.idFromName(name));

/** The one registry of the Worker's sandboxes. */
const registryOf = (env: Env) => env.REGISTRY.get(env.REGISTRY.idFromName("registry"));

/** Where a sandbox is: its base URL for clients, its admin API, its dashboard and inbox. */
export function addresses(origin: string, name: string) {
  const root = `${origin}/s/${name}`;
  return {
    baseUrl: `${root}/v1`,
    adminUrl: `${root}/__admin`,
    dashboardUrl: `${root}/__dashboard/`,
    inboxUrl: `${root}/__inbox/<accountId>`,
  };
}

function described(origin: string, info: SandboxInfo) {
  const where = addresses(origin, info.name);
  // The token in the fragment: browsers never send it, so it reaches no request line or log.
  return { ...info, ...where, dashboardUrl: `${where.dashboardUrl}#token=${encodeURIComponent(info.adminToken)}` };
}

async function answer<T>(outcome: Outcome<T>, ok: (value: T) => Response | Promise<Response>): Promise<Response> {
  if (!outcome.ok) return errorJson(new OperatorError(outcome.status, outcome.code, outcome.message));
  return ok(outcome.value);
}

/** Only the operator, over HTTPS. */
function authorize(request: Request, env: Env) {
  const url = new URL(request.url);
  if (url.protocol !== "https:")
    throw new OperatorError(400, "HTTPS_REQUIRED", `The operator API accepts HTTPS only: https://${url.host}${url.pathname}.`);
  if (!env.OPERATOR_TOKEN)
    throw new OperatorError(
      503,
      "OPERATOR_TOKEN_NOT_SET",
      "This Worker has no operator token: set one with `wrangler secret put OPERATOR_TOKEN` (npm run deploy does).",
    );
  const given = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  if (given === undefined)
    throw new OperatorError(401, "MISSING_OPERATOR_TOKEN", "Send the operator token: Authorization: Bearer <OPERATOR_TOKEN>.", {
      "www-authenticate": 'Bearer realm="intake-operator"',
    });
  if (!sameText(given, env.OPERATOR_TOKEN))
    throw new OperatorError(401, "INVALID_OPERATOR_TOKEN", "The operator token is not this Worker's.", {
      "www-authenticate": 'Bearer realm="intake-operator"',
    });
}

/** Compares in a time that does not tell how much of the token was right. */
function sameText(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  return left.byteLength === right.byteLength && crypto.subtle.timingSafeEqual(left, right);
}

const notFound = (path: string) =>
  new OperatorError(
    404,
    "NOT_FOUND",
    `No operator operation at ${path}. The operator API is ${OPERATOR_BASE} and ${OPERATOR_BASE}/<name>[/reset].`,
  );
const wrongMethod = (method: string, allowed: string, path: string) =>
  new OperatorError(405, "METHOD_NOT_ALLOWED", `Method ${method} is not allowed on ${path}; use ${allowed}.`, {
    allow: allowed.replace(" or ", ", "),
  });
