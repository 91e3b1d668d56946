/** /__dashboard: a strict Content-Security-Policy, and its companions, on every answer. */
import type { Step } from "../compose.js";

/** Nothing but the dashboard's own files, and the admin API on the same origin. */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

/** Every answer of the dashboard's, its errors too, carries the policy and its companions. */
export const secureDashboard: Step = function secureDashboard(context, next) {
  Object.assign(context.headers, {
    "content-security-policy": DASHBOARD_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
  });
  return next(context);
};
