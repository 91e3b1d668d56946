// Behaviour that needs a server configured its own way: rate limit, virtual clock, journal size,
// an unexpected failure, the node adapter's and the data file's own failures.
import { ConnectionError, createIntakeClient, IntakeConfigError, RateLimitError, type LogEntry } from "@intake/client";
import { createIntake, type Intake, type IntakeOptions } from "@intake/server";
import { internals } from "@intake/server/hosting";
import { openDataFile, persist, serve } from "@intake/server/node";
import Database from "better-sqlite3";
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { connect, type Socket } from "node:net";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { Agent as UndiciAgent } from "undici";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
// The node adapter itself, over a core of the test's own: one that fails, one that stops the server as it answers.
import { serve as serveCore } from "../src/adapters/node.js";
import { quoted } from "./support/child-output.js";
import { client, httpsTarget, json, raw, startHarness, type HttpsHarness } from "./support/harness.js";
import { KEYS, SEED } from "./support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("rate limit per key per minute", () => {
  it("429 with Retry-After and RateLimit-* headers past the limit, in the operation's shape; other keys unaffected; the virtual clock opens no new window", async () => {
    harness = await startHarness({ rateLimit: 3, clock: "virtual" });
    const target = httpsTarget(harness);
    const acme = client(target, "query", KEYS.acme);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { response } = await acme.raw.GET("/contacts", { params: { query: { email: "a@example.com" } } });
      remaining.push(response.headers.get("ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const limited = await json(await raw(target, `/contacts?apiKey=${KEYS.acme}&email=a%40example.com`));
    expect(limited.status).toBe(429);
    // The window started at the first request: what is left of it, in whole seconds, on a machine slow or not.
    const wait = limited.headers.get("retry-after")!;
    expect(Number(wait)).toBeGreaterThanOrEqual(50);
    expect(Number(wait)).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({ error: { code: "RATE_LIMITED", message: `Rate limit of 3 requests per minute exceeded; retry in ${wait} seconds.` } });
    expect(Object.fromEntries(["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => [h, limited.headers.get(h)]))).toEqual({
      "ratelimit-limit": "3",
      "ratelimit-remaining": "0",
      "ratelimit-reset": wait,
    });
    const receive = await json(
      await raw(target, `/incoming_custom_channel_message?apiKey=${KEYS.acme}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } }),
      }),
    );
    expect(receive).toMatchObject({ status: 429, body: { error: expect.stringMatching(/^Rate limit of 3 requests per minute exceeded; retry in (5\d|60) seconds\.$/) } });
    await expect(client(target, "query", KEYS.globex).contacts.find({ email: "a@example.com" })).resolves.toBeNull();
    // The limit counts real time: moving the virtual clock a day on opens no new window.
    await harness.admin("POST", "/clock/advance", { ms: 24 * 3600_000 });
    const later = await acme.contacts.find({ email: "a@example.com" }).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(RateLimitError);
    expect((later as RateLimitError).retryAfterMs).toBeGreaterThanOrEqual(59_000);
  });

  it.each(["real", "virtual"] as const)("Retry-After is true under the %s clock: the client waits what it is told and is served, nobody advancing anything", async (clock) => {
    harness = await startHarness({ rateLimit: 2, rateLimitWindowMs: 2000, clock });
    const retries: number[] = [];
    const acme = client(httpsTarget(harness), "query", KEYS.acme, { maxRetries: 2, logger: (entry) => entry.event === "retry" && retries.push(entry.delayMs ?? 0) });
    const started = Date.now();
    for (let i = 0; i < 3; i++) await expect(acme.contacts.find({ email: "a@example.com" })).resolves.toBeNull();
    expect(retries).toHaveLength(1);
    expect(retries[0]).toBeGreaterThanOrEqual(1000);
    expect(retries[0]).toBeLessThanOrEqual(2000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]! - 50);
  });

  it("a window shorter than a second is refused at start, naming the option", () => {
    expect(() => createIntake({ rateLimitWindowMs: 10 })).toThrow("rateLimitWindowMs must be a whole number of milliseconds, 1000 or more (got 10).");
  });

  it("the RateLimit-* headers are absent on a 401 and when the server runs without a limit", async () => {
    const rateHeaders = (response: Response) => ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => response.headers.get(h));
    harness = await startHarness({ rateLimit: 3 });
    const refused = await raw(httpsTarget(harness), "/contacts?apiKey=ik_wrong&email=a%40example.com");
    expect(refused.status).toBe(401);
    expect(rateHeaders(refused)).toEqual([null, null, null]);
    await harness.close();
    harness = await startHarness({ rateLimit: 0 });
    const unlimited = await raw(httpsTarget(harness), `/contacts?apiKey=${KEYS.acme}&email=a%40example.com`);
    expect(unlimited.status).toBe(404);
    expect(rateHeaders(unlimited)).toEqual([null, null, null]);
  });
});

describe("the virtual clock", () => {
  it("does not go back: a negative ms is refused by the contract, an earlier `to` is a conflict, and the time stays", async () => {
    harness = await startHarness({ clock: "virtual" });
    const before = (await harness.admin("GET", "/clock")).body.now;
    const negative = await harness.admin("POST", "/clock/advance", { ms: -1 });
    expect(negative.status).toBe(400);
    const earlier = await harness.admin("POST", "/clock/advance", { to: "2000-01-01T00:00:00.000Z" });
    expect(earlier).toMatchObject({ status: 409, body: { error: { message: `The clock is at ${before}; it does not go back, except to its start with a reset (POST /__admin/reset).` } } });
    const both = await harness.admin("POST", "/clock/advance", { ms: 1, to: before });
    expect(both).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR", message: "Give ms or to, not both." } } });
    const neither = await harness.admin("POST", "/clock/advance", {});
    expect(neither).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR", message: "Give ms (how far to move the clock) or to (the time to move it to)." } } });
    expect((await harness.admin("GET", "/clock")).body.now).toBe(before);
    expect((await harness.admin("POST", "/clock/advance", { ms: 1000 })).body.now).toBe(new Date(Date.parse(before) + 1000).toISOString());
  });
});

describe("API keys", () => {
  it("do not expire and carry their account's whole access: a key works in every form it is sent in, years on", async () => {
    harness = await startHarness({ clock: "virtual" });
    await harness.admin("POST", "/clock/advance", { ms: 3 * 366 * 24 * 3600 * 1000 });
    const created = await client(httpsTarget(harness), "query", KEYS.acme).contacts.create({ phone: "+14155550123" });
    await expect(client(httpsTarget(harness), "bearer", KEYS.acme).lists.addContact("lst_acme", { contact_id: created.id })).resolves.toMatchObject({ added: true });
    await expect(client(httpsTarget(harness), "query", KEYS.acme).messages.receive({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } })).resolves.toMatchObject({ success: true });
  });
});

describe("Idempotency-Key memory", () => {
  it("is kept for 24 hours, then the key grants again", async () => {
    harness = await startHarness({ clock: "virtual" });
    const agency = client(httpsTarget(harness), "header", KEYS.agency);
    const grant = (key = "rch_1") => agency.subaccounts.grantCredits({ email: "one@northwind.example", amount: 10 }, { idempotencyKey: key });
    const balance = async () => (await harness!.admin("GET", "/accounts/sub_one/credits")).body.balance;
    await grant();
    await harness.admin("POST", "/clock/advance", { ms: 12 * 3600 * 1000 });
    await grant("rch_2");
    await harness.admin("POST", "/clock/advance", { ms: 12 * 3600 * 1000 - 1000 });
    await grant();
    expect(await balance()).toBe(25);
    await harness.admin("POST", "/clock/advance", { ms: 2000 });
    await grant();
    expect(await balance()).toBe(35);
    // The later key is still within its 24 hours.
    await grant("rch_2");
    expect(await balance()).toBe(35);
  });

  it("is kept in a snapshot: a server started from it answers a retried grant as the first time, granting nothing", async () => {
    const grant = (target: HttpsHarness) =>
      client(httpsTarget(target), "header", KEYS.agency).raw.POST("/subaccounts/credits", {
        params: { header: { "Idempotency-Key": "rch_1" } },
        body: { email: "one@northwind.example", amount: 10 },
      });
    const first = await startHarness();
    const sent = await grant(first);
    const saved = JSON.parse(JSON.stringify(first.intake.snapshot()));
    await first.close();
    harness = await startHarness({ snapshot: saved });
    const again = await grant(harness);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.data).toEqual(sent.data);
    expect((await harness.admin("GET", "/accounts/sub_one/credits")).body.balance).toBe(15);
  });
});

describe("a snapshot given to createIntake", () => {
  it("is checked as PUT /__admin/snapshot checks one: a record that breaks its kind's schema or shares another's API key is refused by its path", async () => {
    const first = createIntake({ seed: SEED });
    const snapshot = first.snapshot() as unknown as { records: { account: Array<Record<string, unknown>> } };
    await first.close();
    const count = snapshot.records.account.length;
    const withAccount = (account: object) => ({ ...snapshot, records: { ...snapshot.records, account: [...snapshot.records.account, account] } }) as never;
    expect(() => createIntake({ snapshot: withAccount({ id: 42 }) })).toThrow(`records.account[${count}].kind is required. Nothing was changed.`);
    expect(() => createIntake({ snapshot: withAccount({ ...snapshot.records.account[0], id: 42, apiKey: "ik_other" }) })).toThrow(`records.account[${count}].id must be a string.`);
    expect(() => createIntake({ snapshot: withAccount({ ...snapshot.records.account[1], id: "acc_twin" }) })).toThrow(
      `records.account[${count}].apiKey is also the API key of account ${String(snapshot.records.account[1]!.id)}: an API key belongs to one account. Nothing was changed.`,
    );
    expect(() => createIntake({ snapshot: withAccount({ ...snapshot.records.account[0], id: "acc_more", apiKey: "ik_more", credits: Infinity }) })).toThrow(
      `records.account[${count}].credits must be a finite number`,
    );
    const intake = createIntake({ snapshot: snapshot as never });
    expect(await intake.admin.accounts()).toHaveLength(count);
    await intake.close();
  });
});

describe("fault rules given at start", () => {
  it("are checked as PUT /__admin/faults checks them: a rule that cannot work is refused at once", async () => {
    expect(() => createIntake({ faults: [{ status: 200 as never }] })).toThrow(/^Fault rules: .*status/);
    expect(() => createIntake({ faults: [{ operationId: "createContct" as never, drop: true }] })).toThrow(/^Fault rules: .*operationId/);
    const intake = createIntake({ faults: [{ operationId: "createContact", status: 503 }] });
    expect(await intake.admin.faults()).toMatchObject([{ operationId: "createContact", status: 503 }]);
    await intake.close();
  });

  it("are checked the same when set from code later (msw users do), and a refused set changes nothing", async () => {
    const intake = createIntake({ faults: [{ operationId: "createContact", status: 503 }] });
    await expect(intake.admin.setFaults([{ status: 200 as never }])).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/status/) });
    expect(await intake.admin.faults()).toMatchObject([{ operationId: "createContact", status: 503 }]);
    await intake.close();
  });
});

describe("the largest media file", () => {
  it("is Intake's maxMediaBytes, named in bytes and in a unit people read", async () => {
    const intake = createIntake({ seed: SEED, maxMediaBytes: 10_000 });
    const png = Buffer.concat([Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"), Buffer.alloc(12_000)]);
    const customData = { messageSid: "S-media", fromId: "u", toId: "t", body: "x", mediaUrl: `data:image/png;base64,${png.toString("base64")}`, mediaContentType: "image/png" };
    const response = await intake.fetch(
      new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ customData }) }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/the per-message media limit is 10000 bytes \(9\.8 KiB\)\. /);
    await intake.close();
  });
});

describe("the largest request body", () => {
  it("is the Intake's maxBodyBytes over HTTPS too: the node adapter reads no further than the core asks", async () => {
    harness = await startHarness({ maxBodyBytes: 100 });
    const body = JSON.stringify({ phone: "+14155550100", firstName: "x".repeat(150) });
    const response = await json(await raw(httpsTarget(harness), `/contacts?apiKey=${KEYS.acme}`, { method: "POST", headers: { "content-type": "application/json" }, body }));
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "The request body is larger than 100 bytes." });
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });
});

describe("the journal", () => {
  it("keeps only the most recent entries", async () => {
    harness = await startHarness({ journalSize: 3 });
    const acme = client(httpsTarget(harness), "query", KEYS.acme);
    for (let i = 0; i < 5; i++) await acme.contacts.create({ phone: `+1415555010${i}` });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ requestBody: { phone: string } }>;
    expect(journal.map((e) => e.requestBody.phone)).toEqual(["+14155550102", "+14155550103", "+14155550104"]);
  });

  it("redacts a key wherever it was sent: under apiKey, under a misspelt or other name, in a body", async () => {
    // A key of a seed's own choosing (not the ik_ shape the service makes) is known as a key all the same.
    const key = "acme-live-secret-2026";
    harness = await startHarness({ seed: { ...SEED, accounts: SEED.accounts!.map((a) => (a.apiKey === KEYS.acme ? { ...a, apiKey: key } : a)) } });
    const names = ["apiKey", "apikey", "api_key", "API-KEY", "key", "token", "access_token", "api_token", "apiKey[]", "client_secret", "k"];
    for (const name of names) {
      expect((await raw(httpsTarget(harness), `/contacts?${encodeURIComponent(name)}=${key}&email=a%40example.com`)).status, name).toBe(name === "apiKey" ? 404 : 401);
    }
    // A key of the shape the service makes, not (or no longer) an account's.
    await raw(httpsTarget(harness), "/contacts?q=ik_0123456789abcdefghijKLMNOP&email=a%40example.com");
    const body = JSON.stringify({ phone: "+14155550123", customFields: { note: key } });
    await raw(httpsTarget(harness), `/contacts?apiKey=${key}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ query: Record<string, string>; requestBody: unknown }>;
    expect(journal).toHaveLength(names.length + 2);
    for (const entry of journal.slice(0, -1)) expect(Object.values(entry.query)).toEqual(["[REDACTED]", "a@example.com"]);
    expect(journal.at(-1)!.requestBody).toEqual({ phone: "+14155550123", customFields: { note: "[REDACTED]" } });
    expect(JSON.stringify(journal)).not.toContain(key);
  });

  it("redacts a key the service made after it stopped being an account's: by its shape, in a query or a body", async () => {
    harness = await startHarness();
    const generate = async () => ((await harness!.admin("POST", "/accounts/acc_acme/api-key")).body as { apiKey: string }).apiKey;
    const old = await generate();
    const current = await generate();
    expect(old).not.toBe(current);
    const acme = client(httpsTarget(harness), "query", current);
    await raw(httpsTarget(harness), `/contacts?q=${old}&email=a%40example.com`);
    await acme.contacts.create({ phone: "+14155550123", customFields: { note: old } });
    const journal = JSON.stringify((await harness.admin("GET", "/journal")).body);
    expect(journal).not.toContain(old);
    // q; then the create's apiKey and its note, sent and answered.
    expect(journal.match(/\[REDACTED\]/g)).toHaveLength(4);
  });

  it("keeps a note of a body over 65,536 characters rather than the body", async () => {
    harness = await startHarness();
    const acme = client(httpsTarget(harness), "query", KEYS.acme);
    // Refused (a name that long is not valid), and journaled all the same.
    const huge = await raw(httpsTarget(harness), `/contacts?apiKey=${KEYS.acme}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone: "+14155550111", firstName: "n".repeat(70_000) }),
    });
    expect(huge.status).toBe(400);
    await acme.contacts.create({ phone: "+14155550112", firstName: "Short" });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ requestBody: unknown }>;
    expect(journal[0]!.requestBody).toEqual({ truncated: true, characters: expect.any(Number) });
    expect((journal[0]!.requestBody as { characters: number }).characters).toBeGreaterThan(70_000);
    expect(journal[1]!.requestBody).toMatchObject({ phone: "+14155550112" });
  });
});

describe("a key where it should not be", () => {
  // Every place a caller could misplace the key, through the client and around it: none of the
  // journal, the client's log lines or its errors (however printed, causes included) shows it.
  it.each([
    ["of the shape the service makes", KEYS.acme],
    ["of a seed's own choosing", "acme-live-secret-2026"],
  ])("a key %s is in no journal entry, log line or error", async (_, key) => {
    harness = await startHarness({ seed: { ...SEED, accounts: SEED.accounts!.map((a) => (a.apiKey === KEYS.acme ? { ...a, apiKey: key } : a)) } });
    const target = httpsTarget(harness);
    const everyCharEncoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
    // A custom fetch that fails as a user's own might, the key in its error's message, code and
    // causes; and one that answers with a redirect whose Location carries the query-form key.
    const fetch = async (request: Request) => {
      const scenario = request.headers.get("x-scenario");
      if (scenario === "fail") {
        throw Object.assign(new TypeError(`fetch failed: ${request.url}`), {
          code: key,
          cause: Object.assign(new Error(`connect to ${key} refused`), { code: `E_${key}`, cause: new Error(`nested ${encodeURIComponent(key)}`) }),
        });
      }
      const response = await target.clientFetch(request);
      if (scenario !== "moved") return response;
      await response.arrayBuffer();
      return new Response(null, { status: 307, headers: { location: request.url, "x-echo": `sent with ${key}` } });
    };
    const lines: LogEntry[] = [];
    const intake = client(target, "query", key, { fetch, logger: (line) => lines.push(line) });
    const calls = [
      intake.lists.addContact(key, { contactId: "ct_000001" }),
      intake.lists.addContact(`my key is ${key}`, { contactId: "ct_000001" }),
      intake.contacts.find({ email: `${key}@example.com` }),
      intake.contacts.create({ phone: "+14155550123", customFields: { note: `my key is ${key}`, nested: { [key]: [`("${key}")`] } as never } }, { headers: { "x-note": key } }),
      intake.contacts.create({ phone: "+14155550124" }, { headers: { "x-scenario": "fail" } }),
      intake.contacts.create({ phone: "+14155550125" }, { headers: { "x-scenario": "moved" } }),
      intake.contacts.create({ phone: "+14155550126" }, { headers: { "x-note": `${key}\u0000!` } }),
    ];
    const errors = (await Promise.allSettled(calls)).flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
    for (const options of [{ headers: { "x-note": `${key}\u0000!` } }, { baseUrl: `${harness.baseUrl}/${key}` }, { auth: key as "query" }]) {
      errors.push(await Promise.resolve().then(() => client(target, "query", key, options)).catch((e: unknown) => e));
    }
    // What the typed client cannot send: the key as a parameter's name or under any name, inside
    // a longer value, as a field's name, a path segment percent-encoded, and a path with no key.
    const withKey = `apiKey=${key}`;
    const post = { method: "POST", headers: { "content-type": "application/json" } };
    await raw(target, `/contacts?${key}=1&${withKey}&email=a%40example.com`);
    await raw(target, `/contacts?note=my%20key%20is%20${key}&${withKey}&email=a%40example.com`);
    await raw(target, `/lists/${everyCharEncoded}/contacts?${withKey}`, { ...post, body: JSON.stringify({ contactId: "ct_000001" }) });
    await raw(target, `/lists/${key}/contacts`, { ...post, body: JSON.stringify({ contactId: key }) });
    await raw(target, `/contacts?${withKey}`, { ...post, body: JSON.stringify({ phone: "+14155550127", customFields: { [`${key}`]: "x", list: [[`a${key}.`]] } }) });

    const journal = (await harness.admin("GET", "/journal")).body as Array<{ path: string }>;
    expect(journal).toHaveLength(10);
    expect(journal.map((e) => e.path)).toContain("/v1/lists/[REDACTED]/contacts");
    const shown = [JSON.stringify(journal), JSON.stringify(lines), ...errors.flatMap((e) => [JSON.stringify(e), inspect(e, { depth: 20, showHidden: true })])];
    for (const text of shown) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(everyCharEncoded);
    }
    expect(errors.map((e) => (e as Error).name)).toEqual([
      "NotFoundError",
      "NotFoundError",
      "BadRequestError",
      "ConnectionError",
      "ConnectionError",
      ...Array(4).fill("IntakeConfigError"),
    ]);
    expect(errors.find((e) => e instanceof ConnectionError)).toMatchObject({ code: "[REDACTED]" });
    // A redirect is refused, its Location named without the key.
    const moved = errors.find((e): e is ConnectionError => e instanceof ConnectionError && (e as Error).message.includes("redirect (307"))!;
    expect(moved.message).toContain("apiKey=[REDACTED]");
    expect(errors.filter((e) => e instanceof IntakeConfigError).map((e) => (e as Error).message).join("\n")).toContain("[REDACTED]");
  });
});

/** POST /v1/contacts in-process, with the body as given. */
const post = (intake: Intake, body: string) =>
  intake.fetch(new Request(`https://intake.test/v1/contacts?apiKey=${KEYS.acme}`, { method: "POST", headers: { "content-type": "application/json" }, body }));

describe("the journal's storage", () => {

  it("gives back every kept entry whole, in order, however sizes and scripts mix as old ones make way", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0, journalSize: 40 });
    const size = (i: number) => (i * 7919) % 20_000;
    const names = Array.from({ length: 300 }, (_, i) => ["Zoë", "名".repeat(size(i)), "🙂".repeat(i % 7), "x".repeat(size(i))][i % 4]! + i);
    const sent = names.map((firstName, i) => ({ phone: `+1415555${String(i).padStart(4, "0")}`, firstName }));
    const answers = [];
    for (const body of sent) {
      const response = await post(intake, JSON.stringify(body));
      answers.push({ status: response.status, body: await response.json() });
    }
    const journal = (await intake.admin.journal());
    expect(journal.map((e) => e.requestBody)).toEqual(sent.slice(-40));
    expect(journal.map((e) => ({ status: e.status, body: e.responseBody }))).toEqual(answers.slice(-40));
    expect(new Set(answers.slice(-40).map((a) => a.status))).toEqual(new Set([201, 400]));
    expect(journal.every((e) => e.path === "/v1/contacts" && e.query.apiKey === "[REDACTED]" && e.operationId === "createContact")).toBe(true);
    await intake.close();
  });

  it("matches a plain list of the last N requests after every request of a random mix (sizes, scripts, clears)", async () => {
    let state = 7;
    const random = () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff) / 0x7fffffff);
    const pieces = ["a", "é", "名", "🙂", "\ufeff", "\"", "\n"];
    for (const journalSize of [1, 2, 3, 7]) {
      const intake = createIntake({ seed: SEED, rateLimit: 0, journalSize });
      let kept: unknown[] = [];
      for (let i = 0; i < 160; i++) {
        if (random() < 0.02) {
          await intake.admin.clearJournal();
          kept = [];
        }
        const length = random() < 0.15 ? Math.floor(random() * 20_000) : Math.floor(random() * 300);
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        const body = { phone: `+1415557${String(i).padStart(4, "0")}`, firstName: piece.repeat(length) + i };
        await post(intake, JSON.stringify(body));
        kept = [...kept, body].slice(-journalSize);
        expect((await intake.admin.journal()).map((e) => e.requestBody)).toEqual(kept);
      }
      await intake.close();
    }
  });

  it("takes a whole number of entries, 0 or more", async () => {
    for (const journalSize of [2.5, -1, Number.NaN]) expect(() => createIntake({ journalSize })).toThrow(`journalSize must be a whole number, 0 or more (got ${journalSize}).`);
    const off = createIntake({ seed: SEED, rateLimit: 0, journalSize: 0 });
    expect((await post(off, '{"phone":"+14155550100"}')).status).toBe(201);
    expect((await off.admin.journal())).toEqual([]);
    await off.close();
  });

  it("keeps thousands of entries in order, and starts afresh when cleared", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0, journalSize: 3000 });
    for (let i = 0; i < 2500; i++) await post(intake, JSON.stringify({ phone: `+1415556${String(i).padStart(4, "0")}` }));
    const journal = (await intake.admin.journal());
    expect(journal).toHaveLength(2500);
    expect(journal.map((e) => (e.requestBody as { phone: string }).phone)).toEqual(Array.from({ length: 2500 }, (_, i) => `+1415556${String(i).padStart(4, "0")}`));
    await intake.admin.clearJournal();
    expect((await intake.admin.journal())).toEqual([]);
    await post(intake, "{not json");
    expect((await intake.admin.journal())).toMatchObject([{ status: 400, requestBody: null, errorCode: expect.any(String) }]);
    await intake.close();
  });
});

