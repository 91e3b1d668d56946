import { AbortError, ConnectionError, TimeoutError, type FetchFn } from "@intake/client";
import { getEventListeners } from "node:events";
import { delay } from "msw";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import "./support/msw-lifecycle.js";
import { API_KEY, client, contact, json, record } from "./support/fixtures.js";

describe("per-request timeout", () => {
  it("throws TimeoutError when no response arrives in time", async () => {
    const seen = record(async () => {
      await delay(1_000);
      return json(contact, 201);
    });
    const started = Date.now();
    const error = await client("query", { timeoutMs: 50 })
      .lists.addContact("lst_1", { contactId: "ct_1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 50, request: { method: "POST" } });
    expect(Date.now() - started).toBeLessThan(900);
    expect(seen).toHaveLength(1);
  });

  it("a per-call timeoutMs overrides the client's", async () => {
    record(async () => {
      await delay(300);
      return json({ success: true, contactId: "ct_1", contact });
    });
    const intake = client("query", { timeoutMs: 50, maxRetries: 0 });
    await expect(intake.contacts.find({ email: "a@example.com" })).rejects.toBeInstanceOf(TimeoutError);
    await expect(intake.contacts.find({ email: "a@example.com" }, { timeoutMs: 5_000 })).resolves.toEqual(contact);
  });

  it("a timed-out safe operation is retried, then succeeds", async () => {
    const seen = record(async (_, i) => {
      if (i === 0) await delay(1_000);
      return json({ success: true, contactId: "ct_1", contact });
    });
    await expect(client("query", { timeoutMs: 100 }).contacts.find({ email: "a@example.com" })).resolves.toEqual(contact);
    expect(seen).toHaveLength(2);
  });

  it("a timeout after retries says how many attempts were made and how long they took in all", async () => {
    const seen = record(async () => {
      await delay(1_000);
      return json({ success: true, contactId: "ct_1", contact });
    });
    const started = Date.now();
    const error = await client("query", { timeoutMs: 60, maxRetries: 2, retry: { initialDelayMs: 20 } })
      .contacts.find({ email: "a@example.com" })
      .catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(3);
    expect(error).toMatchObject({ timeoutMs: 60, attempts: 3 });
    const { elapsedMs, message } = error as TimeoutError;
    expect(elapsedMs).toBeGreaterThanOrEqual(180);
    expect(elapsedMs).toBeLessThanOrEqual(took);
    expect(message).toMatch(
      new RegExp(
        `^GET \\S+ got no response within 60 ms on its last attempt, after 3 attempts in ${(elapsedMs / 1000).toFixed(1).replace(".", "\\.")} s in all\\.$`,
      ),
    );
  });

  it("the timeout covers a response body that never finishes", async () => {
    record(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"id":'));
            },
          }),
          { status: 201, headers: { "content-type": "application/json" } },
        ),
    );
    await expect(client("query", { timeoutMs: 100 }).lists.addContact("lst_1", { contactId: "c" })).rejects.toBeInstanceOf(TimeoutError);
  });

  it("stops a fetch that ignores its signal, by the timeout or by the caller, and aborts the signal it was given", async () => {
    const given: AbortSignal[] = [];
    const deaf = (request: Request) => {
      given.push(request.signal);
      return new Promise<Response>(() => {});
    };
    const intake = client("query", { fetch: deaf, timeoutMs: 50, maxRetries: 0 });
    await expect(intake.contacts.find({ email: "a@example.com" })).rejects.toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    setTimeout(() => controller.abort("left"), 20);
    const error = await intake.contacts
      .find({ email: "a@example.com" }, { signal: controller.signal, timeoutMs: 5_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe("left");
    expect(given.map((signal) => signal.aborted)).toEqual([true, true]);
  });

  it("takes a fetch double that returns a Response, or a body, as a plain value rather than a promise", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ contact })).buffer;
    // Typed as returning promises; doubles written in JavaScript, or loosely typed mocks, may not.
    const plainResponse = (() => Response.json({ contact })) as unknown as FetchFn;
    const plainBody = (() =>
      Promise.resolve({ status: 200, statusText: "OK", headers: new Headers(), arrayBuffer: () => bytes })) as unknown as FetchFn;
    await expect(client("query", { fetch: plainResponse }).contacts.find({ email: "a@example.com" })).resolves.toEqual(contact);
    await expect(client("query", { fetch: plainBody }).contacts.find({ email: "a@example.com" })).resolves.toEqual(contact);
  });

  it("a fetch that throws at once is a ConnectionError; a late rejection after the timeout is not left unhandled; the caller's signal keeps no listener", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const signal = new AbortController().signal;
      const throwing: FetchFn = () => {
        throw new TypeError("no network here");
      };
      const late: FetchFn = () => new Promise((_, reject) => setTimeout(() => reject(new TypeError("too late")), 30));
      const failure = await client("query", { fetch: throwing, maxRetries: 0 })
        .contacts.find({ email: "a@example.com" }, { signal })
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ConnectionError);
      expect((failure as ConnectionError).message).toContain("no network here");
      await expect(
        client("query", { fetch: late, timeoutMs: 10, maxRetries: 0 }).contacts.find({ email: "a@example.com" }, { signal }),
      ).rejects.toBeInstanceOf(TimeoutError);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(unhandled).toEqual([]);
      expect(getEventListeners(signal, "abort")).toHaveLength(0);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("the caller's AbortSignal", () => {
  it("aborts an in-flight request with AbortError and no retry", async () => {
    const seen = record(async () => {
      await delay(1_000);
      return json({ success: true, contactId: "ct_1", contact });
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 30);
    const error = await client("query")
      .contacts.find({ email: "a@example.com" }, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(1);
  });

  it("a reason that refers to itself is passed on as a cause, the cycle left out (and the key), without hanging", async () => {
    const seen = record(() => json(contact, 201));
    const reason: Record<string, unknown> = { why: `user left, key ${API_KEY}`, shared: { note: "twice" } };
    reason.self = reason;
    reason.again = reason;
    reason.also = reason.shared;
    const error = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual({
      why: "user left, key [REDACTED]",
      shared: { note: "twice" },
      self: "(a cycle, left out)",
      again: "(a cycle, left out)",
      also: { note: "twice" },
    });
    expect(seen).toHaveLength(0);
  });

  it("an error held inside a reason is passed on with the key out of its message; a value whose getter throws is left out, the rest kept", async () => {
    record(() => json(contact, 201));
    const reason = { error: new Error(`socket closed for ${API_KEY}`) };
    const error = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e);
    const held = ((error as AbortError).cause as { error: Error }).error;
    expect(held).toBeInstanceOf(Error);
    expect(held.message).toBe("socket closed for [REDACTED]");
    const unreadable = {
      get detail(): string {
        throw new Error("no");
      },
    };
    const refused = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort({ unreadable, why: "left" }) })
      .catch((e: unknown) => e);
    expect((refused as AbortError).cause).toEqual({ unreadable: { detail: "(could not be read, left out)" }, why: "left" });
    // What cannot even be listed (a proxy whose traps throw) leaves out the whole cause, not the call.
    const unlistable = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no");
        },
      },
    );
    const opaque = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort(unlistable) })
      .catch((e: unknown) => e);
    expect(opaque).toBeInstanceOf(AbortError);
    expect((opaque as AbortError).cause).toBe("(a cause that could not be read, left out)");
  });

  it("what the walk cannot see into is left out, named (a URL becomes its text, the key out); symbol-keyed, code and non-Aggregate errors fields are redacted", async () => {
    record(() => json(contact, 201));
    const url = `https://api.example.com/contacts?apiKey=${API_KEY}`;
    const held = Object.assign(new Error("upstream failed"), {
      request: new Request(url),
      headers: new Headers({ authorization: `Bearer ${API_KEY}` }),
      entries: new Map([["x-api-key", API_KEY]]),
      url: new URL(url),
      code: `E_${API_KEY}`,
      errors: [`field rejected: ${API_KEY}`],
      [Symbol("sent")]: url,
      at: new Date(0),
    });
    const error = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort({ held }) })
      .catch((e: unknown) => e);
    const copy = ((error as AbortError).cause as { held: Error & Record<string, unknown> }).held;
    expect(inspect(copy, { showHidden: true, depth: 10 })).not.toContain(API_KEY);
    expect(copy).toMatchObject({
      message: "upstream failed",
      request: "(a Request, left out)",
      headers: "(a Headers, left out)",
      entries: "(a Map, left out)",
      url: "https://api.example.com/contacts?apiKey=[REDACTED]",
      code: "E_[REDACTED]",
      errors: ["field rejected: [REDACTED]"],
      at: new Date(0),
    });
  });

  it("a system code given by the error's class (a getter, not its own property) is redacted too, not passed on with the error", async () => {
    record(() => json(contact, 201));
    class SocketError extends Error {
      get code() {
        return `E_REFUSED_FOR_${API_KEY}`;
      }
    }
    const error = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort({ error: new SocketError("refused") }) })
      .catch((e: unknown) => e);
    const held = ((error as AbortError).cause as { error: Error & { code?: string } }).error;
    expect(held.code).toBe("E_REFUSED_FOR_[REDACTED]");
    expect(held.message).toBe("refused");
  });

  it("a cycle that runs through an error held in the reason is left out, without overflowing the stack", async () => {
    record(() => json(contact, 201));
    const reason: Record<string, unknown> = { why: `user left, key ${API_KEY}` };
    reason.error = new Error("socket closed", { cause: reason });
    const error = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort(reason) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    const cause = (error as AbortError).cause as { why: string; error: Error };
    expect(cause.why).toBe("user left, key [REDACTED]");
    expect(cause.error).toBeInstanceOf(Error);
    expect(cause.error.message).toBe("socket closed");
    expect(cause.error.cause).toBe("(a cycle, left out)");
  });

  it("an error held in the reason is passed on as itself when it holds no key, and keeps what it carries when it does", async () => {
    record(() => json(contact, 201));
    class UpstreamError extends Error {
      override name = "UpstreamError";
      constructor(
        message: string,
        readonly status: number,
      ) {
        super(message);
      }
    }
    const clean = new UpstreamError("upstream down", 503);
    const error = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort({ error: clean }) })
      .catch((e: unknown) => e);
    expect(((error as AbortError).cause as { error: Error }).error).toBe(clean);

    const leaky = new UpstreamError(`upstream down for ${API_KEY}`, 502);
    const redacted = await client("query")
      .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort({ error: leaky }) })
      .catch((e: unknown) => e);
    const held = ((redacted as AbortError).cause as { error: Error & { status?: number } }).error;
    expect(held).toMatchObject({ name: "UpstreamError", message: "upstream down for [REDACTED]", status: 502 });
    expect(inspect(held, { showHidden: true })).not.toContain(API_KEY);
  });

  it("keys of many clients (more than the client keeps their spellings for) are each redacted", async () => {
    record(() => json(contact, 201));
    for (let i = 0; i < 40; i++) {
      const key = `ik_tenant/${String(i).padStart(20, "0")}`;
      const error = await client("query", { apiKey: key })
        .contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort(`left with ${key} and ${encodeURIComponent(key)}`) })
        .catch((e: unknown) => e);
      expect((error as AbortError).cause).toBe("left with [REDACTED] and [REDACTED]");
    }
  });

  it("an already-aborted signal sends nothing", async () => {
    const seen = record(() => json(contact, 201));
    await expect(client("query").contacts.create({ phone: "+14155550123" }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      AbortError,
    );
    expect(seen).toHaveLength(0);
  });

  it("a signal aborted just before an attempt (by the logger, here) sends nothing either", async () => {
    const seen = record(() => json(contact, 201));
    const controller = new AbortController();
    const intake = client("query", { logger: (entry) => entry.event === "request" && controller.abort("stop") });
    await expect(intake.contacts.create({ phone: "+14155550123" }, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(0);
  });

  it("aborting during a retry's backoff stops at once", async () => {
    const seen = record(() => json({ error: { code: "RATE_LIMITED", message: "x" } }, 429, { "retry-after": "30" }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(
      client("query").messages.send({ customData: { fromId: "u", customChannel: "c", body: "b" } }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortError);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen).toHaveLength(1);
  });

  it("combines with the timeout: whichever comes first wins", async () => {
    record(async () => {
      await delay(1_000);
      return json(contact, 201);
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    await expect(
      client("query", { timeoutMs: 30, maxRetries: 0 }).contacts.create({ email: "a@example.com" }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });
});
