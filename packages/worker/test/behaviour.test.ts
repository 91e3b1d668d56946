// The server's behaviour suites (the same as over HTTPS and through msw) against a hosted sandbox:
// the Worker's bundle in workerd, a sandbox created through the operator API from the suites' seed.
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { SUITES } from "../../server/test/behaviour/suites.js";
import { SEED } from "../../server/test/support/seed.js";
import type { Target } from "../../server/test/support/harness.js";
import { createSandbox, sandboxTarget, startWorker, type LocalWorker } from "./support/worker.js";

let worker: LocalWorker;
let target: Target;

beforeAll(async () => {
  worker = await startWorker();
  // The suites name their keys: the sandbox keeps those its seed gives.
  target = sandboxTarget(worker, await createSandbox(worker, { name: "suites", seed: SEED, keepSeedSecrets: true }));
});
afterAll(() => worker?.stop());
beforeEach(async () => {
  await target.harness.admin("POST", "/reset");
});

describe("in a hosted sandbox (the Worker in workerd)", () => {
  for (const register of SUITES) register(() => target, { viaProxy: false });
});
