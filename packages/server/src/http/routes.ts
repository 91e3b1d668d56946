/**
 * The route table, read from the contract: each path and method of openapi.yaml becomes a route
 * carrying its operationId, the auth forms it accepts and the error shape it answers in.
 */
import { AUTH_SCHEMES, listOperations, schemesOf, type AuthForm, type OpenApiDocument } from "@intake/spec";
import { HttpError, type ErrorShape } from "./errors.js";
import type { Step } from "./pipeline.js";

export interface Route<Id extends string = string> {
  operationId: Id;
  method: string;
  template: string;
  pattern: RegExp;
  paramNames: string[];
  forms: AuthForm[];
  shape: ErrorShape;
  takesBody: boolean;
  /** Whether the body must be sent (else an empty one is no body). */
  bodyRequired: boolean;
}

export type RouteMatch<Id extends string = string> =
  | { kind: "found"; route: Route<Id>; params: Record<string, string> }
  | { kind: "wrong-method"; allow: string[]; shape: ErrorShape; template: string }
  | { kind: "not-found" };

const FORM_OF_SCHEME = Object.fromEntries(Object.entries(AUTH_SCHEMES).map(([form, scheme]) => [scheme, form])) as Record<
  string,
  AuthForm
>;

export function buildRoutes<Id extends string>(doc: OpenApiDocument): Array<Route<Id>> {
  return listOperations(doc).map(({ path, method, operation }) => {
    const paramNames: string[] = [];
    const source = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      paramNames.push(name);
      return "([^/]+)";
    });
    return {
      operationId: operation.operationId as Id,
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

/** The receive endpoint is the one whose errors the contract types as `ReceiveError`. */
function shapeOf(operation: Record<string, unknown>): ErrorShape {
  const bad = (operation.responses as Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>)["400"];
  return bad?.content?.["application/json"]?.schema?.$ref?.endsWith("/ReceiveError") ? "string" : "general";
}

export function matchRoute<Id extends string>(routes: Array<Route<Id>>, method: string, path: string): RouteMatch<Id> {
  // A plain loop: this runs on every request, and the table is small.
  let onPath: Array<Route<Id>> | undefined;
  for (const route of routes) {
    const match = route.paramNames.length === 0 ? (route.template === path ? NO_PARAMS : null) : route.pattern.exec(path);
    if (!match) continue;
    if (route.method === method) {
      const params: Record<string, string> = {};
      for (let i = 0; i < route.paramNames.length; i++) params[route.paramNames[i]!] = match[i + 1]!;
      return { kind: "found", route, params };
    }
    (onPath ??= []).push(route);
  }
  if (!onPath) return { kind: "not-found" };
  const first = onPath[0]!;
  return { kind: "wrong-method", allow: onPath.map((route) => route.method), shape: first.shape, template: first.template };
}

const NO_PARAMS: string[] = [];

const NOT_FOUND: RouteMatch = { kind: "not-found" };

/**
 * Matches the request to a route of the table under `base` and takes its error shape. It refuses
 * nothing itself: an unknown path or method is answered by `requireRoute`, after the checks that
 * come first whatever the path (HTTPS).
 */
export function route(routes: Route[], base: string): Step {
  return (context, next) => {
    const { pathname } = context.url;
    const under = pathname === base || pathname.startsWith(`${base}/`);
    const match = under ? matchRoute(routes, context.request.method, pathname.slice(base.length) || "/") : NOT_FOUND;
    context.match = match;
    if (match.kind === "found") context.shape = match.route.shape;
    if (match.kind === "wrong-method") context.shape = match.shape;
    return next();
  };
}

export interface RouteWords {
  /** What a 404 says. */
  notFound: (method: string, pathname: string) => string;
  /** What a 405 names the path by, from its template. */
  path: (template: string) => string;
}

/** 404 for a path with no operation, 405 (with Allow) for a method the path does not take. */
export function requireRoute(words: RouteWords): Step {
  return (context, next) => {
    const { match, request } = context;
    if (!match || match.kind === "not-found") throw new HttpError(404, "NOT_FOUND", words.notFound(request.method, context.url.pathname));
    if (match.kind === "wrong-method") {
      const allow = match.allow.join(", ");
      throw new HttpError(405, "METHOD_NOT_ALLOWED", `Method ${request.method} is not allowed on ${words.path(match.template)}; use ${match.allow.join(" or ")}.`, { allow });
    }
    context.route = match.route;
    context.params = match.params;
    return next();
  };
}
