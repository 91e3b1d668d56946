import { HttpError } from "../../shared/errors.js";
import type { Step } from "../compose.js";

/** /__admin: the admin token, as a Bearer header. */
export function requireAdminToken(token: string): Step {
  return function requireAdminToken(context, next) {
    const given = /^Bearer\s+(.+)$/i.exec(context.request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    if (!equal(given, token)) {
      throw new HttpError(
        401,
        "UNAUTHORIZED",
        "Send the admin token as Authorization: Bearer <token>; the server printed it at start (or set it with --admin-token).",
      );
    }
    return next(context);
  };
}

/** Compares in time independent of where the strings differ. */
function equal(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
