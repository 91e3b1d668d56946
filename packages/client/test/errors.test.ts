import {
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  IntakeApiError,
  IntakeError,
  MethodNotAllowedError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
} from "@intake/client";
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import "./support/msw-lifecycle.js";
import { API_KEY, client, json, record } from "./support/fixtures.js";

const noRetry = { maxRetries: 0 };

describe("general error shape { error: { code, message } }", () => {
  const cases = [
    [400, BadRequestError, "INVALID_PHONE", "Phone number must include a valid country code."],
    [401, AuthenticationError, "INVALID_API_KEY", "Invalid API key."],
    [403, PermissionDeniedError, "NOT_AGENCY", "Only agency accounts can grant credits."],
    [404, NotFoundError, "LIST_NOT_FOUND", "No list with id lst_1."],
    [405, MethodNotAllowedError, "METHOD_NOT_ALLOWED", "Use POST."],
    [429, RateLimitError, "RATE_LIMITED", "Slow down."],
    [500, ServerError, "INTERNAL_ERROR", "Internal error."],
    [503, ServerError, "INTERNAL_ERROR", "Unavailable."],
  ] as const;

  it.each(cases)("%i becomes the matching class with its code, message, status and headers", async (status, Kind, code, message) => {
    record(() => json({ error: { code, message } }, status, { "x-request-id": "req-7", "retry-after": "99999" }));
    const error = await client("query", { maxRetries: 0 })
      .lists.addContact("lst_1", { contactId: "ct_1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Kind);
    expect(error).toBeInstanceOf(IntakeApiError);
    expect(error).toBeInstanceOf(IntakeError);
    // A 5xx of a call that is not retried (adding to a list) says what to do about its effect.
    const advice =
      status >= 500
        ? " It was not retried, as it may have taken effect: Adding the contact again is harmless: a member already on the list answers added: false."
        : "";
    expect(error).toMatchObject({ status, code, message: message + advice, name: Kind.name, mayHaveTakenEffect: status >= 500 });
    expect((error as IntakeApiError).headers.get("x-request-id")).toBe("req-7");
    expect((error as IntakeApiError).request).toEqual({
      method: "POST",
      url: "https://api.intake.test/v1/lists/lst_1/contacts?apiKey=[REDACTED]",
    });
    // A plain value, so a logged error shows the URL (a getter would print as [Getter]).
    expect(Object.getOwnPropertyDescriptor((error as IntakeApiError).request, "url")).toHaveProperty("value");
    expect((error as IntakeApiError).body).toEqual({ error: { code, message } });
  });

  it("an unlisted status is an IntakeApiError with that status", async () => {
    record(() => json({ error: { code: "SOMETHING_NEW", message: "Conflict." } }, 409));
    const error = await client("query")
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntakeApiError);
    expect(error).toMatchObject({ status: 409, code: "SOMETHING_NEW", message: "Conflict.", name: "IntakeApiError" });
  });
});

describe("receive endpoint's string shape { error: string }", () => {
  it("400 becomes BadRequestError with the message and no code", async () => {
    record(() => json({ error: "Message body cannot be empty." }, 400));
    const error = await client("query")
      .messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "acme", body: " x" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: undefined, message: "Message body cannot be empty." });
  });

  it("401 and 405 too", async () => {
    record((_, i) => (i === 0 ? json({ error: "Invalid API key." }, 401) : json({ error: "Use POST." }, 405, { allow: "POST" })));
    const intake = client("query", noRetry);
    const body = { customData: { messageSid: "SM-1", fromId: "u1", toId: "acme", body: "hi" } };
    await expect(intake.messages.receive(body)).rejects.toMatchObject({ name: "AuthenticationError", message: "Invalid API key." });
    const wrongMethod = await intake.messages.receive(body).catch((e: unknown) => e);
    expect(wrongMethod).toBeInstanceOf(MethodNotAllowedError);
    expect((wrongMethod as MethodNotAllowedError).headers.get("allow")).toBe("POST");
  });
});

