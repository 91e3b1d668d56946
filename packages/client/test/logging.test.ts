import { ConnectionError, type LogEntry } from "@intake/client";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import "./support/msw-lifecycle.js";
import { API_KEY, client, contact, json, record } from "./support/fixtures.js";

function collect() {
  const entries: LogEntry[] = [];
  return { entries, logger: (entry: LogEntry) => entries.push(entry) };
}

describe("the logging hook never prints the API key", () => {
  it("query form: request, response and retry entries redact ?apiKey=", async () => {
    const log = collect();
    record((_, i) => (i === 0 ? json({ error: { code: "INTERNAL_ERROR", message: "x" } }, 500) : json({ success: true, contactId: "ct_1", contact })));
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
    const error = await client("query", { logger: log.logger, fetch }).messages.send({ customData: { fromId: "u", customChannel: "c", body: "b" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain("[REDACTED]");
    expect((error as Error).message).not.toContain(API_KEY);
    expect(JSON.stringify(log.entries)).not.toContain(API_KEY);
    expect(log.entries.at(-1)).toMatchObject({ event: "error", reason: "ConnectionError" });
  });

  it("error objects report the URL without the key", async () => {
    record(() => json({ error: { code: "INVALID_API_KEY", message: "Invalid API key." } }, 401));
    const error = await client("query").contacts.create({ email: "a@example.com" }).catch((e: unknown) => e);
    expect(inspect(error, { depth: 5 })).not.toContain(API_KEY);
  });

  it("the client object does not expose the key", () => {
    const intake = client("query");
    expect(inspect(intake, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(intake)).not.toContain(API_KEY);
  });
});
