// The same behaviour suite as https.test.ts, served by the msw handlers in this process.
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { SUITES } from "../behaviour/suites.js";
import { startMswHarness, type Harness, type Target } from "../support/harness.js";

let harness: Harness;
const target = (): Target => ({
  name: "msw",
  baseUrl: harness.baseUrl,
  viaProxy: false,
  clientFetch: (request) => fetch(request),
  harness,
});

beforeAll(async () => {
  harness = await startMswHarness();
});
afterAll(() => harness.close());
beforeEach(async () => {
  await harness.admin("POST", "/reset");
});

describe("through the msw handlers", () => {
  for (const register of SUITES) register(target, { viaProxy: false });
});
