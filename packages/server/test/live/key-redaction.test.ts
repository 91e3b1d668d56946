// A key where it should not be: in no journal entry, client log line or error, however sent.
import { ConnectionError, IntakeConfigError, type LogEntry } from "@intake/client";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, raw, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS, SEED } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("a key where it should not be", () => {
  // Every place a caller could misplace the key, through the client and around it: none of the
  // journal, the client's log lines or its errors (however printed, causes included) shows it.
  it.each([
    ["of the shape the service makes", KEYS.acme],
    ["of a seed's own choosing", "acme-live-secret-2026"],
  ])("a key %s is in no journal entry, log line or error", async (_, key) => {
    harness = await startHarness({
      seed: { ...SEED, accounts: SEED.accounts!.map((a) => (a.apiKey === KEYS.acme ? { ...a, apiKey: key } : a)) },
    });
    const target = httpsTarget(harness);
    const everyCharEncoded = [...key].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
    // A custom fetch that fails as a user's own might, the key in its error's message, code and
    // causes; and one that answers with a redirect whose Location carries the query-form key.
    const fetch = async (request: Request) => {
      const scenario = request.headers.get("x-scenario");
      if (scenario === "fail") {
        throw Object.assign(new TypeError(`fetch failed: ${request.url}`), {
          code: key,
          cause: Object.assign(new Error(`connect to ${key} refused`), {
            code: `E_${key}`,
            cause: new Error(`nested ${encodeURIComponent(key)}`),
          }),
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
      intake.contacts.create(
        { phone: "+14155550123", customFields: { note: `my key is ${key}`, nested: { [key]: [`("${key}")`] } as never } },
        { headers: { "x-note": key } },
      ),
      intake.contacts.create({ phone: "+14155550124" }, { headers: { "x-scenario": "fail" } }),
      intake.contacts.create({ phone: "+14155550125" }, { headers: { "x-scenario": "moved" } }),
      intake.contacts.create({ phone: "+14155550126" }, { headers: { "x-note": `${key}\u0000!` } }),
    ];
    const errors = (await Promise.allSettled(calls)).flatMap((outcome) =>
      outcome.status === "rejected" ? [outcome.reason as unknown] : [],
    );
    for (const options of [
      { headers: { "x-note": `${key}\u0000!` } },
      { baseUrl: `${harness.baseUrl}/${key}` },
      { auth: key as "query" },
    ]) {
      errors.push(
        await Promise.resolve()
          .then(() => client(target, "query", key, options))
          .catch((e: unknown) => e),
      );
    }
    // What the typed client cannot send: the key as a parameter's name or under any name, inside
    // a longer value, as a field's name, a path segment percent-encoded, and a path with no key.
    const withKey = `apiKey=${key}`;
    const post = { method: "POST", headers: { "content-type": "application/json" } };
    await raw(target, `/contacts?${key}=1&${withKey}&email=a%40example.com`);
    await raw(target, `/contacts?note=my%20key%20is%20${key}&${withKey}&email=a%40example.com`);
    await raw(target, `/lists/${everyCharEncoded}/contacts?${withKey}`, { ...post, body: JSON.stringify({ contactId: "ct_000001" }) });
    await raw(target, `/lists/${key}/contacts`, { ...post, body: JSON.stringify({ contactId: key }) });
    await raw(target, `/contacts?${withKey}`, {
      ...post,
      body: JSON.stringify({ phone: "+14155550127", customFields: { [`${key}`]: "x", list: [[`a${key}.`]] } }),
    });

    const journal = (await harness.admin("GET", "/journal")).body as Array<{ path: string }>;
    expect(journal).toHaveLength(10);
    expect(journal.map((e) => e.path)).toContain("/v1/lists/[REDACTED]/contacts");
    const shown = [
      JSON.stringify(journal),
      JSON.stringify(lines),
      ...errors.flatMap((e) => [JSON.stringify(e), inspect(e, { depth: 20, showHidden: true })]),
    ];
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
    expect(
      errors
        .filter((e) => e instanceof IntakeConfigError)
        .map((e) => (e as Error).message)
        .join("\n"),
    ).toContain("[REDACTED]");
  });
});
