// @intake/server/testing, as a test runner's global set-up uses it.
import { ConnectionError, createIntakeClient } from "@intake/client";
import * as connectEntry from "@intake/server/connect";
import { AdminApiError, connectIntake, startIntakeServer, trustingFetch, type IntakeTestServer } from "@intake/server/testing";
import { afterEach, describe, expect, it } from "vitest";
import { importGraph } from "../support/import-graph.js";
import { startReceiver, type Receiver } from "../support/receiver.js";

let server: IntakeTestServer | undefined;
let hooks: Receiver | undefined;
afterEach(async () => {
  await server?.stop();
  await hooks?.close();
  server = hooks = undefined;
});

const KEY = "ik_testing_helper_00000001";

describe("startIntakeServer and connectIntake", () => {
  it("start an HTTPS server whose connection crosses into a worker as JSON, with keys, a trusting fetch and an admin client", async () => {
    hooks = await startReceiver();
    server = await startIntakeServer({
      clock: "virtual",
      seed: {
        accounts: [
          { id: "acc_demo", name: "Demo", apiKey: KEY, webhookUrl: hooks.url, campaigns: [{ name: "Bot", state: "Live" }], credits: 10 },
        ],
      },
    });
    const connection = JSON.parse(JSON.stringify(server.connection));
    expect(connection).toMatchObject({ baseUrl: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/v1$/), keys: { acc_demo: KEY } });

    const intake = connectIntake(connection);
    const client = createIntakeClient({ auth: "query", apiKey: intake.keys.acc_demo!, baseUrl: intake.baseUrl, fetch: intake.fetch });
    await client.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hello" } });
    const delivery = await intake.admin.waitForDelivery((d) => d.kind === "reply");
    expect(delivery).toMatchObject({ state: "delivered", payload: { toId: "u1" } });
    expect(hooks.received).toHaveLength(1);

    expect((await intake.admin.journal({ operationId: "receiveCustomChannelMessage" })).map((e) => e.status)).toEqual([200]);
    expect((await intake.admin.advanceClock(60_000)).now).toBe("2026-01-01T00:01:00.000Z");
    await intake.admin.setFaults([{ operationId: "findContact", status: 503 }]);
    await expect(client.contacts.find({ email: "a@example.com" }, { maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    await intake.admin.clearFaults();
    await intake.admin.reset();
    expect(await intake.admin.messages()).toEqual([]);
    intake.fetch.close();
  });

  it("waitForDelivery says what it saw when nothing matches in time", async () => {
    server = await startIntakeServer({ seed: { accounts: [{ name: "Demo", apiKey: KEY }] } });
    await expect(server.admin.waitForDelivery(() => true, { timeoutMs: 50 })).rejects.toThrow(
      "No matching delivery finished within 50 ms. Deliveries: none.",
    );
  });

  it("admin errors are AdminApiError with the status and code", async () => {
    server = await startIntakeServer();
    const error = await server.admin.account("acc_missing").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error).toMatchObject({ status: 404, code: "NOT_FOUND", message: "No account with id acc_missing." });
  });

  it("the trusting fetch trusts that certificate only", async () => {
    server = await startIntakeServer({ seed: { accounts: [{ name: "Demo", apiKey: KEY }] } });
    const other = await startIntakeServer();
    try {
      const wrong = trustingFetch(other.certificate);
      const client = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: server.baseUrl, fetch: wrong, maxRetries: 0 });
      const error = await client.contacts.find({ email: "a@example.com" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY|CERT/);
      wrong.close();
    } finally {
      await other.stop();
    }
  });

  it("starts with the rate limit off, so a test may call as often as it needs; rateLimit turns it on", async () => {
    server = await startIntakeServer({ seed: { accounts: [{ name: "Demo", apiKey: KEY }] } });
    const client = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: server.baseUrl, fetch: server.fetch, maxRetries: 0 });
    for (let i = 0; i < 130; i++) await expect(client.contacts.find({ email: `a${i}@example.com` })).resolves.toBeNull();
    await server.stop();

    server = await startIntakeServer({ rateLimit: 2, seed: { accounts: [{ name: "Demo", apiKey: KEY }] } });
    const limited = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: server.baseUrl, fetch: server.fetch, maxRetries: 0 });
    await limited.contacts.find({ email: "a@example.com" });
    await limited.contacts.find({ email: "a@example.com" });
    await expect(limited.contacts.find({ email: "a@example.com" })).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it("stop closes the port", async () => {
    server = await startIntakeServer();
    const { baseUrl } = server;
    await server.stop();
    server = undefined;
    const fetch = trustingFetch("");
    await expect(fetch(`${baseUrl}/contacts`)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
    fetch.close();
  });
});

describe("@intake/server/connect", () => {
  it("connectIntake without a connection (a global set-up that did not run) says where the connection comes from", () => {
    for (const missing of [undefined, {}, { baseUrl: "https://127.0.0.1:1/v1" }]) {
      expect(() => connectIntake(missing as never)).toThrow(
        /connectIntake needs the connection startIntakeServer\(\) returned[^]*globalSetup/,
      );
    }
  });

  it("is what a test worker needs (connectIntake, trustingFetch, the admin client) and loads none of the server", async () => {
    expect(connectEntry.connectIntake).toBe(connectIntake);
    expect(connectEntry.trustingFetch).toBe(trustingFetch);
    // Its whole import graph: jest's workers cannot load the server's storage (CommonJS that
    // requires msw) on Node 20, so nothing of it may be reachable from here.
    const loaded = await importGraph("src/connect.ts", { platform: "node", external: ["openapi-fetch", "eventsource-parser"] });
    expect(loaded).toEqual([
      "src/admin-client.ts",
      "src/admin/client.ts",
      "src/admin/event-stream.ts",
      "src/admin/wait-for-delivery.ts",
      "src/connect.ts",
    ]);
  });
});
