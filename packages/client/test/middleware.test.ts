/**
 * Resource methods go through openapi-fetch, as `raw` calls do: its middleware sees them and its
 * serializers write them; the transport underneath places the key and applies timeouts and retries.
 */
import { AbortError, IntakeApiError, IntakeConfigError, RateLimitError, TimeoutError, type LogEntry } from "@intake/client";
import { getEventListeners } from "node:events";
import type { Middleware } from "openapi-fetch";
import { HttpResponse, delay } from "msw";
import { describe, expect, it } from "vitest";
import "./support/msw-lifecycle.js";
import { API_KEY, client, contact, json, record } from "./support/fixtures.js";

const passThrough: Middleware = { onRequest: () => undefined };
const found = { success: true, contactId: contact.id, contact };
const added = { success: true, listId: "lst 1/x", contactId: contact.id, added: true, message: "ok" };

describe("resource calls carry the key once and the client's headers", () => {
  const calls = {
    "contacts.find": (intake: ReturnType<typeof client<"query">>) => intake.contacts.find({ phoneNumber: "+1 415 555 0123" }),
    "contacts.create": (intake: ReturnType<typeof client<"query">>) =>
      intake.contacts.create({ phone: "+14155550123", firstName: "Zoë" }, { headers: { "X-Request-Id": "req-1" } }),
    "lists.addContact": (intake: ReturnType<typeof client<"query">>) => intake.lists.addContact("lst 1/x", { contactId: contact.id }),
    "messages.send": (intake: ReturnType<typeof client<"query">>) =>
      intake.messages.send({ customData: { fromId: "user-1", customChannel: "chat", body: "Hi ✓" } }),
    "messages.receive (with media)": (intake: ReturnType<typeof client<"query">>) =>
      intake.messages.receive({
        customData: {
          messageSid: "SM1",
          fromId: "user-1",
          toId: "acme",
          body: "See",
          mediaUrl: "https://cdn.example/a.png",
          mediaContentType: "image/png",
        },
        messageType: "text",
      }),
  };

  it.each(Object.entries(calls))("%s", async (_, call) => {
    const seen = record((request) =>
      request.method === "GET"
        ? json(found)
        : request.url.includes("_message")
          ? json({ success: true, messageId: "msg_1", contactId: contact.id, message: "ok" })
          : json(request.url.includes("/lists/") ? added : contact, 201),
    );
    await call(client("query", { headers: { "X-Client": "copy-me" } }));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url.searchParams.getAll("apiKey")).toEqual([API_KEY]);
    expect(seen[0]!.headers["x-client"]).toBe("copy-me");
  });
});

