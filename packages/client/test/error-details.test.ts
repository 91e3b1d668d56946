// What an integrator needs to report and act on a failure, through the client against the
// reference server: the service's request id on every answer (error or result), errors that
// survive JSON.stringify, a User-Agent naming the SDK, and errors of calls that were not retried
// saying whether the effect may have happened and what to do.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import type * as client_ from "@intake/client";
import {
  BadRequestError,
  ConnectionError,
  createIntakeClient,
  ServerError,
  TimeoutError,
  type FetchFn,
  type IntakeError,
} from "@intake/client";
import { createAdminClient } from "@intake/server/admin-client";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SUITE_ADMIN_TOKEN, SUITE_KEY, SUITE_SEED } from "./runtimes/suite.js";

let server: IntakeTestServer;
let admin: ReturnType<typeof createAdminClient>;
const sentHeaders: Headers[] = [];
const recording: FetchFn = (request) => (sentHeaders.push(new Headers(request.headers)), server.fetch(request));

beforeAll(async () => {
  server = await startIntakeServer({ seed: SUITE_SEED, adminToken: SUITE_ADMIN_TOKEN });
  admin = createAdminClient({ adminUrl: server.adminUrl, token: SUITE_ADMIN_TOKEN, fetch: server.fetch });
});
afterEach(async () => {
  sentHeaders.length = 0;
  await admin.clearFaults();
});
afterAll(() => server?.stop());

const fast = { initialDelayMs: 1, maxDelayMs: 2 };
const client = <F extends "query" | "header">(auth: F, options: { headers?: Record<string, string> } = {}) =>
  createIntakeClient({ auth, apiKey: SUITE_KEY, baseUrl: server.baseUrl, fetch: recording, retry: fast, ...options });
const failure = (promise: Promise<unknown>): Promise<IntakeError> =>
  promise.then(
    () => {
      throw new Error("the call succeeded");
    },
    (e: unknown) => e as IntakeError,
  );
const REQUEST_ID = /^req_\S+$/;
const message = { customData: { fromId: "u-1", customChannel: "chat", body: "Hello" } };

describe("request ids", () => {
  it("an error the service answered carries its X-Request-Id", async () => {
    const error = await failure(client("query").contacts.create({ phone: "not a phone" }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.requestId).toMatch(REQUEST_ID);
  });

  it("each resource call's result carries the id of its answer, kept out of JSON", async () => {
    const intake = client("query");
    const created = await intake.contacts.create({ phone: "+14155550177", firstName: "Ada" });
    const found = await intake.contacts.find({ phoneNumber: "+14155550177" });
    const added = await intake.lists.addContact("lst_runtime", { contactId: created.id });
    const sent = await intake.messages.send(message);
    const ids = [created._requestId, found?._requestId, added._requestId, sent._requestId];
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(4);
    expect(JSON.parse(JSON.stringify(created))).not.toHaveProperty("_requestId");
    expect(Object.keys(added)).not.toContain("_requestId");
  });

  it("an error with no answer has none", async () => {
    const port = await closedPort();
    const error = await failure(
      createIntakeClient({ auth: "query", apiKey: SUITE_KEY, baseUrl: `https://127.0.0.1:${port}/v1`, maxRetries: 0 }).contacts.find({
        email: "a@example.com",
      }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.requestId).toBeUndefined();
  });
});

describe("errors as JSON", () => {
  it("JSON.stringify keeps the name, message, status, code and request id", async () => {
    const error = await failure(client("query").contacts.create({ phone: "not a phone" }));
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: "BadRequestError",
      message: error.message,
      status: 400,
      code: "INVALID_PHONE",
      requestId: error.requestId,
      mayHaveTakenEffect: false,
    });
    expect(error.message).not.toBe("");
  });

  it("a connection failure keeps its name, message and code", async () => {
    const port = await closedPort();
    const error = await failure(
      createIntakeClient({ auth: "query", apiKey: SUITE_KEY, baseUrl: `https://127.0.0.1:${port}/v1`, maxRetries: 0 }).contacts.find({
        email: "a@example.com",
      }),
    );
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: "ConnectionError", message: error.message, code: "ECONNREFUSED" });
    expect(JSON.stringify(error)).not.toContain(SUITE_KEY);
  });
});

