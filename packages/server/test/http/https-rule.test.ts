// HTTPS: the client talks only HTTPS to the server, trusting its certificate; behind a
// TLS-terminating proxy X-Forwarded-Proto counts only when the server trusts it.
import { createIntakeClient } from "@intake/client";
import { afterEach, describe, expect, it } from "vitest";
import { httpsTarget, json, raw, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the client over HTTPS", () => {
  it("refuses to talk plain HTTP to it, and trusts it only with its certificate", async () => {
    harness = await startHarness();
    expect(() =>
      createIntakeClient({ auth: "query", apiKey: KEYS.acme, baseUrl: harness!.server.baseUrl.replace("https", "http") }),
    ).toThrow(/Refusing the http:\/\/ base URL/);
    const untrusting = createIntakeClient({ auth: "query", apiKey: KEYS.acme, baseUrl: harness.server.baseUrl, maxRetries: 0 });
    await expect(untrusting.contacts.find({ email: "a@example.com" })).rejects.toMatchObject({
      name: "ConnectionError",
      code: "DEPTH_ZERO_SELF_SIGNED_CERT",
    });
  });
});

describe("behind a TLS-terminating proxy", () => {
  it("X-Forwarded-Proto: https counts only when the server trusts it", async () => {
    const request = () =>
      raw(httpsTarget(harness!), `/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, {
        scheme: "http",
        headers: { "x-forwarded-proto": "https" },
      });
    harness = await startHarness();
    expect((await json(await request())).body.error.code).toBe("HTTPS_REQUIRED");
    await harness.close();
    harness = await startHarness({ trustForwardedProto: true });
    expect((await request()).status).toBe(404);
  });
});