describe("middleware on raw", () => {
  it("sees resource calls, without the key (placed below it), and can change the answer", async () => {
    record(() => json(found));
    const intake = client("query");
    const requests: string[] = [];
    intake.raw.use({
      onRequest: ({ request }) => {
        requests.push(`${request.method} ${request.url} ${JSON.stringify([...request.headers])}`);
      },
      onResponse: () => json({ ...found, contact: { ...contact, firstName: "Changed" } }),
    });
    const got = await intake.contacts.find({ email: "ada@example.com" });
    expect(got?.firstName).toBe("Changed");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain("/v1/contacts?email=ada%40example.com");
    expect(requests[0]).not.toContain(API_KEY);
  });

  it("once ejected, no longer sees them", async () => {
    record(() => json(found));
    const intake = client("query");
    let seenByMiddleware = 0;
    const counting: Middleware = { onRequest: () => void seenByMiddleware++ };
    intake.raw.use(counting);
    intake.raw.use(counting);
    await intake.contacts.find({ email: "ada@example.com" });
    intake.raw.eject(counting);
    await intake.contacts.find({ email: "ada@example.com" });
    intake.raw.eject(counting);
    await intake.contacts.find({ email: "ada@example.com" });
    // Registered twice: seen twice, then once (one registration left), then not at all.
    expect(seenByMiddleware).toBe(3);
  });

  it("errors are the typed errors through it too", async () => {
    record(() => json({ error: { code: "RATE_LIMITED", message: "Slow down" } }, 429, { "retry-after": "3600" }));
    const intake = client("query", { maxRetries: 0 });
    intake.raw.use(passThrough);
    const error = await intake.contacts.create({ phone: "+14155550123" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: "RATE_LIMITED", message: "Slow down", retryAfterMs: 3_600_000 });
    expect((error as RateLimitError).request.url).toContain("apiKey=[REDACTED]");
  });

  it("a timeout, a caller's abort and the logger work the same through it", async () => {
    record(async () => {
      await delay(1_000);
      return json(found);
    });
    const entries: LogEntry[] = [];
    const intake = client("query", { timeoutMs: 50, maxRetries: 0, logger: (entry) => entries.push(entry) });
    intake.raw.use(passThrough);
    await expect(intake.contacts.find({ email: "ada@example.com" })).rejects.toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 20);
    await expect(
      intake.contacts.find({ email: "ada@example.com" }, { signal: controller.signal, timeoutMs: 5_000 }),
    ).rejects.toBeInstanceOf(AbortError);
    expect(entries.map((e) => e.event)).toEqual(["request", "error", "request", "error"]);
    expect(JSON.stringify(entries)).not.toContain(API_KEY);
    expect(entries[0]!.url).toContain("apiKey=[REDACTED]");
  });

  it("a middleware that adds a fragment cannot push the key out of the query (or into a log)", async () => {
    const seen = record(() => json({ error: { code: "CONTACT_NOT_FOUND", message: "No contact" } }, 404));
    const entries: LogEntry[] = [];
    const intake = client("query", { logger: (entry) => entries.push(entry) });
    intake.raw.use({ onRequest: ({ request }) => new Request(`${request.url}#section`, request) });
    expect(await intake.contacts.find({ email: "ada@example.com" })).toBeNull();
    expect(seen[0]!.url.searchParams.getAll("apiKey")).toEqual([API_KEY]);
    expect(JSON.stringify(entries)).not.toContain(API_KEY);
  });

  it("use() with one middleware openapi-fetch refuses keeps the ones before it, for resource calls too", async () => {
    record(() => json(found));
    const intake = client("query");
    let seenByMiddleware = 0;
    const counting: Middleware = { onRequest: () => void seenByMiddleware++ };
    expect(() => intake.raw.use(counting, {} as Middleware)).toThrow();
    await intake.raw.GET("/contacts", { params: { query: { email: "ada@example.com" } } });
    await intake.contacts.find({ email: "ada@example.com" });
    expect(seenByMiddleware).toBe(2);
  });

  it.each([
    [
      "not JSON",
      () => new HttpResponse("<html>Welcome to nginx</html>", { status: 200, headers: { "content-type": "text/html" } }),
      /answered 200 with a body that is not JSON/,
    ],
    ["empty", () => new HttpResponse(null, { status: 204 }), /answered 204 with an empty body/],
  ] as const)("a 2xx answer that is %s is an IntakeApiError through it too, its URL redacted", async (_, reply, message) => {
    record(reply);
    const intake = client("query");
    intake.raw.use(passThrough);
    const error = (await intake.contacts.create({ email: "a@example.com" }).catch((e: unknown) => e)) as IntakeApiError;
    expect(error).toBeInstanceOf(IntakeApiError);
    expect(error.message).toMatch(message);
    expect(error.request.url).toContain("apiKey=[REDACTED]");
  });

  it("an answer a middleware makes itself (nothing sent) names the operation's path in an error", async () => {
    const seen = record(() => json(found));
    const intake = client("query");
    intake.raw.use({ onRequest: () => json({ error: { code: "CONTACT_NOT_FOUND", message: "stubbed" } }, 418) });
    const error = (await intake.contacts.find({ email: "a@example.com" }).catch((e: unknown) => e)) as IntakeApiError;
    expect(error).toMatchObject({ status: 418, message: "stubbed", request: { method: "GET", url: "/contacts" } });
    expect(seen).toHaveLength(0);
  });
});

describe("values the types do not allow, from untyped code", () => {
  it("an array in the query is written as openapi-fetch writes it", async () => {
    const seen = record(() => json(found));
    await client("query").contacts.find({ email: ["a@example.com", "b@example.com"] } as never);
    expect(seen[0]!.url.searchParams.getAll("email")).toEqual(["a@example.com", "b@example.com"]);
  });

  it("a header given as null or undefined is not sent", async () => {
    const seen = record(() => json(contact, 201));
    await client("query").contacts.create(
      { phone: "+14155550123" },
      { headers: { "x-gone": undefined, "x-null": null, "x-kept": "1" } as never },
    );
    expect(Object.keys(seen[0]!.headers).filter((name) => name.startsWith("x-"))).toEqual(["x-kept"]);
  });

  it('a list id of "." or ".." is refused before anything is sent (a URL folds it into the path)', async () => {
    const seen = record(() => json(added, 201));
    for (const listId of [".", ".."]) {
      await expect(client("query").lists.addContact(listId, { contactId: contact.id })).rejects.toThrow(
        new IntakeConfigError(`listId cannot be "${listId}": no record has that id, and a URL cannot carry it.`),
      );
    }
    expect(seen).toHaveLength(0);
  });
});

