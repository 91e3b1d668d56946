/**
 * The reference server on a real HTTPS port, in-process, with a fetch that trusts its generated
 * certificate, an admin caller, and @intake/client instances pointed at it.
 */
import { createIntakeClient, type IntakeClientOptions } from "@intake/client";
import { createIntake, DEFAULTS, type Intake, type IntakeOptions } from "@intake/server";
import { createIntakeHandlers } from "@intake/server/msw";
import { serve, type RunningServer } from "@intake/server/node";
import { setupServer } from "msw/node";
import type { AuthForm } from "@intake/spec";
import { certFetch } from "./cert-fetch.js";
import { SEED } from "./seed.js";

export const ADMIN_TOKEN = "adm_test_token_0123456789";

export type FetchFn = (input: Request | string, init?: RequestInit) => Promise<Response>;

export interface AdminResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** The service behind one adapter, as a test reaches it: a real HTTPS port, msw handlers in this process, a hosted sandbox. */
export interface Service {
  /** Where the service is mounted: `https://host:port`, or a hosted sandbox's `https://host/s/<name>`. */
  origin: string;
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
  /** fetch that reaches the service (trusting its certificate, or intercepted by msw). */
  fetch: FetchFn;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<AdminResult<T>>;
  close(): Promise<void>;
}

/** A service in this process: its Intake at hand. */
export interface Harness extends Service {
  intake: Intake;
}

export interface HttpsHarness extends Harness {
  server: RunningServer;
}

export function adminCaller(fetch: FetchFn, adminUrl: string, token = ADMIN_TOKEN): Service["admin"] {
  return async (method, path, body) => {
    const response = await fetch(`${adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
}

export async function startHarness(options: IntakeOptions = {}): Promise<HttpsHarness> {
  const errors: unknown[] = [];
  const intake = createIntake({ seed: SEED, adminToken: ADMIN_TOKEN, onError: (e) => errors.push(e), ...options });
  const server = await serve(intake, { port: 0 });
  const trusting = certFetch(server.certificate);
  const fetch: FetchFn = (input, init) => trusting(input, init);
  return {
    intake,
    server,
    origin: server.origin,
    baseUrl: server.baseUrl,
    adminUrl: server.adminUrl,
    adminToken: ADMIN_TOKEN,
    fetch,
    admin: adminCaller(fetch, server.adminUrl),
    async close() {
      await server.close();
      await trusting.close();
      if (errors.length) throw new AggregateError(errors, "the server reported unexpected errors");
    },
  };
}

/** The same service as msw handlers: requests to its origin never leave the process. */
export async function startMswHarness(options: IntakeOptions = {}): Promise<Harness> {
  const errors: unknown[] = [];
  // The behaviour suites check the rate-limit headers: the limit is asked for, as the HTTPS harness has it by default.
  const { handlers, intake, baseUrl, adminUrl } = createIntakeHandlers({
    seed: SEED,
    adminToken: ADMIN_TOKEN,
    rateLimit: 120,
    onError: (e) => errors.push(e),
    ...options,
  });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "error" });
  const fetch: FetchFn = (input, init) => globalThis.fetch(input, init);
  return {
    intake,
    origin: new URL(baseUrl).origin,
    baseUrl,
    adminUrl,
    adminToken: ADMIN_TOKEN,
    fetch,
    admin: adminCaller(fetch, adminUrl),
    async close() {
      server.close();
      if (errors.length) throw new AggregateError(errors, "the service reported unexpected errors");
    },
  };
}

/** What a behaviour case runs against: a base URL and fetch for the client, the admin API for setup and assertions. */
export interface Target {
  name: string;
  baseUrl: string;
  /** A stateless proxy in front (prism): the base URL is plain HTTP on loopback. */
  viaProxy: boolean;
  clientFetch: (request: Request) => Promise<Response>;
  harness: Service;
  /** Its limits where they are not the server's defaults (a hosted sandbox's). */
  limits?: { maxBodyBytes: number; maxMediaBytes: number };
}

/** A target's body and media limits: its own, or the server's defaults. */
export const limitsOf = (target: Target) => target.limits ?? { maxBodyBytes: DEFAULTS.maxBodyBytes, maxMediaBytes: DEFAULTS.maxMediaBytes };

/** A size as the service words it ("32 MiB", "896 KiB"). */
export const mebibytes = (bytes: number): string => (bytes >= 2 ** 20 ? `${bytes / 2 ** 20} MiB` : `${bytes / 1024} KiB`);

/** Where a target's service is mounted on its origin: "" at the root, `/s/<name>` for a hosted sandbox. */
export const mountOf = (target: Target): string => new URL(target.harness.baseUrl).pathname.replace(/\/v1$/, "");

/** The HTTPS server of a harness as a target: the client calls it directly, trusting its certificate. */
export const httpsTarget = (harness: HttpsHarness): Target => ({
  name: "https",
  baseUrl: harness.server.baseUrl,
  viaProxy: false,
  clientFetch: (request) => harness.fetch(request),
  harness,
});

export function client<F extends AuthForm>(target: Target, auth: F, apiKey: string, extra: Partial<IntakeClientOptions<F>> = {}) {
  return createIntakeClient({
    auth,
    apiKey,
    baseUrl: target.baseUrl,
    fetch: target.clientFetch,
    allowInsecureLoopback: target.viaProxy,
    maxRetries: 0,
    ...extra,
  });
}

/** A raw request straight to the service, for what the typed client cannot send. */
export function raw(target: Target, path: string, init: RequestInit & { scheme?: "https" | "http" } = {}) {
  const url = `${target.harness.baseUrl}${path}`;
  return target.harness.fetch(init.scheme === "http" ? url.replace("https://", "http://") : url, init);
}

export async function json(response: Response): Promise<{ status: number; body: any; headers: Headers }> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
