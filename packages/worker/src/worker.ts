/**
 * The Worker: each sandbox's requests (`/s/<name>/...`: its /v1, /__admin, dashboard and inbox)
 * go to that sandbox's Durable Object, which answers them with the reference server's core;
 * `/__operator/sandboxes` is the operator's (operator.ts). Anything else answers a JSON 404 that
 * says where things are.
 */
import { errorAnswer } from "@intake/server/hosting";
import type { Env } from "./front/env.js";
import { OPERATOR_BASE, operate, sandboxOf } from "./front/operator.js";
import { errorJson, OperatorError } from "./sandbox/errors.js";
import { NAME, nameOf } from "./sandbox/settings.js";

export { Sandbox } from "./sandbox/sandbox.js";
export { SandboxRegistry } from "./front/registry.js";

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const name = nameOf(url.pathname);
    if (name !== undefined) return toSandbox(request, env, name);
    if (url.pathname === OPERATOR_BASE || url.pathname.startsWith(`${OPERATOR_BASE}/`)) return operate(request, env);
    return errorJson(
      new OperatorError(
        404,
        "NOT_FOUND",
        `Nothing at ${url.pathname}. A sandbox's API is at /s/<name>/v1 and its dashboard at /s/<name>/__dashboard/; the operator API is ${OPERATOR_BASE}.`,
      ),
    );
  },
} satisfies ExportedHandler<Env>;

async function toSandbox(request: Request, env: Env, name: string): Promise<Response> {
  const base = `/s/${name}`;
  if (!NAME.test(name))
    return errorAnswer(request, base, {
      status: 404,
      code: "SANDBOX_NOT_FOUND",
      message: `There is no sandbox ${name} here: check the base URL.`,
    });
  try {
    return await sandboxOf(env, name).fetch(request);
  } catch (error) {
    // The object reset while answering (a commit it could not make, a limit it went past): none of
    // the answers it held left, and it starts again from its storage.
    console.error(`sandbox ${name}: ${(error as Error).message}`);
    return errorAnswer(request, base, {
      status: 503,
      code: "SANDBOX_RESET",
      message:
        "The sandbox restarted while answering, and this request's answer was not given: check whether its change was made before you send it again.",
      headers: { "retry-after": "1" },
    });
  }
}
