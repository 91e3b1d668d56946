/**
 * The admin API, typed from admin-openapi.yaml (the generated types the server itself uses): the
 * dashboard calls nothing else, so a test can do whatever it does.
 */
import createClient from "openapi-fetch";
import type { AdminComponents as components, AdminPaths as paths } from "@intake/server/admin-client";

export type Schemas = components["schemas"];
export type Account = Schemas["Account"];
export type Contact = Schemas["Contact"];
export type Message = Schemas["Message"];
export type Campaign = Schemas["Campaign"];
export type List = Schemas["List"];
export type Delivery = Schemas["Delivery"];
export type Job = Schemas["Job"];

export const ADMIN_BASE = "/__admin";
const TOKEN_KEY = "intake.adminToken";

/** The admin token for this tab: kept in sessionStorage, gone when the tab closes. */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export const admin = createClient<paths>({ baseUrl: ADMIN_BASE });
admin.use({
  onRequest({ request }) {
    const value = token.get();
    if (value) request.headers.set("authorization", `Bearer ${value}`);
    return request;
  },
});

/** The answer's data, or an ApiError with the admin API's code and message. */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) {
    const detail = (error as { error?: { code?: string; message?: string } } | undefined)?.error;
    if (response.status === 401) unauthorized.forEach((listener) => listener());
    throw new ApiError(response.status, detail?.code, detail?.message ?? `The admin API answered ${response.status}.`);
  }
  return data as T;
}

const unauthorized = new Set<() => void>();
/** Called when the admin API refuses the token (a restarted server prints a new one). */
export function onUnauthorized(listener: () => void): () => void {
  unauthorized.add(listener);
  return () => unauthorized.delete(listener);
}

/** Checks a token against the admin API before keeping it. */
export async function logIn(value: string): Promise<boolean> {
  const response = await fetch(`${ADMIN_BASE}/clock`, { headers: { authorization: `Bearer ${value}` } });
  if (!response.ok) return false;
  token.set(value);
  return true;
}
