import { ConnectionError, IntakeConfigError, type LogEntry, RateLimitError, ServerError } from "@intake/client";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import "./support/msw-lifecycle.js";
import { client, contact, json, record } from "./support/fixtures.js";

const rateLimited = (retryAfter: string) =>
  json({ error: { code: "RATE_LIMITED", message: "Slow down." } }, 429, { "retry-after": retryAfter });
const serverError = () => json({ error: { code: "INTERNAL_ERROR", message: "Internal error." } }, 500);
const sendBody = { customData: { fromId: "user-1", customChannel: "acme-chat", body: "Hello there" } };

function logs() {
  const entries: LogEntry[] = [];
  return { entries, logger: (entry: LogEntry) => entries.push(entry), retries: () => entries.filter((e) => e.event === "retry") };
}

describe("429 is retried on every operation, honouring Retry-After", () => {
  it("waits Retry-After seconds, then succeeds, re-sending the body intact", async () => {
    const log = logs();
    const seen = record((_, i) =>
      i === 0 ? rateLimited("1") : json({ success: true, messageId: "msg_1", contactId: "ct_1", message: "ok" }),
    );
    const started = Date.now();
    const result = await client("query", { logger: log.logger }).messages.send(sendBody);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(result.messageId).toBe("msg_1");
    expect(seen).toHaveLength(2);
    expect(seen[1]!.body).toBe(seen[0]!.body);
    expect(JSON.parse(seen[1]!.body)).toEqual(sendBody);
    expect(log.retries()).toMatchObject([{ delayMs: 1000, reason: "status 429", attempt: 0 }]);
  });

  it("gives up after maxRetries and throws RateLimitError", async () => {
    const seen = record(() => rateLimited("0"));
    await expect(client("query", { maxRetries: 3 }).messages.send(sendBody)).rejects.toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(4);
  });

  it("defaults to 2 retries", async () => {
    const seen = record(() => rateLimited("0"));
    await expect(client("query").messages.send(sendBody)).rejects.toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(3);
  });

  it("does not wait longer than maxRetryAfterMs: a long Retry-After is thrown at once", async () => {
    const seen = record(() => rateLimited("3600"));
    const error = await client("query", { retry: { maxRetryAfterMs: 5_000 } })
      .messages.send(sendBody)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(seen).toHaveLength(1);
  });

  it("without Retry-After backs off with jitter", async () => {
    const log = logs();
    record((_, i) => (i < 2 ? json({ error: { code: "RATE_LIMITED", message: "x" } }, 429) : json(contact, 201)));
    await client("query", { logger: log.logger, retry: { initialDelayMs: 20, maxDelayMs: 1000 } }).contacts.create({
      email: "a@example.com",
    });
    const [first, second] = log.retries().map((r) => r.delayMs!);
    expect(first).toBeGreaterThanOrEqual(10);
    expect(first).toBeLessThanOrEqual(20);
    expect(second).toBeGreaterThanOrEqual(20);
    expect(second).toBeLessThanOrEqual(40);
  });
});

