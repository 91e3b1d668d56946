// The behaviour suite over real HTTPS, through the node adapter, with @intake/client calling.
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { SUITES } from "../behaviour/suites.js";
import { httpsTarget, startHarness, type HttpsHarness, type Target } from "../support/harness.js";

let harness: HttpsHarness;
const target = (): Target => httpsTarget(harness);

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(async () => {
  await harness.admin("POST", "/reset");
});

describe("over HTTPS", () => {
  for (const register of SUITES) register(target, { viaProxy: false });
});
