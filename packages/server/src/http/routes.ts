/**
 * Where requests go: one table for the whole service. /v1 and /__admin are read from their
 * contracts (each path and method an operation, with the auth forms it accepts and the error
 * shape it answers in); /__dashboard is the dashboard's files; /__inbox the webhook inbox's one
 * route (steps/receive-at-inbox.ts). Any other path is the API's; the `requireRoute` step
 * (steps/require-route.ts) answers a path with no route 404, and a method the path does not take
 * 405.
 */
import { AUTH_SCHEMES, listOperations, schemesOf, type AuthForm, type OpenApiDocument } from "@intake/spec";
import type { ErrorShape } from "../shared/errors.js";
import { INBOX_BASE } from "../shared/webhook-url.js";
import type { Area, Route, RouteMatch } from "./context.js";

export const BASES: Record<Area, string> = { api: "/v1", admin: "/__admin", dashboard: "/__dashboard", inbox: INBOX_BASE };

const FORM_OF_SCHEME = Object.fromEntries(Object.entries(AUTH_SCHEMES).map(([form, scheme]) => [scheme, form])) as Record<string, AuthForm>;

/** A contract's operations as routes of an area. */
export function routesOf(doc: OpenApiDocument, area: Area): Route[] {
  return listOperations(doc).map(({ path, method, operation }) => {
    const paramNames: string[] = [];
    const source = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      paramNames.push(name);
      return "([^/]+)";
    });
    return {
      area,
      operationId: operation.operationId ?? `${method} ${path}`,
      method: method.toUpperCase(),
      template: path,
      pattern: new RegExp(`^${source}$`),
      paramNames,
      forms: schemesOf(operation).flatMap((scheme) => FORM_OF_SCHEME[scheme] ?? []),
      shape: shapeOf(operation),
      takesBody: operation.requestBody !== undefined,
      bodyRequired: (operation.requestBody as { required?: boolean } | undefined)?.required === true,
    };
  });
}

/** The dashboard: its page and files, at every path under its base, to GET (or HEAD). */
export const DASHBOARD_ROUTES: Route[] = ["GET", "HEAD"].map((method) => ({
  area: "dashboard",
  operationId: "dashboardFile",
  method,
  template: "/{file}",
  pattern: /^(?:\/(.*))?$/s,
  paramNames: ["file"],
  forms: [],
  shape: "text",
  takesBody: false,
  bodyRequired: false,
}));

/** `/` asked for by a browser (it accepts HTML): a way to the dashboard, not the API's JSON 404. */
export const DASHBOARD_ROOT: Route = {
  area: "dashboard",
  operationId: "dashboardRoot",
  method: "GET",
  template: "/",
  pattern: /^\/$/,
  paramNames: [],
  forms: [],
  shape: "text",
  takesBody: false,
  bodyRequired: false,
};

/** The receive endpoint is the one whose errors the contract types as `ReceiveError`. */
function shapeOf(operation: Record<string, unknown>): ErrorShape {
  const bad = (operation.responses as Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>)["400"];
  return bad?.content?.["application/json"]?.schema?.$ref?.endsWith("/ReceiveError") ? "string" : "general";
}

export interface Router {
  /**
   * The area a path is in (a refused request, whatever its path, is the API's), and the route its
   * method and path name there; `/` is the dashboard's for a browser (`html`: it accepts HTML).
   */
  match(method: string, pathname: string, refused: boolean, html?: boolean): { area: Area; match: RouteMatch };
}

export function createRouter(tables: Record<Area, Route[]>): Router {
  const areas = (Object.keys(BASES) as Area[]).map((area) => ({ area, base: BASES[area], under: `${BASES[area]}/`, routes: tables[area] }));
  const areaOf = (pathname: string) => {
    for (const entry of areas) if (pathname === entry.base || pathname.startsWith(entry.under)) return entry;
    return undefined;
  };
  return {
    match(method, pathname, refused, html = false) {
      if (html && !refused && pathname === "/" && (method === "GET" || method === "HEAD"))
        return { area: "dashboard", match: { kind: "found", route: DASHBOARD_ROOT, params: {} } };
      const entry = areaOf(pathname);
      if (!entry || (refused && entry.area !== "api")) return { area: "api", match: NOT_FOUND };
      const relative = pathname.slice(entry.base.length);
      return { area: entry.area, match: matchRoute(entry.routes, method, entry.area === "dashboard" ? relative : relative || "/") };
    },
  };
}

const NOT_FOUND: RouteMatch = { kind: "not-found" };
const NO_PARAMS: string[] = [];

export function matchRoute(routes: Route[], method: string, path: string): RouteMatch {
  // A plain loop: this runs on every request, and the table is small.
  let onPath: Route[] | undefined;
  for (const route of routes) {
    const match = route.paramNames.length === 0 ? (route.template === path ? NO_PARAMS : null) : route.pattern.exec(path);
    if (!match) continue;
    if (route.method === method) {
      const params: Record<string, string> = {};
      route.paramNames.forEach((name, i) => (params[name] = match[i + 1] ?? ""));
      return { kind: "found", route, params };
    }
    (onPath ??= []).push(route);
  }
  if (!onPath) return NOT_FOUND;
  const [first] = onPath as [Route, ...Route[]];
  return { kind: "wrong-method", allow: onPath.map((route) => route.method), shape: first.shape, template: first.template };
}
