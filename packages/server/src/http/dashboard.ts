/**
 * /__dashboard: the dashboard's prebuilt files (packages/server/dashboard, built into
 * dist/dashboard), served with a strict Content-Security-Policy. Any path that is not one of its
 * hashed assets answers index.html, so each page has an address of its own. The files come from
 * the adapter (the core reads no disk); without them the path says how to get them.
 */
import type { ApiRequest, ApiResponse } from "./exchange.js";

export const DASHBOARD_BASE = "/__dashboard";

/** The dashboard's built files by name (`index.html`, `assets/index-3f2a.js`); undefined when there is none. */
export interface DashboardFiles {
  read(name: string): Promise<string | undefined>;
}

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

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  html: "text/html; charset=utf-8",
  svg: "image/svg+xml",
  json: "application/json",
  map: "application/json",
};

const ASSET = /^assets\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.([a-z0-9]+)$/;

export function isDashboardPath(pathname: string): boolean {
  return pathname === DASHBOARD_BASE || pathname.startsWith(`${DASHBOARD_BASE}/`);
}

export function createDashboard(files: DashboardFiles | undefined, options: { trustForwardedProto: boolean }) {
  return async (request: ApiRequest): Promise<ApiResponse> => {
    const { url } = request;
    const secure = url.protocol === "https:" || (options.trustForwardedProto && request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https");
    if (!secure) return text(400, `The dashboard is served over HTTPS only: https://${url.host}${DASHBOARD_BASE}/`);
    if (request.method !== "GET" && request.method !== "HEAD") return text(405, `Method ${request.method} is not allowed on the dashboard; use GET.`, { allow: "GET, HEAD" });
    if (url.pathname === DASHBOARD_BASE) return { status: 308, headers: { ...secured(), location: `${DASHBOARD_BASE}/${url.search}` }, body: null };
    if (!files) return text(404, "The dashboard is not built: run `npm run build -w @intake/server` (it is served by the node adapter only, not with msw).");

    const name = url.pathname.slice(DASHBOARD_BASE.length + 1);
    const asset = ASSET.exec(name);
    if (name.startsWith("assets/") && !asset) return text(404, `No dashboard file ${name}.`);
    const body = await files.read(asset ? name : "index.html");
    if (body === undefined) return text(404, asset ? `No dashboard file ${name}.` : "The dashboard is not built: run `npm run build -w @intake/server`.");
    const headers = secured({
      "content-type": TYPES[asset?.[1] ?? "html"] ?? "application/octet-stream",
      // Asset names carry a hash of their content; the page names the current ones.
      "cache-control": asset ? "public, max-age=31536000, immutable" : "no-store",
    });
    return { status: 200, headers, body: request.method === "HEAD" ? null : body };
  };
}

function secured(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "content-security-policy": DASHBOARD_CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    ...extra,
  };
}

function text(status: number, message: string, extra: Record<string, string> = {}): ApiResponse {
  return { status, headers: secured({ "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...extra }), body: message };
}
