import { ConnectionError, IntakeApiError, IntakeConfigError, type LogEntry } from "@intake/client";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import "./support/msw-lifecycle.js";
import { API_KEY, BASE_URL, client, contact, json, record } from "./support/fixtures.js";

function collect() {
  const entries: LogEntry[] = [];
  return { entries, logger: (entry: LogEntry) => entries.push(entry) };
}

describe("the logging hook never prints the API key", () => {
  it("query form: request, response and retry entries redact ?apiKey=", async () => {
    const log = collect();
    record((_, i) =>
      i === 0 ? json({ error: { code: "INTERNAL_ERROR", message: "x" } }, 500) : json({ success: true, contactId: "ct_1", contact }),
    );
    await client("query", { logger: log.logger }).contacts.find({ email: "ada@example.com" });
    expect(log.entries.map((e) => e.event)).toEqual(["request", "response", "retry", "request", "response"]);
    expect(JSON.stringify(log.entries)).not.toContain(API_KEY);
    expect(log.entries[0]!.url).toBe("https://api.intake.test/v1/contacts?email=ada%40example.com&apiKey=[REDACTED]");
    expect(log.entries[1]).toMatchObject({ status: 500, attempt: 0 });
    expect(log.entries[4]).toMatchObject({ status: 200, attempt: 1 });
  });

  it("header and bearer forms: nothing logged carries the key", async () => {
    const log = collect();
    record(() => json(contact, 201));
    await client("bearer", { logger: log.logger }).contacts.create({ email: "a@example.com" });
    record(() => json({ success: true, sub_account_id: "s", credits_added: 1, new_balance: 1 }));
    await client("header", { logger: log.logger }).subaccounts.grantCredits({ email: "a@example.com", amount: 1 });
    expect(log.entries.length).toBeGreaterThan(0);
    expect(JSON.stringify(log.entries)).not.toContain(API_KEY);
  });

  it("a key echoed in a failure message is redacted from the log and the error", async () => {
    const log = collect();
    const fetch = async (request: Request) => {
      throw Object.assign(new TypeError(`fetch failed for ${request.url}`), { cause: { code: "ECONNRESET" } });
    };
    const error = await client("query", { logger: log.logger, fetch })
      .messages.send({ customData: { fromId: "u", customChannel: "c", body: "b" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("[REDACTED]");
    expect((error as Error).message).not.toContain(API_KEY);
    expect(JSON.stringify(log.entries)).not.toContain(API_KEY);
    expect(log.entries.at(-1)).toMatchObject({ event: "error", reason: "ConnectionError" });
  });

  it("error objects report the URL without the key", async () => {
    record(() => json({ error: { code: "INVALID_API_KEY", message: "Invalid API key." } }, 401));
    const error = await client("query")
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect(inspect(error, { depth: 5 })).not.toContain(API_KEY);
  });

  it("the client object does not expose the key", () => {
    const intake = client("query");
    expect(inspect(intake, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(intake)).not.toContain(API_KEY);
  });
});

describe("nothing an error carries leaks the key", () => {
  const keyWithSymbols = "ik_test+Zr4/Kp2=Lm8Xv5Q7";

  it("a connection error's cause, built by a custom fetch that echoes the URL, is redacted", async () => {
    const fetch = async (request: Request) => {
      throw Object.assign(new TypeError(`request to ${request.url} failed`), {
        cause: Object.assign(new Error(`connect ECONNRESET while sending ${request.url}`), { code: "ECONNRESET" }),
      });
    };
    for (const apiKey of [API_KEY, keyWithSymbols]) {
      const error = await client("query", { apiKey, fetch, maxRetries: 0 })
        .contacts.create({ email: "a@example.com" })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).code).toBe("ECONNRESET");
      const everything = inspect(error, { depth: 10, showHidden: true });
      expect(everything).not.toContain(apiKey);
      expect(everything).not.toContain(encodeURIComponent(apiKey));
      expect(everything).toContain("[REDACTED]");
    }
  });

  it("causes past the depth followed, and causes that are not Errors, do not carry the key either", async () => {
    const fetch = async (request: Request) => {
      let deep: unknown = new Error(`deepest, sending ${request.url}`);
      for (let i = 0; i < 8; i++) deep = new Error(`level ${i}`, { cause: deep });
      throw new TypeError("fetch failed", {
        cause: new AggregateError([deep, { code: "ECONNRESET", message: `to ${request.url}` }], "several"),
      });
    };
    const error = await client("query", { fetch, maxRetries: 0 })
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const everything = inspect(error, { depth: 40, showHidden: true });
    expect(everything).not.toContain(API_KEY);
    expect(everything).toContain("(further causes left out)");
    expect(everything).toContain("apiKey=[REDACTED]");
  });

  it("a percent-encoded key is redacted from log entries", async () => {
    const log = collect();
    const fetch = async (request: Request) => {
      throw new TypeError(`fetch failed for ${request.url}`);
    };
    await client("query", { apiKey: keyWithSymbols, fetch, logger: log.logger, maxRetries: 0 })
      .messages.send({ customData: { fromId: "u", customChannel: "c", body: "b" } })
      .catch(() => undefined);
    const text = JSON.stringify(log.entries);
    expect(text).not.toContain(keyWithSymbols);
    expect(text).not.toContain(encodeURIComponent(keyWithSymbols));
  });

  it("a key echoed back in an error body (a proxy's page) is redacted from the message and body", async () => {
    record((request) => new Response(`<h1>Bad gateway</h1><p>${request.url}</p>`, { status: 502 }));
    const error = await client("query", { maxRetries: 0 })
      .lists.addContact("lst_1", { contactId: "ct_1" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ServerError", status: 502 });
    expect(inspect(error, { depth: 10 })).not.toContain(API_KEY);
    expect((error as Error).message).toContain("apiKey=[REDACTED]");
  });

  it("a JSON error body echoing the key is redacted too", async () => {
    record(() => json({ error: { code: "INVALID_API_KEY", message: `Key ${API_KEY} is not valid.` } }, 401));
    const error = await client("bearer")
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe("Key [REDACTED] is not valid.");
    expect(JSON.stringify((error as { body: unknown }).body)).not.toContain(API_KEY);
  });

  it("a timeout error carries no key", async () => {
    const fetch = () => new Promise<Response>(() => {});
    const error = await client("query", { fetch, timeoutMs: 20, maxRetries: 0 })
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  });
});

describe("the key in what a response or a custom fetch hands back, or in an option", () => {
  it("a response header carrying the key (a Location with ?apiKey=) is redacted from the error's headers", async () => {
    record((request) =>
      json({ error: { code: "NOT_FOUND", message: "Moved." } }, 404, {
        location: request.url,
        "x-echo": `sent ${API_KEY}`,
        "x-request-id": "req-1",
      }),
    );
    const error = await client("query", { maxRetries: 0 })
      .lists.addContact("lst_1", { contactId: "ct_1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntakeApiError);
    const { headers } = error as IntakeApiError;
    expect(headers.get("location")).toBe(`${BASE_URL}/lists/lst_1/contacts?apiKey=[REDACTED]`);
    expect(headers.get("x-echo")).toBe("sent [REDACTED]");
    expect(headers.get("x-request-id")).toBe("req-1");
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  });

  it("a connection error's code, taken from a custom fetch's error, is redacted", async () => {
    const fetch = async () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("refused"), { code: `E_${API_KEY}` }) });
    };
    const error = await client("header", { fetch, maxRetries: 0 })
      .subaccounts.grantCredits({ email: "a@example.com", amount: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe("E_[REDACTED]");
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(API_KEY);
  });

  it("a configuration error quoting a header's value, a base URL or an auth form that holds the key does not quote the key", async () => {
    const invalid = `${API_KEY}\u0000`;
    const errors = [
      await Promise.resolve()
        .then(() => client("query", { headers: { "x-note": invalid } }))
        .catch((e: unknown) => e),
      await client("query")
        .contacts.create({ email: "a@example.com" }, { headers: { "x-note": invalid } })
        .catch((e: unknown) => e),
      await Promise.resolve()
        .then(() => client("query", { baseUrl: `https://api.intake.test/${API_KEY}` }))
        .catch((e: unknown) => e),
      await Promise.resolve()
        .then(() => client(API_KEY as "query"))
        .catch((e: unknown) => e),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(IntakeConfigError);
      expect((error as Error).message).toContain("[REDACTED]");
      expect(inspect(error, { showHidden: true })).not.toContain(API_KEY);
    }
  });
});