describe("an unexpected failure", () => {
  it("is a plain 500 with no internals, and reported to onError", async () => {
    let explode = false;
    const errors: unknown[] = [];
    const clock = {
      mode: "real" as const,
      now: () => {
        if (explode) throw new Error("clock broke at /secret/path.ts:42");
        return Date.now();
      },
      setTimer: () => ({ id: 0 }),
      clearTimer: () => {},
      pending: () => 0,
    };
    harness = await startHarness({ clock, onError: (e) => errors.push(e) });
    const target = httpsTarget(harness);
    explode = true;
    const response = await raw(target, `/contacts?apiKey=${KEYS.acme}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone: "+14155550123" }),
    }).catch((e: unknown) => e);
    explode = false;
    const answered = await json(response as Response);
    expect(answered).toMatchObject({ status: 500, body: { error: { code: "INTERNAL_ERROR", message: "Internal error. Retry later." } } });
    expect((response as Response).headers.get("x-request-id")).toMatch(/^req_/);
    expect(JSON.stringify(answered.body)).not.toMatch(/secret|\.ts|at /);
    expect(errors).toHaveLength(1);
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });

  it("a stored job that fails is removed all the same when onError throws (it is not run again)", async () => {
    const first = createIntake({ seed: SEED, rateLimit: 0 });
    const saved = first.snapshot();
    await first.close();
    (saved.records.job as unknown[]).push({ id: "job_unknown", kind: "no-such-kind", runAt: null, key: null, payload: "{}", createdAt: saved.clock.now });
    const errors: unknown[] = [];
    const console_ = vi.spyOn(console, "error").mockImplementation(() => {});
    const second = createIntake({
      snapshot: saved,
      rateLimit: 0,
      onError: (e) => {
        errors.push(e);
        throw e;
      },
    });
    try {
      await second.admin.settle();
      expect(errors.map((e) => (e as Error).message)).toEqual(["No handler for no-such-kind jobs"]);
      expect(console_.mock.calls[0]![0]).toBe("intake: onError threw");
      expect(await second.admin.jobs()).toEqual([]);
    } finally {
      console_.mockRestore();
      await second.close();
    }
  });

  it("is answered all the same when onError throws (the throw goes to the console)", async () => {
    let explode = false;
    const clock = { mode: "real" as const, now: () => (explode ? fail() : Date.now()), setTimer: () => ({ id: 0 }), clearTimer: () => {}, pending: () => 0 };
    const fail = (): never => {
      throw new Error("clock broke");
    };
    const { intake, errors, console_ } = rethrowingIntake({ clock });
    try {
      explode = true;
      const response = await intake.fetch(new Request(`https://intake.test/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`));
      explode = false;
      expect(response.status).toBe(500);
      expect(errors).toHaveLength(1);
      expect(console_.mock.calls[0]![0]).toBe("intake: onError threw");
    } finally {
      console_.mockRestore();
      await intake.close();
    }
  });
});

