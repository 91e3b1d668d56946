/** The 404 or 405 when the path or method names no operation, in the words of the part of the service the path is in. */
import { HttpError } from "../shared/errors.js";
import type { Step } from "./compose.js";
import type { Routed } from "./context.js";
import { BASES, type Area } from "./routes.js";

const WORDS: Record<Area, { notFound: (method: string, pathname: string) => string; path: (template: string) => string }> = {
  api: {
    notFound: (method, pathname) => `No operation at ${method} ${pathname}. Paths start with ${BASES.api}/, for example ${BASES.api}/contacts.`,
    path: (template) => template,
  },
  admin: {
    notFound: (method, pathname) => `No admin operation at ${method} ${pathname}. The admin API is described at ${BASES.admin}/openapi.json.`,
    path: (template) => `${BASES.admin}${template}`,
  },
  dashboard: {
    notFound: (_, pathname) => `No dashboard page at ${pathname}.`,
    path: () => "the dashboard",
  },
};

/** The route the request names, or 404 for a path with no operation and 405 (with Allow) for a method the path does not take. */
export const requireRoute: Step<unknown, Routed> = function requireRoute(context, next) {
  const { match, request } = context;
  const words = WORDS[context.area];
  if (!match || match.kind === "not-found") throw new HttpError(404, "NOT_FOUND", words.notFound(request.method, context.url.pathname));
  if (match.kind === "wrong-method") {
    throw new HttpError(405, "METHOD_NOT_ALLOWED", `Method ${request.method} is not allowed on ${words.path(match.template)}; use ${match.allow.join(" or ")}.`, {
      allow: match.allow.join(", "),
    });
  }
  return next(Object.assign(context, { route: match.route, params: match.params }));
};
