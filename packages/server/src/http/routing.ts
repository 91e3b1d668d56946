/** The pipeline's routing steps: which operation a request is for, and the 404 or 405 when none. */
import { HttpError } from "../shared/errors.js";
import type { Step } from "./pipeline.js";
import { matchRoute, type Route, type RouteMatch } from "./routes.js";

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
