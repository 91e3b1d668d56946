import { createIntakeClient, type IntakeClientOptions } from "@intake/client";
import type { AuthForm } from "@intake/spec";
import { http, HttpResponse, type JsonBodyType } from "msw";
import { setupServer } from "msw/node";

export const BASE_URL = "https://api.intake.test/v1";
/** Distinctive, so a search of any captured text for it cannot match by accident. */
export const API_KEY = "ik_test_Q7w9Zr4Kp2Lm8Xv5";

export const server = setupServer();

export interface Captured {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** Handlers that record every request they see and answer with `reply`. */
export function record(reply: (request: Request, index: number) => Response | Promise<Response>) {
  const seen: Captured[] = [];
  server.use(
    http.all(`${BASE_URL}/*`, async ({ request }) => {
      const index = seen.length;
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      seen.push({ method: request.method, url: new URL(request.url), headers, body: await request.clone().text() });
      return reply(request, index);
    }),
  );
  return seen;
}

export function json(body: JsonBodyType, status = 200, headers?: Record<string, string>) {
  return HttpResponse.json(body, { status, headers: headers ?? {} });
}

export const contact = {
  id: "ct_7Hq2xK9mPw",
  firstName: "Ada",
  lastName: "Lovelace",
  phone: "+14155550123",
  email: "ada@example.com",
  customFields: {},
  createdAt: "2026-11-21T09:30:00.000Z",
};

/** A client with retries fast enough for tests. */
export function client<F extends AuthForm>(auth: F, options: Partial<IntakeClientOptions<F>> = {}) {
  return createIntakeClient({
    auth,
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    retry: { initialDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}
