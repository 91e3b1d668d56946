// The same behaviour suite as https.test.ts, served by the msw handlers in this process.
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { admin } from "./behaviour/admin.js";
import { auth } from "./behaviour/auth.js";
import { contacts } from "./behaviour/contacts.js";
import { credits } from "./behaviour/credits.js";
import { faults } from "./behaviour/faults.js";
import { lists } from "./behaviour/lists.js";
import { messages } from "./behaviour/messages.js";
import { transport } from "./behaviour/transport.js";
import { startMswHarness, type Harness, type Target } from "./support/harness.js";

let harness: Harness;
const target = (): Target => ({ name: "msw", baseUrl: harness.baseUrl, viaProxy: false, clientFetch: (request) => fetch(request), harness });

beforeAll(async () => {
  harness = await startMswHarness();
});
afterAll(() => harness.close());
beforeEach(async () => {
  await harness.admin("POST", "/reset");
});

describe("through the msw handlers", () => {
  for (const register of [contacts, lists, messages, credits, auth, transport, admin, faults]) register(target, { viaProxy: false });
});
