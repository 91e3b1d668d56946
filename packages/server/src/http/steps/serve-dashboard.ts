/**
 * /__dashboard: the dashboard's prebuilt files (packages/dashboard, shipped in the server's
 * dist/dashboard), under the policy secure-dashboard.ts sets. Any path that is not one of its
 * hashed assets answers index.html, so each page has an address of its own. The files come from
 * the adapter (the core reads no disk); without them the path says why.
 */
import { HttpError } from "../../shared/errors.js";
import type { Step } from "../compose.js";
import type { Routed } from "../context.js";
import { BASES } from "../routes.js";

/** The dashboard's built files by name (`index.html`, `assets/index-3f2a.js`); undefined when there is none. */
export interface DashboardFiles {
  read(name: string): Promise<string | undefined>;
}

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  html: "text/html; charset=utf-8",
  svg: "image/svg+xml",
  json: "application/json",
  map: "application/json",
};

const ASSET = /^assets\/[A-Za-z0-9_-][A-Za-z0-9._-]*\.([a-z0-9]+)$/;

const NOT_SERVED =
  "The dashboard is not served here: it is built with `npm run build` and served by the node adapter (intake-server, serve()), not with msw.";

/** Answers the file the path names (`files()`: the adapter's, or none). */
export function serveDashboard(files: () => DashboardFiles | undefined): Step<Routed> {
  return async function serveDashboardFile(context) {
    const { url, request, headers, base } = context;
    const home = `${base}${BASES.dashboard}/`;
    if (context.path === BASES.dashboard)
      return { status: 308, headers: Object.assign(headers, { location: `${home}${url.search}` }), body: null };
    // A browser at the server's root: the dashboard is what there is to see.
    if (context.route.operationId === "dashboardRoot")
      return { status: 302, headers: Object.assign(headers, { location: home }), body: null };
    const source = files();
    if (!source) throw new HttpError(404, "NOT_FOUND", NOT_SERVED);
    const name = context.params.file ?? "";
    const asset = ASSET.exec(name);
    if (name.startsWith("assets/") && !asset) throw new HttpError(404, "NOT_FOUND", `No dashboard file ${name}.`);
    const file = await source.read(asset ? name : "index.html");
    if (file === undefined) throw new HttpError(404, "NOT_FOUND", asset ? `No dashboard file ${name}.` : NOT_SERVED);
    // The page names its files under /__dashboard/: under a base, that is where they are.
    const body = asset || base === "" ? file : file.replaceAll(`"${BASES.dashboard}/`, `"${home}`);
    Object.assign(headers, {
      "content-type": TYPES[asset?.[1] ?? "html"] ?? "application/octet-stream",
      // Asset names carry a hash of their content; the page names the current ones.
      "cache-control": asset ? "public, max-age=31536000, immutable" : "no-store",
    });
    return { status: 200, headers, body: request.method === "HEAD" ? null : body };
  };
}
