// Intake in-process as msw handlers: no port, no certificate. State lives in this test file.
import { createAdminClient } from "@intake/server/testing";
import { createIntakeHandlers } from "@intake/server/msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll } from "vitest";
import { signupCases } from "./cases.js";
import { seed } from "./seed.js";

const mock = createIntakeHandlers({ seed, adminToken: "adm_ci_suite_msw" });
const server = setupServer(...mock.handlers);
// Anything the integration calls that is not Intake fails the test instead of reaching the network.
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(async () => {
  server.close();
  await mock.intake.close();
});

signupCases(() => ({ baseUrl: mock.baseUrl, admin: createAdminClient({ adminUrl: mock.adminUrl, token: "adm_ci_suite_msw" }) }));