describe("raw calls share the transport", () => {
  it("a 429 is retried, then the answer returned as { data, response }", async () => {
    const seen = record((_, i) =>
      i === 0 ? json({ error: { code: "RATE_LIMITED", message: "wait" } }, 429, { "retry-after": "0" }) : json(found),
    );
    const { data, response } = await client("query").raw.GET("/contacts", { params: { query: { email: "ada@example.com" } } });
    expect(seen).toHaveLength(2);
    expect(response.status).toBe(200);
    expect(data).toEqual(found);
  });

  it("a slow answer is a TimeoutError", async () => {
    record(async () => {
      await delay(1_000);
      return json(found);
    });
    await expect(
      client("query", { timeoutMs: 50, maxRetries: 0 }).raw.GET("/contacts", { params: { query: { email: "ada@example.com" } } }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });

  it("an apiKey already in the query is replaced by the client's, however it is spelled", async () => {
    const seen = record(() => json(found));
    const raw = client("query").raw as unknown as { GET: (path: string, init: object) => Promise<unknown> };
    await raw.GET("/contacts", { params: { query: { email: "ada@example.com", apiKey: "someone-else" } } });
    await raw.GET("/contacts?%61piKey=someone-else", {});
    for (const request of seen) {
      expect(request.url.searchParams.getAll("apiKey")).toEqual([API_KEY]);
      expect(request.url.href).not.toContain("someone-else");
    }
    expect(seen[0]!.url.searchParams.get("email")).toBe("ada@example.com");
  });

  it("a query name that is not valid percent-encoding is left as it is, and the key added once", async () => {
    const seen = record(() => json(found));
    const raw = client("query").raw as unknown as { GET: (path: string, init: object) => Promise<unknown> };
    await raw.GET("/contacts?%E0%A4%A=1", {});
    expect(seen[0]!.url.search).toBe(`?%E0%A4%A=1&apiKey=${API_KEY}`);
  });

  it("a 204 reaches raw as an empty response", async () => {
    record(() => new HttpResponse(null, { status: 204 }));
    const { data, response } = await client("query").raw.GET("/contacts", { params: { query: { email: "ada@example.com" } } });
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
  });
});

describe("a key its auth form cannot carry is refused when the client is created, without quoting it", () => {
  it.each([
    ["bearer", "ключ-не-latin1", "in an HTTP header"],
    ["header", "key\nwith a line break", "in an HTTP header"],
    ["query", "key\uD800", "in a URL"],
  ] as const)("%s form", (auth, apiKey, where) => {
    const attempt = () => client(auth, { apiKey });
    expect(attempt).toThrow(IntakeConfigError);
    expect(attempt).toThrow(`The API key cannot be sent ${where}`);
    expect(() => attempt()).not.toThrow(apiKey);
  });
});

describe("headers fetch would refuse are refused before anything is sent", () => {
  it("in the client's options", () => {
    expect(() => client("query", { headers: { "x-bad": "line\nbreak" } })).toThrow(IntakeConfigError);
    expect(() => client("query", { headers: { "x-bad": "line\nbreak" } })).toThrow(/The headers option/);
  });

  it("in a call's options, and in an idempotency key", async () => {
    const seen = record(() => json(contact, 201));
    await expect(client("query").contacts.create({ phone: "+14155550123" }, { headers: { "bad name": "x" } })).rejects.toThrow(
      /The headers call option/,
    );
    const badKey = client("header").subaccounts.grantCredits({ email: "a@agency.example", amount: 1 }, { idempotencyKey: "a\r\nb" });
    await expect(badKey).rejects.toBeInstanceOf(IntakeConfigError);
    await expect(badKey).rejects.toThrow(/idempotencyKey/);
    expect(seen).toHaveLength(0);
  });
});

describe("the key goes to the client's base URL and nowhere else", () => {
  it("a per-call baseUrl on raw, or a middleware that moves the request, is refused and nothing is sent", async () => {
    const sent: string[] = [];
    const spy = async (request: Request) => {
      sent.push(request.url);
      return json(found);
    };
    const bearer = client("bearer", { fetch: spy });
    const elsewhere = bearer.raw.GET("/contacts", {
      baseUrl: "http://elsewhere.example/v1",
      params: { query: { email: "a@example.com" } },
    });
    await expect(elsewhere).rejects.toThrow(IntakeConfigError);
    await expect(elsewhere).rejects.toThrow("Refusing to send the API key to http://elsewhere.example/v1/contacts?email=a%40example.com");

    const query = client("query", { fetch: spy });
    query.raw.use({
      onRequest: ({ request }) => new Request(request.url.replace("api.intake.test", "api.intake.test.evil.example"), request),
    });
    const moved = await query.contacts.find({ email: "a@example.com" }).catch((e: unknown) => e);
    expect(moved).toBeInstanceOf(IntakeConfigError);
    expect(String((moved as Error).message)).not.toContain(API_KEY);
    expect(sent).toEqual([]);
  });
});

describe("robustness", () => {
  it("a timeout longer than a timer can wait is refused rather than firing at once", async () => {
    expect(() => client("query", { timeoutMs: 2 ** 31 })).toThrow(IntakeConfigError);
    const seen = record(() => json(found));
    await expect(client("query").contacts.find({ email: "a@example.com" }, { timeoutMs: Number.MAX_SAFE_INTEGER })).rejects.toThrow(
      /at most 2147483647/,
    );
    expect(seen).toHaveLength(0);
  });

  it("retry waits longer than a timer can wait are refused in the options", () => {
    for (const option of ["maxRetryAfterMs", "initialDelayMs", "maxDelayMs"]) {
      expect(() => client("query", { retry: { [option]: 2 ** 31 } })).toThrow(
        new RegExp(`retry\\.${option} must be .* at most 2147483647`),
      );
    }
  });

  it("one long-lived signal across many calls keeps no listeners", async () => {
    record(() => json(found));
    const intake = client("query");
    const shutdown = new AbortController();
    for (let i = 0; i < 50; i++) await intake.contacts.find({ email: "a@example.com" }, { signal: shutdown.signal });
    expect(getEventListeners(shutdown.signal, "abort")).toHaveLength(0);
  });

  it("a logger that throws does not fail the call (which may have taken effect)", async () => {
    record(() => json({ success: true, messageId: "msg_1", contactId: contact.id, message: "sent" }));
    const intake = client("query", {
      logger: () => {
        throw new Error("log sink down");
      },
    });
    await expect(intake.messages.send({ customData: { fromId: "u", customChannel: "c", body: "b" } })).resolves.toMatchObject({
      messageId: "msg_1",
    });
  });

  it("an error with Content-Length: 0 has no body", async () => {
    record(() => new HttpResponse(null, { status: 503, headers: { "content-length": "0" } }));
    const error = (await client("query", { maxRetries: 0 })
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e)) as IntakeApiError;
    expect(error.body).toBeUndefined();
  });

  it("the body is JSON whatever Content-Type a call gives", async () => {
    const seen = record(() => json(contact, 201));
    await client("query").contacts.create({ phone: "+14155550123" }, { headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(seen[0]!.body).toBe('{"phone":"+14155550123"}');
  });

  it("an error body nested deeper than any answer is cut where it goes too deep, the key redacted above", async () => {
    let deep: unknown = `key ${API_KEY}`;
    for (let i = 0; i < 80; i++) deep = { inner: deep };
    record(() => json({ error: { code: "X", message: `bad ${API_KEY}` }, deep }, 400));
    const error = (await client("query")
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e)) as IntakeApiError;
    expect(error.message).toBe("bad [REDACTED]");
    expect(JSON.stringify(error.body)).not.toContain(API_KEY);
    expect(JSON.stringify(error.body)).toContain("(nested too deep, left out)");
  });

  it("a key with a quote or a backslash in it is still redacted from an echoed error body", async () => {
    const apiKey = 'ik_odd"key\\42';
    record(() => json({ error: { code: "INVALID_API_KEY", message: `Unknown key ${apiKey}` } }, 401));
    const error = (await client("header", { apiKey })
      .subaccounts.grantCredits({ email: "a@agency.example", amount: 1 })
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error.message).toBe("Unknown key [REDACTED]");
    expect(JSON.stringify(error.body)).not.toContain("odd");
  });
});

describe("the log", () => {
  it("an abort during a retry's backoff is logged as the failure it is", async () => {
    record(() => json({ error: { code: "UNAVAILABLE", message: "down" } }, 503, { "retry-after": "5" }));
    const entries: LogEntry[] = [];
    const controller = new AbortController();
    // Aborted as the wait begins, whatever the machine's speed.
    const logger = (entry: LogEntry) => {
      entries.push(entry);
      if (entry.event === "retry") controller.abort();
    };
    const call = client("query", { logger }).contacts.find({ email: "a@example.com" }, { signal: controller.signal });
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect(entries.map((e) => e.event)).toEqual(["request", "response", "retry", "error"]);
    expect(entries.at(-1)).toMatchObject({ event: "error", reason: "AbortError" });
  });
});
