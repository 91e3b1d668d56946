// The printed dashboard link opens with no certificate warning: the dashboard, the admin API and
// the inbox take plain HTTP from this machine (a loopback peer, a loopback Host, no proxy between),
// /v1 never does, and no other machine is offered anything but HTTPS. A browser at the server's
// root is sent to the dashboard; an API client there keeps the API's error shape.
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { createIntake } from "@intake/server";
import { serve } from "@intake/server/node";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS, SEED } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A plain-HTTP request to `host:port` with the headers given (Host included: fetch cannot set it). */
function plain(host: string, port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = request(
      { host, port, path, headers: { host: `${host.includes(":") ? `[${host}]` : host}:${port}`, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe("plain HTTP from this machine", () => {
  it("opens the dashboard and the admin API at the printed http://127.0.0.1 link; /v1 stays HTTPS-only", async () => {
    harness = await startHarness();
    const { port, localOrigin, dashboardUrl } = harness.server;
    expect(localOrigin).toBe(`http://127.0.0.1:${port}`);
    expect(dashboardUrl).toBe(`http://127.0.0.1:${port}/__dashboard/`);
    const page = await plain("127.0.0.1", port, "/__dashboard/");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<html");
    expect(page.headers["content-security-policy"]).toContain("default-src 'self'");
    const accounts = await plain("127.0.0.1", port, "/__admin/accounts", admin);
    expect(accounts.status).toBe(200);
    expect(JSON.parse(accounts.text)).toEqual(expect.arrayContaining([expect.objectContaining({ id: "acc_acme" })]));
    // The token is still asked for.
    expect((await plain("127.0.0.1", port, "/__admin/accounts")).status).toBe(401);
    const api = await plain("127.0.0.1", port, `/v1/contacts?apiKey=${KEYS.acme}&email=nobody%40example.com`);
    expect(api.status).toBe(400);
    expect(JSON.parse(api.text).error).toMatchObject({
      code: "HTTPS_REQUIRED",
      message: expect.stringContaining("The API accepts HTTPS only"),
    });
  });

  it.each([
    ["relayed by a proxy", { "x-forwarded-for": "203.0.113.9" }],
    ["relayed with Forwarded", { forwarded: "for=203.0.113.9" }],
    ["saying it came over https, untrusted", { "x-forwarded-proto": "https" }],
    ["addressed to another name (a rebinding page)", { host: "intake.attacker.example" }],
    ["addressed to no name a URL can hold", { host: "[not a host" }],
  ])("refuses plain HTTP %s, for the dashboard and the admin API alike", async (_, headers) => {
    harness = await startHarness();
    const { port } = harness.server;
    const page = await plain("127.0.0.1", port, "/__dashboard/", headers);
    expect(page.status).toBe(400);
    expect(page.text).toContain("The dashboard is served over HTTPS: https://");
    expect(page.text).toContain("Plain HTTP is accepted only from the server's own machine");
    const accounts = await plain("127.0.0.1", port, "/__admin/accounts", { ...admin, ...headers });
    expect(accounts.status).toBe(400);
    expect(JSON.parse(accounts.text).error).toMatchObject({ code: "HTTPS_REQUIRED" });
  });

  it("refuses plain HTTP handed to the core in process (msw, createIntake): only the node adapter knows a peer is this machine", async () => {
    const intake = createIntake({ seed: SEED, adminToken: ADMIN_TOKEN });
    const answer = await intake.fetch(new Request("http://127.0.0.1/__admin/accounts", { headers: admin }));
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.code).toBe("HTTPS_REQUIRED");
    await intake.close();
  });

  // Another machine is simulated by this one's own non-loopback address: the connection then comes from it.
  const external = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;
  it.skipIf(!external)("offers another machine nothing but HTTPS, on a server listening on every address", async () => {
    const intake = createIntake({ seed: SEED, adminToken: ADMIN_TOKEN });
    const server = await serve(intake, { host: "0.0.0.0", port: 0 });
    try {
      expect(server.dashboardUrl).toBe(`http://127.0.0.1:${server.port}/__dashboard/`);
      expect((await plain("127.0.0.1", server.port, "/__dashboard/")).status).toBe(200);
      const page = await plain(external!, server.port, "/__dashboard/", { host: `127.0.0.1:${server.port}` });
      expect(page.status).toBe(400);
      expect(page.text).toContain("The dashboard is served over HTTPS");
      expect((await plain(external!, server.port, "/__admin/accounts", { ...admin, host: `127.0.0.1:${server.port}` })).status).toBe(400);
    } finally {
      await server.close();
      await intake.close();
    }
  });

  it("prints the HTTPS link when the server listens on no loopback address", async () => {
    const intake = createIntake({ seed: SEED, adminToken: ADMIN_TOKEN });
    const address = external ?? "127.0.0.1";
    const server = await serve(intake, { host: address, port: 0, dashboard: false });
    try {
      if (external) {
        expect(server.localOrigin).toBeUndefined();
        expect(server.dashboardUrl).toBe(`https://${external}:${server.port}/__dashboard/`);
      } else expect(server.localOrigin).toBe(`http://127.0.0.1:${server.port}`);
    } finally {
      await server.close();
      await intake.close();
    }
  });
});

describe("the server's root", () => {
  it("sends a browser to the dashboard, over HTTPS and over plain HTTP from this machine", async () => {
    harness = await startHarness();
    const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    const secure = await harness.fetch(`${harness.origin}/`, { headers: html, redirect: "manual" });
    expect(secure.status).toBe(302);
    expect(secure.headers.get("location")).toBe("/__dashboard/");
    const local = await plain("127.0.0.1", harness.server.port, "/", html);
    expect(local.status).toBe(302);
    expect(local.headers.location).toBe("/__dashboard/");
  });

  it("answers an API client the API's 404 in the general error shape", async () => {
    harness = await startHarness();
    for (const accept of [undefined, "application/json", "*/*"]) {
      const answer = await harness.fetch(`${harness.origin}/`, { headers: accept ? { accept } : {}, redirect: "manual" });
      expect(answer.status, accept).toBe(404);
      expect((await answer.json()).error).toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("Paths start with /v1/") });
    }
  });
});