describe("5xx is retried only where repeating cannot double an effect", () => {
  it.each([
    [
      "GET /contacts",
      (c: ReturnType<typeof client<"query">>) => c.contacts.find({ email: "a@example.com" }),
      { success: true, contactId: "ct_1", contact },
    ],
    ["POST /contacts with a phone", (c: ReturnType<typeof client<"query">>) => c.contacts.create({ phone: "+14155550123" }), contact],
    [
      "POST /incoming_custom_channel_message",
      (c: ReturnType<typeof client<"query">>) =>
        c.messages.receive({ customData: { messageSid: "SM-1", fromId: "u", toId: "t", body: "hi" } }),
      { success: true, messageId: "msg_1" },
    ],
  ])("%s is retried", async (_, call, ok) => {
    const seen = record((_, i) => (i === 0 ? serverError() : json(ok)));
    await expect(call(client("query"))).resolves.toBeTruthy();
    expect(seen).toHaveLength(2);
    expect(seen[1]!.body).toBe(seen[0]!.body);
  });

  it("bearer create with phone_number is retried too", async () => {
    const seen = record((_, i) => (i === 0 ? serverError() : json(contact, 201)));
    await client("bearer").contacts.create({ phone_number: "+14155550123" });
    expect(seen).toHaveLength(2);
  });

  it.each([
    [
      "POST /contacts with email only (no de-duplication promised)",
      (c: ReturnType<typeof client<"query">>) => c.contacts.create({ email: "a@example.com" }),
    ],
    ["POST /send_custom_channel_message", (c: ReturnType<typeof client<"query">>) => c.messages.send(sendBody)],
    ["POST /lists/{listId}/contacts", (c: ReturnType<typeof client<"query">>) => c.lists.addContact("lst_1", { contactId: "ct_1" })],
  ])("%s is not retried", async (_, call) => {
    const seen = record(() => serverError());
    await expect(call(client("query"))).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(1);
  });

  it("POST /subaccounts/credits is not retried, even with an Idempotency-Key", async () => {
    const seen = record(() => serverError());
    await expect(
      client("header").subaccounts.grantCredits({ email: "one@agency.example", amount: 5 }, { idempotencyKey: "k1" }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(1);
  });

  it("a safe operation's 5xx honours Retry-After, and a long one is not waited for", async () => {
    const log = logs();
    const seen = record((_, i) =>
      i === 0 ? json({ error: { code: "INTERNAL_ERROR", message: "busy" } }, 503, { "retry-after": "1" }) : json(contact, 201),
    );
    await client("query", { logger: log.logger }).contacts.create({ phone: "+14155550123" });
    expect(log.retries()).toMatchObject([{ delayMs: 1000, reason: "status 503" }]);
    expect(seen).toHaveLength(2);

    const again = record(() => json({ error: { code: "INTERNAL_ERROR", message: "down" } }, 503, { "retry-after": "3600" }));
    await expect(client("query").contacts.create({ phone: "+14155550123" })).rejects.toBeInstanceOf(ServerError);
    expect(again).toHaveLength(1);
  });

  it("4xx other than 429 is never retried", async () => {
    const seen = record(() => json({ error: { code: "INVALID_PHONE", message: "bad" } }, 400));
    await expect(client("query").contacts.find({ phoneNumber: "123" })).rejects.toMatchObject({ status: 400 });
    expect(seen).toHaveLength(1);
  });

  it("maxRetries: 0 disables retries, per client or per call", async () => {
    const seen = record(() => serverError());
    await expect(client("query", { maxRetries: 0 }).contacts.find({ email: "a@example.com" })).rejects.toBeInstanceOf(ServerError);
    await expect(client("query").contacts.find({ email: "a@example.com" }, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(2);
  });
});

/** What undici throws when the connection fails: a TypeError whose cause carries the system code. */
const fetchFailed = (code: string, message: string) => () =>
  Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error(message), { code }) });

/** A fetch that fails as told, once per entry, then answers; it keeps every body it was sent. */
function flakyFetch(failures: Array<() => Error>, then: () => Response = () => Response.json({})) {
  const bodies: string[] = [];
  const fetch = async (request: Request) => {
    bodies.push(await request.text());
    const failure = failures.shift();
    if (failure) throw failure();
    return then();
  };
  return { fetch, bodies };
}

describe("connection failures", () => {
  const refused = fetchFailed("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:443");
  const reset = fetchFailed("ECONNRESET", "socket hang up");

  it("a refused connection (nothing sent) is retried on any operation, body intact", async () => {
    const flaky = flakyFetch([refused, refused], () => Response.json({ success: true, messageId: "m", contactId: "c", message: "ok" }));
    await client("query", { fetch: flaky.fetch }).messages.send(sendBody);
    expect(flaky.bodies).toHaveLength(3);
    expect(new Set(flaky.bodies)).toEqual(new Set([JSON.stringify(sendBody)]));
  });

  it("a connection lost mid-request is not retried on an unsafe operation", async () => {
    const flaky = flakyFetch([reset]);
    const error = await client("query", { fetch: flaky.fetch })
      .messages.send(sendBody)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe("ECONNRESET");
    expect(flaky.bodies).toHaveLength(1);
  });

  it("a connection lost mid-request is retried on a safe operation", async () => {
    const flaky = flakyFetch([reset], () => Response.json({ success: true, contactId: "ct_1", contact }));
    await client("query", { fetch: flaky.fetch }).contacts.find({ email: "a@example.com" });
    expect(flaky.bodies).toHaveLength(2);
  });

  it("a network error from msw (cause unknown) is retried only where safe", async () => {
    const seen = record(() => HttpResponse.error());
    await expect(client("query").lists.addContact("lst_1", { contactId: "ct_1" })).rejects.toBeInstanceOf(ConnectionError);
    expect(seen).toHaveLength(1);
    await expect(client("query").contacts.find({ email: "a@example.com" })).rejects.toBeInstanceOf(ConnectionError);
    expect(seen).toHaveLength(4);
  });
});

describe("a TLS failure", () => {
  const selfSigned = fetchFailed("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate");

  it("says how to trust the reference server's certificate", async () => {
    const error = await client("query", { fetch: flakyFetch([selfSigned]).fetch, maxRetries: 0 })
      .messages.send(sendBody)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    expect((error as Error).message).toMatch(/TLS certificate is not trusted: .*NODE_EXTRA_CA_CERTS=<file>/);
  });

  it.each([
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"],
    ["CERT_HAS_EXPIRED", "certificate has expired"],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames"],
    ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "unable to verify the first certificate"],
  ])("%s is not retried, even by an operation safe to repeat: the next attempt meets the same certificate", async (code, message) => {
    const flaky = flakyFetch([1, 2, 3, 4].map(() => fetchFailed(code, message)));
    await expect(client("query", { fetch: flaky.fetch, maxRetries: 3 }).contacts.find({ email: "a@example.com" })).rejects.toMatchObject({
      code,
    });
    expect(flaky.bodies).toHaveLength(1);
  });

  it("other TLS failures (an alert from a load balancer) are retried where a lost connection is", async () => {
    const alert = fetchFailed("ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE", "sslv3 alert handshake failure");
    const flaky = flakyFetch([alert, alert]);
    const error = await client("query", { fetch: flaky.fetch, maxRetries: 1, retry: { initialDelayMs: 1 } })
      .contacts.find({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE" });
    expect((error as Error).message).not.toMatch(/not trusted/);
    expect(flaky.bodies).toHaveLength(2);
  });
});

describe("per-call options are checked", () => {
  it.each([[{ timeoutMs: 0 }], [{ timeoutMs: Number.NaN }], [{ maxRetries: Number.POSITIVE_INFINITY }], [{ maxRetries: -1 }]])(
    "%o is refused with IntakeConfigError before anything is sent",
    async (options) => {
      const seen = record(() => json(contact, 201));
      await expect(client("query").contacts.create({ phone: "+14155550123" }, options)).rejects.toBeInstanceOf(IntakeConfigError);
      expect(seen).toHaveLength(0);
    },
  );
});
