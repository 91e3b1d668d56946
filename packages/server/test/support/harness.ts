/**
 * The reference server on a real HTTPS port, in-process, with a fetch that trusts its generated
 * certificate, an admin caller, and @intake/client instances pointed at it.
 */
import { createIntakeClient, type IntakeClientOptions } from "@intake/client";
import { createIntake, type Intake, type IntakeOptions } from "@intake/server";
import { serve, type RunningServer } from "@intake/server/node";
import type { AuthForm } from "@intake/spec";
import { Agent } from "undici";
import { SEED } from "./seed.js";

export const ADMIN_TOKEN = "adm_test_token_0123456789";

export type FetchFn = (input: Request | string, init?: RequestInit) => Promise<Response>;

export interface AdminResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Harness {
  intake: Intake;
  server: RunningServer;
  /** fetch that trusts the server's certificate. */
  fetch: FetchFn;
  admin<T = any>(method: string, path: string, body?: unknown): Promise<AdminResult<T>>;
  close(): Promise<void>;
}

export async function startHarness(options: IntakeOptions = {}): Promise<Harness> {
  const errors: unknown[] = [];
  const intake = createIntake({ seed: SEED, adminToken: ADMIN_TOKEN, onError: (e) => errors.push(e), ...options });
  const server = await serve(intake, { port: 0, maxBodyBytes: options.maxBodyBytes });
  const dispatcher = new Agent({ connect: { ca: server.certificate } });
  const fetch: FetchFn = (input, init) => globalThis.fetch(input, { ...init, dispatcher } as RequestInit);
  return {
    intake,
    server,
    fetch,
    async admin(method, path, body) {
      const response = await fetch(`${server.adminUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async close() {
      await server.close();
      await dispatcher.close();
      if (errors.length) throw new AggregateError(errors, "the server reported unexpected errors");
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
  harness: Harness;
}

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

/** A raw request straight to the server, for what the typed client cannot send. */
export function raw(target: Target, path: string, init: RequestInit & { scheme?: "https" | "http" } = {}) {
  const url = `${target.harness.server.baseUrl}${path}`;
  return target.harness.fetch(init.scheme === "http" ? url.replace("https://", "http://") : url, init);
}

export async function json(response: Response): Promise<{ status: number; body: any; headers: Headers }> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
