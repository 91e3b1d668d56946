/**
 * The admin API for this tab, through the server's own client (@intake/server/admin-client): the
 * dashboard calls nothing else, so a test can do whatever it does. The token is kept in
 * sessionStorage (this tab only, gone when it closes); a 401 (a restarted server prints a new
 * token) logs the tab out.
 */
import { AdminApiError, createAdminClient, type AdminClient, type AdminComponents } from "@intake/server/admin-client";
import { MOUNT } from "../router/mount.js";

export type Schemas = AdminComponents["schemas"];
export type Account = Schemas["Account"];
export type Campaign = Schemas["Campaign"];
export type Message = Schemas["Message"];

export const ADMIN_BASE = `${MOUNT}/__admin`;
// One tab may hold the dashboards of several hosted sandboxes of one origin, each its own token.
const TOKEN_KEY = `intake.adminToken${MOUNT}`;

/** The admin token for this tab. */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

const unauthorized = new Set<() => void>();
/** Called when the admin API refuses the token. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorized.add(listener);
  return () => unauthorized.delete(listener);
}

/** The fetch the tab's client sends through: every refusal of the token is seen, the live stream's too. */
async function watched(request: Request): Promise<Response> {
  const response = await fetch(request);
  if (response.status === 401) unauthorized.forEach((listener) => listener());
  return response;
}

let current: { token: string; client: AdminClient } | undefined;
/** The client for the token the tab holds now: a login changes it. */
export function admin(): AdminClient {
  const value = token.get() ?? "";
  if (current?.token !== value)
    current = { token: value, client: createAdminClient({ adminUrl: ADMIN_BASE, token: value, fetch: watched }) };
  return current.client;
}

/** Checks a token against the admin API before keeping it (a refused one logs nothing out). */
export async function logIn(value: string): Promise<boolean> {
  try {
    await createAdminClient({ adminUrl: ADMIN_BASE, token: value }).clock();
  } catch (error) {
    if (error instanceof AdminApiError) return false;
    throw error;
  }
  token.set(value);
  return true;
}
