// The rate limit per key per minute: its 429 and headers, real time whatever the clock.
import { RateLimitError } from "@intake/client";
import { createIntake } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, json, raw, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

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
    expect(limited.body).toEqual({
      error: { code: "RATE_LIMITED", message: `Rate limit of 3 requests per minute exceeded; retry in ${wait} seconds.` },
    });
    expect(
      Object.fromEntries(["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => [h, limited.headers.get(h)])),
    ).toEqual({
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
    expect(receive).toMatchObject({
      status: 429,
      body: { error: expect.stringMatching(/^Rate limit of 3 requests per minute exceeded; retry in (5\d|60) seconds\.$/) },
    });
    await expect(client(target, "query", KEYS.globex).contacts.find({ email: "a@example.com" })).resolves.toBeNull();
    // The limit counts real time: moving the virtual clock a day on opens no new window.
    await harness.admin("POST", "/clock/advance", { ms: 24 * 3600_000 });
    const later = await acme.contacts.find({ email: "a@example.com" }).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(RateLimitError);
    expect((later as RateLimitError).retryAfterMs).toBeGreaterThanOrEqual(59_000);
  });

  it.each(["real", "virtual"] as const)(
    "Retry-After is true under the %s clock: the client waits what it is told and is served, nobody advancing anything",
    async (clock) => {
      harness = await startHarness({ rateLimit: 2, rateLimitWindowMs: 2000, clock });
      const retries: number[] = [];
      const acme = client(httpsTarget(harness), "query", KEYS.acme, {
        maxRetries: 2,
        logger: (entry) => entry.event === "retry" && retries.push(entry.delayMs ?? 0),
      });
      const started = Date.now();
      for (let i = 0; i < 3; i++) await expect(acme.contacts.find({ email: "a@example.com" })).resolves.toBeNull();
      expect(retries).toHaveLength(1);
      expect(retries[0]).toBeGreaterThanOrEqual(1000);
      expect(retries[0]).toBeLessThanOrEqual(2000);
      expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]! - 50);
    },
  );

  it("a window shorter than a second is refused at start, naming the option", () => {
    expect(() => createIntake({ rateLimitWindowMs: 10 })).toThrow(
      "rateLimitWindowMs must be a whole number of milliseconds, 1000 or more (got 10).",
    );
  });

  it("the RateLimit-* headers are absent on a 401 and when the server runs without a limit", async () => {
    const rateHeaders = (response: Response) =>
      ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((h) => response.headers.get(h));
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
