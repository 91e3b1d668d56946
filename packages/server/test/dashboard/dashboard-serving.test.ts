// /__dashboard over HTTPS: the built page and its hashed assets, with a strict
// Content-Security-Policy, on the server's own port; the admin token never in a request.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type HttpsHarness } from "../support/harness.js";

const built = fileURLToPath(new URL("../../../dashboard/dist/", import.meta.url));
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

let harness: HttpsHarness;
beforeAll(async () => {
  if (!existsSync(`${built}index.html`)) throw new Error("The dashboard is not built: run npm run build -w @intake/dashboard.");
  harness = await startHarness();
});
afterAll(() => harness?.close());

const get = (path: string, init?: RequestInit) => harness.fetch(`${harness.origin}${path}`, { redirect: "manual", ...init });

describe("the dashboard's files", () => {
  it("serves its page at /__dashboard/ and at every page's path, uncached, with the policy", async () => {
    for (const path of ["/__dashboard/", "/__dashboard/contacts/ct_1?account=acc_acme", "/__dashboard/settings"]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("content-security-policy")).toBe(CSP);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      const html = await response.text();
      expect(html).toMatch(/<script type="module" crossorigin src="\/__dashboard\/assets\/index-[\w-]+\.js"><\/script>/);
      // Nothing inline for the policy to refuse, nothing from elsewhere.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\bstyle=|https?:\/\//);
    }
  });

  it("serves the hashed assets with their types, cached for good; an unknown one is 404", async () => {
    const assets = readdirSync(`${built}assets`);
    const script = assets.find((name) => name.endsWith(".js"))!;
    const style = assets.find((name) => name.endsWith(".css"))!;
    const js = await get(`/__dashboard/assets/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await js.text()).length).toBeGreaterThan(1000);
    expect((await get(`/__dashboard/assets/${style}`)).headers.get("content-type")).toBe("text/css; charset=utf-8");
    for (const path of [
      "/__dashboard/assets/nope.js",
      "/__dashboard/assets/nested/index.js",
      "/__dashboard/assets/%2e%2e%2fpackage.json",
    ]) {
      const response = await get(path);
      expect(response.status, path).not.toBe(200);
      expect(await response.text()).not.toContain("<html");
    }
  });

  it("sends /__dashboard to /__dashboard/, refuses other methods and relayed plain HTTP", async () => {
    const bare = await get("/__dashboard?account=acc_acme");
    expect(bare.status).toBe(308);
    expect(bare.headers.get("location")).toBe("/__dashboard/?account=acc_acme");
    const post = await get("/__dashboard/", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const head = await get("/__dashboard/", { method: "HEAD" });
    expect(head.status).toBe(200);
    // Plain HTTP from this machine is served (local-http.test.ts); relayed by a proxy, it is not.
    const relayed = await globalThis.fetch(`${harness.origin.replace("https://", "http://")}/__dashboard/`, {
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(relayed.status).toBe(400);
    expect(await relayed.text()).toContain(`The dashboard is served over HTTPS: https://`);
  });

  it("leaves /v1 and /__admin as they were", async () => {
    expect((await get("/__admin/accounts")).status).toBe(401);
    expect((await get("/v1/contacts")).status).toBe(401);
  });
});
