/**
 * The route the request names (the front door matched it in routes.ts's table): a path with no
 * route, or a method the path does not take, is refused in the words of the part of the service
 * the path is in.
 */
import { HttpError } from "../../shared/errors.js";
import type { Step } from "../compose.js";
import { add, type Area, type Routed } from "../context.js";
import { BASES } from "../routes.js";

/** How a part of the service words a path it has no route for (`base`: where the service is mounted), and one of its routes. */
const WORDS: Record<Area, { notFound: (method: string, pathname: string, base: string) => string; path: (template: string) => string }> = {
  api: {
    notFound: (method, pathname, base) =>
      `No operation at ${method} ${pathname}. Paths start with ${base}${BASES.api}/, for example ${base}${BASES.api}/contacts.`,
    path: (template) => template,
  },
  admin: {
    notFound: (method, pathname, base) =>
      `No admin operation at ${method} ${pathname}. The admin API is described at ${base}${BASES.admin}/openapi.json.`,
    path: (template) => `${BASES.admin}${template}`,
  },
  dashboard: {
    notFound: (_, pathname) => `No dashboard page at ${pathname}.`,
    path: () => "the dashboard",
  },
  inbox: {
    notFound: (_, pathname, base) => `No inbox at ${pathname}: an account's webhook inbox is ${base}${BASES.inbox}/<accountId>.`,
    path: (template) => `${BASES.inbox}${template.replace("{accountId}", "<accountId>")} (the webhook inbox)`,
  },
};

/** The route the request names, or 404 for a path with no operation and 405 (with Allow) for a method the path does not take. */
export const requireRoute: Step<unknown, Routed> = function requireRoute(context, next) {
  const { match, request } = context;
  const words = WORDS[context.area];
  if (!match || match.kind === "not-found")
    throw new HttpError(404, "NOT_FOUND", words.notFound(request.method, context.url.pathname, context.base));
  if (match.kind === "wrong-method") {
    throw new HttpError(
      405,
      "METHOD_NOT_ALLOWED",
      `Method ${request.method} is not allowed on ${words.path(match.template)}; use ${match.allow.join(" or ")}.`,
      {
        allow: match.allow.join(", "),
      },
    );
  }
  return next(add(add(context, "route", match.route), "params", match.params));
};
