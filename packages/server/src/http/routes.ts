/**
 * The route table, read from the contract: each path and method of openapi.yaml becomes a route
 * carrying its operationId, the auth forms it accepts and the error shape it answers in.
 */
import { AUTH_SCHEMES, listOperations, schemesOf, type AuthForm, type OpenApiDocument } from "@intake/spec";
import type { ErrorShape } from "../shared/errors.js";

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
