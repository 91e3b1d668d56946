import { createIntakeClient, IntakeConfigError } from "@intake/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_KEY, BASE_URL, contact } from "./support/fixtures.js";

describe("base URL", () => {
  it("refuses http:// with a clear error", () => {
    expect(() => createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl: "http://api.intake.test/v1" })).toThrow(
      /Refusing the http:\/\/ base URL http:\/\/api\.intake\.test: the service accepts HTTPS only, and the API key would travel in clear/,
    );
  });

  it("refuses http:// to a remote host even with allowInsecureLoopback", () => {
    expect(() =>
      createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl: "http://10.0.0.5:4010/v1", allowInsecureLoopback: true }),
    ).toThrow(IntakeConfigError);
  });

  it("allows http:// on loopback only when asked, for stateless mocks", () => {
    expect(() => createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl: "http://127.0.0.1:4010" })).toThrow(
      /allowInsecureLoopback: true/,
    );
    for (const baseUrl of ["http://127.0.0.1:4010", "http://localhost:4010/v1", "http://[::1]:4010"]) {
      expect(createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl, allowInsecureLoopback: true }).baseUrl).toBe(baseUrl);
    }
  });

  it.each([
    ["https://api.intake.test", /must end with the version segment \/v1: did you mean https:\/\/api\.intake\.test\/v1\?/],
    [
      "https://api.intake.test/v2",
      /ends in \/v2, a version this client does not speak: it supports \/v1 only\. Use https:\/\/api\.intake\.test\/v1\.$/,
    ],
    ["https://api.intake.test/api/v10/", /ends in \/v10[^]*Use https:\/\/api\.intake\.test\/api\/v1\.$/],
    ["not a url", /is not a URL/],
    ["ftp://api.intake.test/v1", /must use https:\/\//],
    [`https://api.intake.test/v1?apiKey=${API_KEY}`, /must not carry credentials, a query or a fragment/],
  ])("rejects %s", (baseUrl, message) => {
    expect(() => createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl })).toThrow(message);
  });

  it("trims a trailing slash", () => {
    expect(createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl: `${BASE_URL}/` }).baseUrl).toBe(BASE_URL);
  });
});

describe("key and auth form", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("requires a key and says where to get one", () => {
    vi.stubEnv("INTAKE_API_KEY", "");
    expect(() => createIntakeClient({ auth: "query", baseUrl: BASE_URL })).toThrow(
      /API key is required: pass apiKey or set INTAKE_API_KEY/,
    );
    expect(() => createIntakeClient({ auth: "query", apiKey: "  ", baseUrl: BASE_URL })).toThrow(IntakeConfigError);
  });

  it("reads INTAKE_API_KEY and INTAKE_BASE_URL when not passed", async () => {
    vi.stubEnv("INTAKE_API_KEY", API_KEY);
    vi.stubEnv("INTAKE_BASE_URL", BASE_URL);
    const seen: Request[] = [];
    const intake = createIntakeClient({ auth: "query", fetch: async (r) => (seen.push(r), Response.json(contact, { status: 201 })) });
    await intake.contacts.create({ email: "a@example.com" });
    expect(new URL(seen[0]!.url).searchParams.get("apiKey")).toBe(API_KEY);
    expect(seen[0]!.url.startsWith(`${BASE_URL}/contacts`)).toBe(true);
  });

  it("rejects an unknown auth form", () => {
    expect(() => createIntakeClient({ auth: "cookie" as "query", apiKey: API_KEY, baseUrl: BASE_URL })).toThrow(
      /auth must be one of "query", "header" or "bearer"/,
    );
  });

  it.each([
    [{ timeoutMs: 0 }, /timeoutMs must be a positive number/],
    [{ maxRetries: -1 }, /maxRetries must be a whole number/],
    [{ maxRetries: 1.5 }, /maxRetries must be a whole number/],
    [{ retry: { initialDelayMs: Number.NaN } }, /retry\.initialDelayMs must be a positive number/],
  ])("rejects bad numbers %o", (extra, message) => {
    expect(() => createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl: BASE_URL, ...extra })).toThrow(message);
  });
});

describe("custom fetch", () => {
  it("is used for every request, receiving a standard Request", async () => {
    const seen: Request[] = [];
    const intake = createIntakeClient({
      auth: "bearer",
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      fetch: async (request) => {
        seen.push(request);
        return Response.json(contact, { status: 201 });
      },
    });
    await expect(intake.contacts.create({ email: "a@example.com" })).resolves.toEqual(contact);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Request);
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });

  it("the client exposes which form it is and the raw client", () => {
    const intake = createIntakeClient({ auth: "header", apiKey: API_KEY, baseUrl: BASE_URL });
    expect(intake.auth).toBe("header");
    expect(typeof intake.raw.POST).toBe("function");
    expect(Object.keys(intake).sort()).toEqual(["auth", "baseUrl", "raw", "subaccounts"]);
  });
});
