import type { AuthForm } from "@intake/spec";
import openapiFetch, { type Client } from "openapi-fetch";
import { resolveOptions, type IntakeClientOptions } from "./options.js";
import { absentResources, buildResources, type ResourcesByForm } from "./resources.js";
import { createTransport } from "./transport.js";
import type { PathsByForm } from "./types.js";

/**
 * openapi-fetch's createClient. Our CommonJS build requires openapi-fetch's CommonJS file, and
 * esbuild hands a module of a "type": "module" package its whole exports as the default import:
 * there the function is one level down.
 */
const createClient: typeof openapiFetch = (openapiFetch as unknown as { default?: typeof openapiFetch }).default ?? openapiFetch;

/** A union over the forms when F is, so `if (client.auth === "header")` narrows it. */
export type IntakeClient<F extends AuthForm> = F extends AuthForm ? IntakeClientOf<F> : never;

type IntakeClientOf<F extends AuthForm> = {
  readonly auth: F;
  /** The base address, ending in /v1. */
  readonly baseUrl: string;
  /**
   * The underlying openapi-fetch client, typed to this form's operations and spelling. It shares
   * the key placement, timeout, retries and logging; it returns `{ data, error, response }`
   * instead of throwing.
   */
  readonly raw: Client<PathsByForm[F], "application/json">;
} & ResourcesByForm[F];

/**
 * A client for one auth form. The form decides which operations exist on it and how their
 * fields are spelled:
 *
 * ```ts
 * const intake = createIntakeClient({ auth: "query", apiKey, baseUrl: "https://127.0.0.1:8443/v1" });
 * const contact = await intake.contacts.create({ phone: "+14155550123", firstName: "Ada" });
 * ```
 */
export function createIntakeClient<F extends AuthForm>(options: IntakeClientOptions<F>): IntakeClient<F> {
  const resolved = resolveOptions(options);
  const send = createTransport(resolved);
  const raw = createClient<PathsByForm[F], "application/json">({
    baseUrl: resolved.baseUrl,
    headers: resolved.headers,
    fetch: (request) => send(request),
  });
  const resources = buildResources(options.auth, raw as never, send, resolved);
  const client = Object.defineProperties(
    { auth: options.auth, baseUrl: resolved.baseUrl, raw, ...resources },
    absentResources(options.auth),
  );
  return Object.freeze(client) as unknown as IntakeClient<F>;
}
