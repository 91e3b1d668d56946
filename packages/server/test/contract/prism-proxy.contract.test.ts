// The contract check: the behaviour suite's valid requests go through `prism proxy openapi.yaml
// <server> --errors`, which validates every request and response against the contract and
// answers with an error of its own for any violation, so a response that breaks the spec fails here.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SPEC, startPrism, type Prism } from "../../../../test-support/prism.js";
import { SUITES_VIA_PROXY } from "../behaviour/suites.js";
import { startHarness, type HttpsHarness, type Target } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness;
let prism: Prism;
const target = (): Target => ({
  name: "prism proxy",
  baseUrl: prism.url,
  viaProxy: true,
  clientFetch: (request) => fetch(request),
  harness,
});

beforeAll(async () => {
  harness = await startHarness();
  // prism is a Node process: it trusts the server's generated certificate this way.
  prism = await startPrism(["proxy", SPEC, harness.server.baseUrl, "--errors"], { NODE_EXTRA_CA_CERTS: harness.server.certificatePath });
});
afterAll(async () => {
  await prism?.stop();
  await harness?.close();
});
beforeEach(async () => {
  await harness.admin("POST", "/reset");
});

describe("through prism proxy --errors", () => {
  it("the proxy is really checking: a response that breaks the contract is refused", async () => {
    // A request the contract forbids (no key) is stopped by prism itself, not answered by the server.
    const response = await fetch(`${prism.url}/contacts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"phone":"+14155550123"}',
    });
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/stoplight\.io\/prism\/errors#UNAUTHORIZED/);
    const journal = await harness.admin("GET", "/journal");
    expect(journal.body).toHaveLength(0);
    const ok = await fetch(`${prism.url}/contacts?apiKey=${KEYS.acme}&email=a%40example.com`);
    expect(ok.status).toBe(404);
    expect(await ok.json()).toEqual({ error: { code: "CONTACT_NOT_FOUND", message: "No contact with email a@example.com." } });
  });

  for (const register of SUITES_VIA_PROXY) register(target, { viaProxy: true });
});