describe("User-Agent", () => {
  it("names the SDK and the runtime", async () => {
    await client("query").contacts.find({ email: "absent@example.com" });
    expect(sentHeaders[0]!.get("user-agent")).toMatch(/^intake-client\/\S+ node\/\d+\.\d+\.\d+$/);
  });

  it("names the package's version in the build", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    const built = (await import(new URL("../dist/index.js", import.meta.url).href)) as typeof client_;
    await built
      .createIntakeClient({ auth: "query", apiKey: SUITE_KEY, baseUrl: server.baseUrl, fetch: recording })
      .contacts.find({ email: "absent@example.com" });
    expect(sentHeaders[0]!.get("user-agent")).toBe(`intake-client/${version} node/${process.versions.node}`);
  });

  it("is the caller's when the headers option gives one", async () => {
    await client("query", { headers: { "User-Agent": "acme-funnel/2.1" } }).contacts.find({ email: "absent@example.com" });
    expect(sentHeaders[0]!.get("user-agent")).toBe("acme-funnel/2.1");
  });
});

describe("a call that was not retried says whether it may have taken effect", () => {
  it("a 5xx on send: it may have, and sending again may record it twice", async () => {
    await admin.setFaults([{ operationId: "sendCustomChannelMessage", status: 503, times: 1 }]);
    const error = await failure(client("query").messages.send(message));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.mayHaveTakenEffect).toBe(true);
    expect(error.message).toMatch(/It was not retried, as it may have taken effect: Sending it again may record the message twice/);
    expect(error.requestId).toMatch(REQUEST_ID);
  });

  it("a 5xx on a grant with an idempotency key: repeat it with the same key", async () => {
    await admin.setFaults([{ operationId: "grantSubaccountCredits", status: 500, times: 1 }]);
    const error = await failure(
      client("header").subaccounts.grantCredits({ email: "sub@example.com", amount: 5 }, { idempotencyKey: "rch_1" }),
    );
    expect(error).toMatchObject({ status: 500, mayHaveTakenEffect: true });
    expect(error.message).toMatch(/Repeat it with the same idempotencyKey/);
  });

  it("a timeout on an email-only create: look the contact up first", async () => {
    await admin.setFaults([{ operationId: "createContact", latencyMs: 2_000, times: 1 }]);
    const error = await failure(client("query").contacts.create({ email: "late@example.com" }, { timeoutMs: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.mayHaveTakenEffect).toBe(true);
    expect(error.message).toMatch(/may have taken effect: Look the contact up \(contacts\.find\(\{ email \}\)\)/);
  });

  it("a timeout on the attempt after a 429: it may have taken effect all the same", async () => {
    await admin.setFaults([{ operationId: "createContact", latencyMs: 2_000, times: 1 }]);
    let calls = 0;
    // The first attempt is refused before anything is done (a 429), the second reaches the slow server.
    const refusedFirst: FetchFn = (request) =>
      calls++ === 0
        ? Promise.resolve(
            Response.json(
              { success: false, error: { code: "RATE_LIMITED", message: "Too many requests." } },
              { status: 429, headers: { "retry-after": "0" } },
            ),
          )
        : server.fetch(request);
    const intake = createIntakeClient({ auth: "query", apiKey: SUITE_KEY, baseUrl: server.baseUrl, fetch: refusedFirst, retry: fast });
    const error = await failure(intake.contacts.create({ email: "late-again@example.com" }, { timeoutMs: 200 }));
    expect(calls).toBe(2);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.mayHaveTakenEffect).toBe(true);
    expect(error.message).toMatch(/may have taken effect/);
  });

  it("a lookup that failed every retry, a refused connection, or a 400: no such doubt", async () => {
    await admin.setFaults([{ operationId: "findContact", status: 503, times: 3 }]);
    const lookup = await failure(client("query").contacts.find({ email: "absent@example.com" }));
    expect(lookup).toMatchObject({ status: 503, mayHaveTakenEffect: false });
    const port = await closedPort();
    const refused = await failure(
      createIntakeClient({ auth: "query", apiKey: SUITE_KEY, baseUrl: `https://127.0.0.1:${port}/v1`, retry: fast }).messages.send(message),
    );
    expect(refused).toMatchObject({ name: "ConnectionError", mayHaveTakenEffect: false });
    const invalid = await failure(client("query").contacts.create({ phone: "not a phone" }));
    expect(invalid.mayHaveTakenEffect).toBe(false);
    for (const error of [lookup, refused, invalid]) expect(error.message).not.toMatch(/may have taken effect/);
  });
});

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const listener = createServer().listen(0, "127.0.0.1", () => {
      const { port } = listener.address() as { port: number };
      listener.close(() => resolve(port));
    });
  });
}