describe("bodies that are not the API's shapes", () => {
  it("a text body becomes the message", async () => {
    record(() => new HttpResponse("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }));
    await expect(client("query", noRetry).contacts.create({ phone: "+14155550123" })).rejects.toMatchObject({
      name: "ServerError",
      status: 502,
      code: undefined,
      message: "<html>Bad gateway</html>",
    });
  });

  it("an empty body falls back to the status", async () => {
    record(() => new HttpResponse(null, { status: 500, statusText: "Internal Server Error" }));
    await expect(client("query", noRetry).contacts.create({ phone: "+14155550123" })).rejects.toMatchObject({
      name: "ServerError",
      message: "HTTP 500 Internal Server Error",
    });
  });
});

describe("RateLimitError carries the wait", () => {
  it.each([
    [{ "retry-after": "7" }, 7000],
    [{ "retry-after": "0" }, 0],
    [{ "ratelimit-reset": "3" }, 3000],
    [{}, undefined],
  ])("headers %o give retryAfterMs %o", async (headers, expected) => {
    record(() => json({ error: { code: "RATE_LIMITED", message: "Slow down." } }, 429, headers));
    const error = await client("query", noRetry)
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(expected);
  });

  it("an HTTP-date Retry-After is converted to milliseconds", async () => {
    const at = new Date(Date.now() + 120_000).toUTCString();
    record(() => json({ error: { code: "RATE_LIMITED", message: "Slow down." } }, 429, { "retry-after": at }));
    const error = (await client("query", noRetry)
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e)) as RateLimitError;
    expect(error.retryAfterMs).toBeGreaterThan(115_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(120_000);
  });
});

describe("more shapes", () => {
  it("the receive endpoint's 500 is a ServerError with its message", async () => {
    record(() => json({ error: "Internal error; the message was not stored." }, 500));
    const error = await client("query", noRetry)
      .messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "acme", body: "hi" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, code: undefined, message: "Internal error; the message was not stored." });
  });

  it("a code without a message keeps the code", async () => {
    record(() => json({ error: { code: "NOT_AGENCY" } }, 403));
    await expect(client("header").subaccounts.grantCredits({ email: "a@example.com", amount: 1 })).rejects.toMatchObject({
      name: "PermissionDeniedError",
      code: "NOT_AGENCY",
      message: "HTTP 403 NOT_AGENCY",
    });
  });

  it("an empty message and no code fall back to the status line", async () => {
    record(() => json({ error: { message: "" } }, 400));
    await expect(client("query").contacts.create({ email: "a@example.com" })).rejects.toMatchObject({
      name: "BadRequestError",
      code: undefined,
      message: "HTTP 400 Bad Request",
    });
  });

  it("a 2xx that is not JSON is an IntakeApiError, not a SyntaxError", async () => {
    record(() => new HttpResponse("<html>Welcome to nginx</html>", { status: 200, headers: { "content-type": "text/html" } }));
    const error = await client("query")
      .contacts.create({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntakeApiError);
    expect((error as Error).message).toMatch(/answered 200 with a body that is not JSON; expected JSON\. Is baseUrl the Intake API\?/);
  });

  it("an empty 2xx is an IntakeApiError", async () => {
    record(() => new HttpResponse(null, { status: 204 }));
    await expect(client("query").contacts.find({ email: "a@example.com" })).rejects.toMatchObject({
      name: "IntakeApiError",
      status: 204,
    });
  });
});

describe("a redirect", () => {
  it("is refused, not followed and not retried, as a ConnectionError that says why (the key stays out)", async () => {
    const seen = record(
      () => new Response(null, { status: 302, headers: { location: `https://elsewhere.test/v1/contacts?apiKey=${API_KEY}` } }),
    );
    const error = await client("query", { retry: { initialDelayMs: 1 } })
      .contacts.find({ email: "a@example.com" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("redirect (302 to https://elsewhere.test/v1/contacts?apiKey=[REDACTED])");
    expect((error as Error).message).toContain("Check baseUrl");
    expect((error as Error).message).not.toContain(API_KEY);
    expect(seen).toHaveLength(1);
  });
});
