// Builds a page's script for the browser (esbuild, from the TypeScript sources) and serves it
// with msw's service worker on 127.0.0.1. http://127.0.0.1 is a secure context, so the worker
// registers. Used by the browser tests of the msw handlers and of the client.
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { build } from "esbuild";

/**
 * The page's script, bundled as a browser app (or wrangler, for workerd's conditions) would bundle
 * it. Workspace packages come from their TypeScript sources unless `conditions` says otherwise
 * (without "@intake/source", from their built dist, as users get them).
 */
export async function bundleForBrowser(entry: string, conditions: string[] = ["@intake/source"]): Promise<Uint8Array> {
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions,
    logLevel: "error",
  });
  return bundle.outputFiles[0]!.contents;
}

export const PAGE_HTML =
  '<!doctype html><meta charset="utf-8"><title>Intake in the browser</title><script type="module" src="/page.js"></script>';

export async function servePage(entry: string, conditions?: string[]): Promise<{ url: string; close(): Promise<void> }> {
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    "/": { type: "text/html", body: PAGE_HTML },
    "/page.js": { type: "text/javascript", body: await bundleForBrowser(entry, conditions) },
    "/mockServiceWorker.js": {
      type: "text/javascript",
      body: await readFile(createRequire(import.meta.url).resolve("msw/mockServiceWorker.js")),
    },
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", "http://127.0.0.1").pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