describe("deterministic mode", () => {
  it("two servers given the same requests answer byte for byte the same", async () => {
    const transcript = async () => {
      const h = await startHarness({ deterministic: true, seed: { accounts: [{ name: "Det", apiKey: "ik_deterministic_000000001" }] } });
      const out: string[] = [];
      const send = async (path: string, body?: unknown) => {
        const response = await raw(httpsTarget(h), path, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
        const headers = [...response.headers].filter(([name]) => !["connection", "keep-alive", "transfer-encoding"].includes(name));
        out.push(`${response.status} ${JSON.stringify(headers)} ${await response.text()}`);
      };
      const key = "?apiKey=ik_deterministic_000000001";
      await send(`/contacts${key}`, { phone: "+14155550123", firstName: "Ada" });
      await send(`/contacts${key}&phoneNumber=%2B14155550123`);
      await send(`/send_custom_channel_message${key}`, { customData: { fromId: "u1", customChannel: "c", body: "Hi" } });
      await send(`/incoming_custom_channel_message${key}`, { customData: { messageSid: "S1", fromId: "u1", toId: "t", body: "Hello" } });
      await send(`/contacts${key}`, { phone: "12" });
      const accounts = await h.admin("GET", "/accounts");
      out.push(JSON.stringify(accounts.body));
      await h.close();
      return out;
    };
    const first = await transcript();
    const second = await transcript();
    expect(second).toEqual(first);
    expect(first[0]).toMatch(/"ct_000001"/);
    expect(first[0]).toMatch(/2026-01-01T00:00:00\.000Z/);
  });

  it("numbers /v1 requests apart from the admin API's, so a test's set-up does not move them", async () => {
    const ids = async (adminCalls: number) => {
      const h = await startHarness({ deterministic: true, seed: { accounts: [{ name: "Det", apiKey: "ik_deterministic_000000001" }] } });
      const v1 = async () => (await raw(httpsTarget(h), "/contacts?apiKey=ik_deterministic_000000001&email=a%40example.com")).headers.get("x-request-id");
      const first = await v1();
      const admin = [];
      for (let i = 0; i < adminCalls; i++) admin.push((await h.admin("GET", "/accounts")).headers.get("x-request-id"));
      const second = await v1();
      await h.close();
      return { v1: [first, second], admin };
    };
    const quiet = await ids(0);
    const busy = await ids(3);
    expect(busy.v1).toEqual(quiet.v1);
    expect(new Set([...busy.v1, ...busy.admin]).size).toBe(5);
    expect(busy.admin.every((id) => /^req_/.test(String(id)))).toBe(true);
  });
});

describe("the client over HTTPS", () => {
  it("refuses to talk plain HTTP to it, and trusts it only with its certificate", async () => {
    harness = await startHarness();
    expect(() => createIntakeClient({ auth: "query", apiKey: KEYS.acme, baseUrl: harness!.server.baseUrl.replace("https", "http") })).toThrow(/Refusing the http:\/\/ base URL/);
    const untrusting = createIntakeClient({ auth: "query", apiKey: KEYS.acme, baseUrl: harness.server.baseUrl, maxRetries: 0 });
    await expect(untrusting.contacts.find({ email: "a@example.com" })).rejects.toMatchObject({ name: "ConnectionError", code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
  });
});

describe("behind a TLS-terminating proxy", () => {
  it("X-Forwarded-Proto: https counts only when the server trusts it", async () => {
    const request = () =>
      raw(httpsTarget(harness!), `/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, { scheme: "http", headers: { "x-forwarded-proto": "https" } });
    harness = await startHarness();
    expect((await json(await request())).body.error.code).toBe("HTTPS_REQUIRED");
    await harness.close();
    harness = await startHarness({ trustForwardedProto: true });
    expect((await request()).status).toBe(404);
  });
});

describe("a listener on the domain events that fails", () => {
  it("is reported to onError and does not fail the request that caused it", async () => {
    const errors: unknown[] = [];
    harness = await startHarness({ onError: (e) => errors.push(e) });
    harness.intake.events.on(["message.received"], () => {
      throw new Error("listener broke");
    });
    const acme = client(httpsTarget(harness), "query", KEYS.acme);
    await expect(acme.messages.receive({ customData: { messageSid: "S1", fromId: "u", toId: "t", body: "x" } })).resolves.toMatchObject({ success: true });
    expect(errors).toEqual([expect.objectContaining({ message: "listener broke" })]);
  });
});

describe("the node adapter's generated certificate, without a folder to keep it in", () => {
  it("is this run's own, in a folder of its own closed to others, removed when the server stops or cannot listen", async () => {
    // A temporary folder of this test's alone, so the folders counted are this test's servers'.
    const temporary = mkdtempSync(join(tmpdir(), "intake-tmpdir-"));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    try {
      const first = await serve(createIntake({ seed: SEED }), { port: 0 });
      const folder = dirname(first.certificatePath);
      try {
        expect(dirname(folder)).toBe(temporary);
        if (process.platform !== "win32") expect(statSync(folder).mode & 0o777).toBe(0o700);
        await expect(serve(createIntake({ seed: SEED }), { port: first.port, host: "127.0.0.1" })).rejects.toThrow(`Port ${first.port} on 127.0.0.1 is in use`);
        expect(readdirSync(temporary)).toEqual([basename(folder)]);
      } finally {
        await first.close();
      }
      expect(readdirSync(temporary)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(temporary, { recursive: true, force: true });
    }
  });
});

describe("the node adapter", () => {
  /** A request over HTTPS to the harness with headers as given (repeats too); the answer, and whether its connection was used before. */
  const send = (method: string, path: string, headers: Record<string, string | string[]>, body?: string, agent?: Agent) =>
    new Promise<{ status: number; body: string; reused: boolean; requestId: string | undefined }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port: harness!.server.port, path, method, headers, agent, ca: harness!.server.certificate, servername: "localhost" }, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: text, reused: req.reusedSocket, requestId: res.headers["x-request-id"] as string | undefined }));
      });
      req.on("error", reject);
      req.end(body);
    });

  it("routes by the request's path, whatever the Host header says; answers odd targets and oversized headers in the API's shape", async () => {
    harness = await startHarness();
    // Were the Host header part of the URL, this would reach GET /__admin/clock with a valid admin token.
    const steered = await send("GET", "/v1/contacts?email=a%40example.com", { host: "h/__admin/clock#", authorization: "Bearer adm_test_token_0123456789" });
    expect(steered.status).toBe(401);
    expect(JSON.parse(steered.body).error.code).toBe("INVALID_API_KEY");
    const star = await send("GET", "*", {});
    expect(star.status).toBe(400);
    expect(JSON.parse(star.body)).toEqual({ error: { code: "VALIDATION_ERROR", message: "The request target must be a path such as /v1/contacts." } });
    expect(star.requestId).toMatch(/^req_/);
    // URL and headers past 16 KiB: answered by the core in the shape of the route the request
    // line names, with a request id, and journaled.
    const tooLarge = "The request's URL and headers are larger than the server accepts (16 KiB).";
    const huge = await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=${"a".repeat(20_000)}`, {});
    expect(huge).toMatchObject({ status: 400, requestId: expect.stringMatching(/^req_/) });
    expect(JSON.parse(huge.body)).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: tooLarge } });
    const receive = await send("POST", `/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`, { "content-type": "application/json", "x-pad": "a".repeat(17_000) }, "{}");
    expect(receive).toMatchObject({ status: 400, requestId: expect.stringMatching(/^req_/) });
    expect(JSON.parse(receive.body)).toEqual({ error: tooLarge });
    // A refused request's path is journaled to 1 KiB (it may run to 64 KiB).
    const longPath = await send("GET", `/v1/${"p".repeat(20_000)}`, {});
    expect(longPath.status).toBe(400);
    const kept = (await harness.admin("GET", "/journal")).body as Array<{ path: string }>;
    expect(kept.at(-1)!.path).toBe(`/v1/${"p".repeat(1020)}`);
    // Past node's own limit (64 KiB) too, the connection then closed.
    const huger = await send("GET", "/v1/contacts", { "x-pad": "a".repeat(70_000) });
    expect(huger).toMatchObject({ status: 400, requestId: expect.stringMatching(/^req_/) });
    expect(JSON.parse(huger.body)).toEqual({ error: { code: "PAYLOAD_TOO_LARGE", message: tooLarge } });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ path: string; query: object; status: number; errorCode: string }>;
    expect(journal.slice(-5)).toEqual([
      expect.objectContaining({ path: "/", query: {}, status: 400, errorCode: "VALIDATION_ERROR" }),
      expect.objectContaining({ path: "/v1/contacts", query: {}, status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
      expect.objectContaining({ path: "/v1/incoming_custom_channel_message", query: {}, status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
      expect.objectContaining({ status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
      expect.objectContaining({ status: 400, errorCode: "PAYLOAD_TOO_LARGE" }),
    ]);
    expect(JSON.stringify(journal)).not.toContain(KEYS.acme);
    // A key the 1 KiB cut would end inside is left out whole: cut short, it would not be found as a key.
    const straddling = `/v1/${"p/".repeat(505)}${KEYS.acme}/${"q".repeat(20_000)}`;
    expect((await send("GET", straddling, {})).status).toBe(400);
    const last = ((await harness.admin("GET", "/journal")).body as Array<{ path: string }>).at(-1)!;
    expect(last.path).toBe(`/v1/${"p/".repeat(505)}`);
    // Bytes that are not HTTP at all, on the plain-HTTP side of the port.
    const garbage = await exchange(plainTo(harness.server.port), NOT_HTTP);
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*x-request-id: req_[^]*connection: close\r\n\r\n/);
    expect(bodyOf(garbage)).toEqual({ error: { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." } });
  });

  it("over HTTPS, a target that is not a path, a head over 16 KiB and bytes that are not HTTP get their 400, then the connection is closed", async () => {
    harness = await startHarness();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // The control: two good requests share one kept-alive connection.
      await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, {}, undefined, agent);
      expect((await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, {}, undefined, agent)).reused).toBe(true);
      for (const [target, headers] of [
        ["*", {}],
        ["/v1/contacts", { "x-pad": "a".repeat(17_000) }],
      ] as const) {
        const refused = await send("GET", target, headers, undefined, agent);
        expect(refused, target).toMatchObject({ status: 400, reused: true, requestId: expect.stringMatching(/^req_/) });
        expect((await send("GET", `/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, {}, undefined, agent)).reused, target).toBe(false);
      }
    } finally {
      agent.destroy();
    }
    const garbage = await exchange(tlsTo(harness), NOT_HTTP);
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*x-request-id: req_[^]*connection: close\r\n\r\n/);
    expect(bodyOf(garbage)).toEqual({ error: { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." } });
  });

  it("answers requests that arrive together, each with its own answer and in order: pipelined on one connection, and on many connections at once", async () => {
    harness = await startHarness();
    const phones = ["+14155550101", "+14155550102", "+14155550103"];
    for (const phone of phones) {
      expect((await send("POST", `/v1/contacts?apiKey=${KEYS.acme}`, { "content-type": "application/json" }, JSON.stringify({ phone, firstName: "Pat" }))).status).toBe(201);
    }
    const byPhone = (i: number, last = false) => find(`phoneNumber=${encodeURIComponent(phones[i]!)}`, last);
    const message = JSON.stringify({ customData: { messageSid: "SM-pipelined", fromId: "user-9", toId: "acme-support", body: "Hello" } });
    const receive = `POST /v1/incoming_custom_channel_message?apiKey=${KEYS.acme} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${message.length}\r\n\r\n${message}`;
    // One write: node reads all five at once, and the answers must still leave in the order asked.
    const answers = answersIn(await exchange(tlsTo(harness), byPhone(0) + receive + byPhone(1) + find("email=nobody%40example.com") + byPhone(2, true)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 200]);
    expect([0, 2, 4].map((i) => (answers[i]!.body as { contact: { phone: string } }).contact.phone)).toEqual(phones);
    expect(answers[1]!.body).toEqual({ success: true, messageId: expect.stringMatching(/^msg_/) });
    expect((answers[3]!.body as { error: { code: string } }).error.code).toBe("CONTACT_NOT_FOUND");
    // Ten connections opened first, then a request written on each in one go: each gets its own answer.
    const sockets = await Promise.all(Array.from({ length: 10 }, () => new Promise<Socket>((resolve) => { const socket: Socket = tlsTo(harness!)(() => resolve(socket)); })));
    const together = sockets.map((socket) => new Promise<string>((resolve, reject) => {
      let text = "";
      socket.on("data", (chunk) => (text += chunk)).on("end", () => resolve(text)).on("error", reject);
    }));
    sockets.forEach((socket, i) => socket.write(byPhone(i % 3, true)));
    expect((await Promise.all(together)).map((text) => (answersIn(text)[0]!.body as { contact: { phone: string } }).contact.phone)).toEqual(sockets.map((_, i) => phones[i % 3]));
  });

  it("on one connection, a request that is not HTTP, or one a fault rule drops, comes after the answers to the requests before it", async () => {
    // The lookup is slow: what follows it must still wait for its answer.
    harness = await startHarness({ faults: [{ operationId: "findContact", latencyMs: 300 }, { operationId: "createContact", drop: true }] });
    const lookup = find("email=nobody%40example.com");
    for (const refused of [NOT_HTTP, `GET /v1/contacts HTTP/1.1\r\nx-pad: ${"a".repeat(70_000)}\r\n\r\n`]) {
      const answers = answersIn(await exchange(tlsTo(harness), lookup + refused));
      expect(answers.map((a) => a.status), refused.slice(0, 20)).toEqual([404, 400]);
    }
    // Bytes arriving while the refusal waits make node report the error again: still one refusal.
    const journalBefore = ((await harness.admin("GET", "/journal")).body as unknown[]).length;
    const again = await new Promise<string>((resolve) => {
      let text = "";
      const socket = tlsTo(harness!)(() => {
        socket.write(lookup + NOT_HTTP);
        setTimeout(() => socket.writable && socket.write("MORE BYTES\r\n\r\n"), 30);
      });
      // A reset after the server closed is no failure here: what it answered is what counts.
      socket.on("data", (chunk) => (text += chunk)).on("close", () => resolve(text)).on("error", () => {});
    });
    expect(answersIn(again).map((a) => a.status)).toEqual([404, 400]);
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ status: number }>;
    // Journaled as each was handled: the refusal before the slow lookup.
    expect(journal.slice(journalBefore).map((entry) => entry.status)).toEqual([400, 404]);
    const create = JSON.stringify({ phone: "+14155550101" });
    const dropped = `POST /v1/contacts?apiKey=${KEYS.acme} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${create.length}\r\n\r\n${create}`;
    const answers = answersIn(await exchange(tlsTo(harness), lookup + dropped));
    expect(answers.map((a) => a.status)).toEqual([404]);
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });

  it("refuses a certificate given without its key, or a key without its certificate, and listens on nothing", async () => {
    const intake = createIntake({ seed: SEED });
    try {
      for (const half of [{ certFile: "cert.pem" }, { keyFile: "key.pem" }]) {
        await expect(serve(intake, { port: 0, ...half })).rejects.toThrow("--tls-cert and --tls-key go together: give both files.");
      }
    } finally {
      await intake.close();
    }
  });

  it("close() writes the answers already made before it cuts the connections", async () => {
    const intake = createIntake({ seed: SEED });
    let closed: Promise<void> | undefined;
    // Called as soon as the answer is made, as a SIGTERM handled then would.
    const core = internals(intake);
    const closing = { ...core, handle: async (request: Parameters<typeof core.handle>[0]) => { const answer = await core.handle(request); process.nextTick(() => (closed = server.close())); return answer; } };
    const server = await serveCore(closing, { port: 0 });
    try {
      const answer = await exchange(tlsTo({ server }), find("email=nobody%40example.com"));
      expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    } finally {
      await (closed ?? server.close());
      await intake.close();
    }
  });

  it("answers while a test's fake timers are installed, whether installed before or after the server loads", async () => {
    const intake = createIntake({ seed: SEED });
    const server = await serve(intake, { port: 0 });
    vi.useFakeTimers();
    try {
      expect(await exchange(tlsTo({ server }), find("email=nobody%40example.com", true))).toMatch(/^HTTP\/1\.1 404 /);
    } finally {
      vi.useRealTimers();
      await server.close();
      await intake.close();
    }
    // Timers faked before the server loads (a test runner's global set-up), with a setImmediate that never runs.
    // Like real fakes (@sinonjs/fake-timers), it returns a timer that can be unref'd: tsx calls
    // setImmediate(...).unref() when it first writes its cache, which a fresh machine's cold cache does.
    const script = `
      const never = () => ({ ref() { return this; }, unref() { return this; }, hasRef: () => false });
      globalThis.setImmediate = never;
      (await import("node:module")).createRequire(import.meta.url)("node:timers").setImmediate = never;
      const { startIntakeServer } = await import("@intake/server/testing");
      const { request } = await import("node:https");
      const intake = await startIntakeServer({});
      request(intake.baseUrl + "/contacts?email=a%40example.com", { ca: intake.connection.certificate }, (res) => {
        console.log(res.statusCode);
        res.resume().on("end", () => process.exit(0));
      }).end();
      setTimeout(() => process.exit(3), 5000);
    `;
    // Against the sources, as the rest of the suite (not a build that may be stale). Compiling them with a
    // cold tsx cache takes 6-12 s here: the child is given a minute, and the worker is not blocked meanwhile.
    const child = await new Promise<{ status: unknown; out: string; err: string }>((resolve) => {
      const args = ["--conditions=@intake/source", "--import", "tsx", "--input-type=module", "-e", script];
      execFile(process.execPath, args, { cwd: fileURLToPath(new URL(".", import.meta.url)), timeout: 60_000 }, (error, out, err) =>
        resolve({ status: error ? (error.killed ? "killed at the time limit" : error.code) : 0, out, err }),
      );
    });
    expect({ status: child.status, out: child.out.trim() }, quoted(child.err)).toEqual({ status: 0, out: "401" });
  }, 90_000);

  it("closes a connection it refused both ways, even when the client keeps its own side open", async () => {
    harness = await startHarness();
    const socket = connect({ port: harness.server.port, host: "127.0.0.1", allowHalfOpen: true });
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk));
    await new Promise((resolve) => socket.once("end", resolve).write(NOT_HTTP));
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    // Had the server only ended its side, these writes would be taken in for ever. It reads and
    // drops them for a while (closed at once, it would reset its answer away), then closes the
    // connection, and a write after that is reset.
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.on("error", () => {});
    for (let i = 0; i < 80 && !socket.destroyed; i++) {
      socket.write("more\r\n");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await expect(Promise.race([closed.then(() => "closed"), new Promise((resolve) => setTimeout(() => resolve("still open"), 1000))])).resolves.toBe("closed");
  });

  it("does not wait for ever on a client: silence and a request line left unfinished are closed after headersTimeoutMs", async () => {
    const intake = createIntake({ seed: SEED });
    const server = await serve(intake, { port: 0, headersTimeoutMs: 300 });
    try {
      const open = (send?: string) =>
        new Promise<{ answer: string; ms: number }>((resolve, reject) => {
          const started = Date.now();
          let answer = "";
          const socket: Socket = connect(server.port, "127.0.0.1", () => send && socket.write(send));
          socket.on("data", (chunk) => (answer += chunk)).on("close", () => resolve({ answer, ms: Date.now() - started })).on("error", reject);
          setTimeout(() => reject(new Error("the connection is still open after 5 s")), 5000).unref();
        });
      const [silent, unfinished] = await Promise.all([open(), open("POST /v1/incoming_custom_channel_message HTTP/1.1\r\nHost: x\r\n")]);
      expect(silent.answer).toBe("");
      expect(unfinished.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      for (const { ms } of [silent, unfinished]) expect(ms).toBeGreaterThanOrEqual(250);
    } finally {
      await server.close();
      await intake.close();
    }
  });

  it("a key header sent twice is refused, not read as its first copy; a request refused before its body is read is answered all the same", async () => {
    harness = await startHarness({ maxBodyBytes: 1_000 });
    const one = await send("GET", "/v1/contacts?email=a%40example.com", { authorization: `Bearer ${KEYS.acme}` });
    expect(one.status).toBe(404);
    const twice = await send("GET", "/v1/contacts?email=a%40example.com", { authorization: [`Bearer ${KEYS.acme}`, "Bearer ik_someone_else_000000001"] });
    expect(twice.status).toBe(401);
    expect(JSON.parse(twice.body).error.code).toBe("INVALID_API_KEY");
    // Not read (nor refused as too large, which would close the connection): the connection is used again.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const unread = await send("POST", "/v1/contacts", { "content-type": "application/json" }, JSON.stringify({ phone: "+14155550100", firstName: "x".repeat(50_000) }), agent);
      expect(unread.status).toBe(401);
      expect(JSON.parse(unread.body).error.code).toBe("MISSING_API_KEY");
      const next = await send("GET", "/v1/contacts?email=a%40example.com", { authorization: `Bearer ${KEYS.acme}` }, undefined, agent);
      expect(next).toMatchObject({ status: 404, reused: true });
    } finally {
      agent.destroy();
    }
    expect((await harness.admin("GET", "/contacts")).body).toHaveLength(0);
  });

  it("a failure of its own is answered 500 in the route's shape and reported to onError, the key kept out, even when onError throws", async () => {
    const { intake, errors, console_ } = rethrowingIntake();
    const server = await serveCore({ ...internals(intake), handle: () => Promise.reject(new Error("boom")) }, { port: 0 });
    const dispatcher = new UndiciAgent({ connect: { ca: server.certificate } });
    const send = (path: string, init: RequestInit = {}) => fetch(`${server.origin}${path}`, { ...init, dispatcher } as RequestInit);
    try {
      const receive = await send(`/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`, { method: "POST", body: "{}" });
      expect(receive.status).toBe(500);
      expect(await receive.json()).toEqual({ error: "Internal error. Retry later." });
      const find = await send(`/v1/contacts?apiKey=${KEYS.acme}&email=a%40example.com`);
      expect(await find.json()).toEqual({ error: { code: "INTERNAL_ERROR", message: "Internal error. Retry later." } });
      expect(errors.map((e) => (e as Error).message)).toEqual([
        "The node adapter could not answer POST /v1/incoming_custom_channel_message.",
        "The node adapter could not answer GET /v1/contacts.",
      ]);
      expect((errors[0] as Error).cause).toMatchObject({ message: "boom" });
      expect(console_).toHaveBeenCalledTimes(2);
      expect(console_.mock.calls[0]![0]).toBe("intake: onError threw");
    } finally {
      console_.mockRestore();
      await dispatcher.close();
      await server.close();
      await intake.close();
    }
  });
});

describe("the node adapter, when the core fails on a request node could not parse", () => {
  it("answers 400 in the route's shape itself, closes the connection and reports to onError", async () => {
    const { intake, errors, console_ } = rethrowingIntake();
    const server = await serveCore({ ...internals(intake), handle: () => Promise.reject(new Error("boom")) }, { port: 0 });
    const answer = (request: string) => exchange(plainTo(server.port), request);
    try {
      const garbage = await answer(NOT_HTTP);
      expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[^]*connection: close\r\n\r\n/);
      expect(bodyOf(garbage)).toEqual({ error: { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." } });
      const receive = await answer("POST /v1/incoming_custom_channel_message HTTP/1.1\r\nhost: x\r\nnot a header\r\n\r\n");
      expect(bodyOf(receive)).toEqual({ error: "The request is not valid HTTP." });
      expect(errors.map((e) => (e as Error).message)).toEqual([
        "The node adapter could not answer a request it could not parse.",
        "The node adapter could not answer a request it could not parse.",
      ]);
      expect((errors[0] as Error).cause).toMatchObject({ message: "boom" });
    } finally {
      console_.mockRestore();
      await server.close();
      await intake.close();
    }
  });
});

const NOT_HTTP = "HELLO THERE\r\n\r\n";

/** Sends raw bytes on a connection `open` makes (plain or TLS) and reads the answer until the server closes it. */
function exchange(open: (onConnect: () => void) => Socket, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = open(() => socket.write(request));
    let text = "";
    socket.on("data", (chunk) => (text += chunk)).on("end", () => resolve(text)).on("error", reject);
  });
}
const plainTo = (port: number) => (onConnect: () => void) => connect(port, "127.0.0.1", onConnect);
/** The JSON body of a raw HTTP answer. */
const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
/** A lookup as raw HTTP, the last on its connection when `last`. */
const find = (query: string, last = false) => `GET /v1/contacts?apiKey=${KEYS.acme}&${query} HTTP/1.1\r\nhost: localhost\r\n${last ? "connection: close\r\n" : ""}\r\n`;
/** Opens a TLS connection to a running server (for `exchange`). */
const tlsTo = ({ server }: { server: { port: number; certificate: string } }) => (onConnect: () => void) =>
  tlsConnect({ port: server.port, host: "127.0.0.1", ca: server.certificate, servername: "localhost" }, onConnect);
/** The answers in a connection's raw bytes, one after another, each framed by its Content-Length. */
function answersIn(text: string): Array<{ status: number; body: unknown }> {
  const answers = [];
  for (let at = 0; at < text.length; ) {
    const headEnd = text.indexOf("\r\n\r\n", at);
    const head = text.slice(at, headEnd);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1]);
    answers.push({ status: Number(head.slice(9, 12)), body: JSON.parse(text.slice(headEnd + 4, headEnd + 4 + length)) });
    at = headEnd + 4 + length;
  }
  return answers;
}

/** An Intake whose onError keeps each error and throws it again, as tests often do; the console silenced. */
function rethrowingIntake(options: IntakeOptions = {}) {
  const errors: unknown[] = [];
  const console_ = vi.spyOn(console, "error").mockImplementation(() => {});
  const intake = createIntake({
    ...options,
    seed: SEED,
    onError: (e) => {
      errors.push(e);
      throw e;
    },
  });
  return { intake, errors, console_ };
}

describe("the data file", () => {
  /** A folder for one test's data file and its lock, removed after the test. */
  function lockFolder() {
    const directory = mkdtempSync(join(tmpdir(), "intake-lock-"));
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    const path = join(directory, "state.db");
    return { path, lock: `${path}.lock` };
  }
  const inUse = (path: string, holder: string) =>
    `${path} is in use by another server (process ${holder}; ${path}.lock): stop it, or give this one another --data-file. If no intake-server runs as that process (one killed, its process id since reused), delete ${path}.lock.`;
  const mine = `${process.pid} ${hostname()}\n`;

  it("is kept by one server at a time: <file>.lock names its process and host, a second openDataFile() is refused, a close gives it up", async () => {
    const { path, lock } = lockFolder();
    const first = openDataFile(path);
    expect(readFileSync(lock, "utf8")).toBe(mine);
    expect(() => openDataFile(path)).toThrow(`${path} is already kept by this process: close its other openDataFile() first.`);
    first.close();
    expect(existsSync(lock)).toBe(false);
    // A close made twice gives up only its own lock, never the next holder's.
    const again = openDataFile(path);
    again.close();
    writeFileSync(lock, `${process.ppid} ${hostname()}\n`);
    again.close();
    expect(readFileSync(lock, "utf8")).toBe(`${process.ppid} ${hostname()}\n`);
  });

  it("held by a process that runs on this host is refused, naming that process and the lock", async () => {
    const { path, lock } = lockFolder();
    const holder = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    onTestFinished(async () => {
      if (holder.exitCode !== null || holder.signalCode !== null) return;
      const exited = new Promise((resolve) => holder.once("exit", resolve));
      holder.kill("SIGKILL");
      await exited;
    });
    writeFileSync(lock, `${holder.pid} ${hostname()}\n`);
    expect(() => openDataFile(path)).toThrow(inUse(path, String(holder.pid)));
    expect(readFileSync(lock, "utf8")).toBe(`${holder.pid} ${hostname()}\n`);
  });

  it("held on another host is refused, naming the process and the host (it cannot be looked at from here)", async () => {
    const { path, lock } = lockFolder();
    writeFileSync(lock, `${process.pid} another-host\n`);
    expect(() => openDataFile(path)).toThrow(inUse(path, `${process.pid} on another-host`));
  });

  it("held by a process that has ended, or by this process's pid with no claim of its own (a restarted container), is taken over", async () => {
    const { path, lock } = lockFolder();
    // A server killed without a stop leaves its lock behind: here a process that ran and was reaped.
    const ended = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    await new Promise((resolve) => ended.once("exit", resolve));
    for (const stale of [`${ended.pid} ${hostname()}\n`, mine]) {
      writeFileSync(lock, stale);
      const next = openDataFile(path);
      expect(readFileSync(lock, "utf8")).toBe(mine);
      next.close();
      expect(existsSync(lock)).toBe(false);
    }
  });

  it("with a lock that names no process (empty, as a server killed as it started leaves it) is refused, saying what to do", async () => {
    const { path, lock } = lockFolder();
    for (const unreadable of ["", "not a lock\n"]) {
      writeFileSync(lock, unreadable);
      expect(() => openDataFile(path)).toThrow(
        `${path} may be in use by another server: ${lock} does not name its process (one starting, or killed as it started). If no intake-server runs on this file, delete ${lock}.`,
      );
      expect(readFileSync(lock, "utf8")).toBe(unreadable);
    }
  });

  it("a commit that fails is answered 503 NOT_SAVED and reported to onError once; its change is undone, in memory too, and the file keeps its last commit", async () => {
    const { path } = lockFolder();
    const { intake, errors, console_ } = rethrowingIntake();
    const saver = persist(intake, openDataFile(path));
    const create = (phone: string) => post(intake, JSON.stringify({ phone }));
    const find = (phone: string) => intake.fetch(new Request(`https://intake.test/v1/contacts?apiKey=${KEYS.acme}&phoneNumber=${encodeURIComponent(phone)}`));
    // Another program holds the file's write lock (a sqlite3 shell in a transaction, say).
    const other = new Database(path);
    try {
      expect((await create("+14155550100")).status).toBe(201);
      other.exec("BEGIN IMMEDIATE");
      const refused = await create("+14155550101");
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toEqual({
        error: {
          code: "NOT_SAVED",
          message: "The server could not save this change to its data file (its log says why), so nothing of it was saved or applied. Retry after 1 second.",
        },
      });
      expect((errors[0] as Error).message).toBe(
        `${path} is locked by another program (database is locked): close what holds it (a sqlite3 shell in a transaction, say). Changes are undone, and answered 503 NOT_SAVED, until a save works again (tried each second).`,
      );
      // Reported once while it keeps failing; reads answer, from memory, which no longer has the refused change.
      expect((await create("+14155550103")).status).toBe(503);
      expect(errors).toHaveLength(1);
      expect((await find("+14155550100")).status).toBe(200);
      expect((await find("+14155550101")).status).toBe(404);
      const phones = () => other.prepare("SELECT json_extract(record, '$.phone') FROM contacts").pluck().all();
      expect(phones()).toEqual(["+14155550100"]);
      other.exec("ROLLBACK");
      expect((await create("+14155550102")).status).toBe(201);
      // The changes refused are not saved later either: nothing of them is left.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(phones()).toEqual(["+14155550100", "+14155550102"]);
      expect((await find("+14155550101")).status).toBe(404);
    } finally {
      other.close();
      console_.mockRestore();
      saver.stop();
      await intake.close();
    }
  });
});
