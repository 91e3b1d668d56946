/**
 * Path-based pages under /__dashboard/ (the server answers index.html on each), with the chosen
 * account in the query (`?account=acc_…`), so every page has an address to reload or share.
 */
import { useEffect, useState } from "preact/hooks";
import { MOUNT } from "./mount.js";

export const BASE = `${MOUNT}/__dashboard`;

export interface Location {
  /** The path under the base, "/" for the login page: "/contacts/ct_1". */
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();
const current = (): Location => ({ path: location.pathname.slice(BASE.length) || "/", query: new URLSearchParams(location.search) });

addEventListener("popstate", () => listeners.forEach((listener) => listener()));

export function useLocation(): Location {
  const [value, set] = useState(current);
  useEffect(() => {
    const update = () => set(current());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return value;
}

/** A dashboard address: the path, keeping the account chosen unless another is given. */
export function href(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  const account = "account" in query ? query.account : new URLSearchParams(location.search).get("account");
  if (account) params.set("account", account);
  for (const [key, value] of Object.entries(query)) if (key !== "account" && value) params.set(key, value);
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ""}`;
}

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  listeners.forEach((listener) => listener());
  if (!replace) scrollTo(0, 0);
}

/** A link followed without a reload (ctrl-, shift- and middle-clicks still open a new tab). */
export function follow(event: MouseEvent): void {
  const link = (event.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(link.getAttribute("href")!);
}

/** Matches "/contacts/:id" against a path, giving the parameters. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = path.replace(/\/$/, "").split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i]!.startsWith(":")) params[want[i]!.slice(1)] = decodeURIComponent(got[i]!);
    else if (want[i] !== got[i]) return undefined;
  }
  return params;
}
