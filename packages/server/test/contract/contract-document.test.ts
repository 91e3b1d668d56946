// The contract where clients look for it: /v1/openapi.json and /v1/openapi.yaml answer the API's
// own description with no key, over HTTPS and through the msw handlers alike; plain HTTP is still
// refused, and another method is 405.
import { document } from "@intake/spec";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, startMswHarness, type Harness } from "../support/harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.each([
  ["over HTTPS", () => startHarness()],
  ["through the msw handlers", () => startMswHarness()],
])("the API's own OpenAPI document %s", (_, start) => {
  it("is served at /v1/openapi.json and /v1/openapi.yaml with no key: the contract itself", async () => {
    harness = await start();
    const json = await harness.fetch(`${harness.baseUrl}/openapi.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("content-type")).toBe("application/json");
    expect(await json.json()).toEqual(document);
    const yaml = await harness.fetch(`${harness.baseUrl}/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(parse(await yaml.text())).toEqual(document);
    const head = await harness.fetch(`${harness.baseUrl}/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("takes no other method, and asks no key of anyone: a key given is not even checked", async () => {
    harness = await start();
    const post = await harness.fetch(`${harness.baseUrl}/openapi.json`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await post.json()).error.code).toBe("METHOD_NOT_ALLOWED");
    const keyed = await harness.fetch(`${harness.baseUrl}/openapi.json?apiKey=not-a-key`);
    expect(keyed.status).toBe(200);
    expect(await keyed.json()).toEqual(document);
  });
});

describe("the API's own OpenAPI document over plain HTTP", () => {
  it("is refused like the rest of /v1: HTTPS only", async () => {
    const https = await startHarness();
    harness = https;
    const plain = await https.fetch(`${https.origin.replace("https://", "http://")}/v1/openapi.json`);
    expect(plain.status).toBe(400);
    expect((await plain.json()).error.code).toBe("HTTPS_REQUIRED");
  });
});
