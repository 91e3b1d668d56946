// The behaviour suite over real HTTPS, through the node adapter, with @intake/client calling.
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { admin } from "./behaviour/admin.js";
import { auth } from "./behaviour/auth.js";
import { contacts } from "./behaviour/contacts.js";
import { credits } from "./behaviour/credits.js";
import { faults } from "./behaviour/faults.js";
import { lists } from "./behaviour/lists.js";
import { messages } from "./behaviour/messages.js";
import { transport } from "./behaviour/transport.js";
import { startHarness, type HttpsHarness, type Target } from "./support/harness.js";

let harness: HttpsHarness;
const target = (): Target => ({ name: "https", baseUrl: harness.server.baseUrl, viaProxy: false, clientFetch: (request) => harness.fetch(request), harness });

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.close());
beforeEach(async () => {
  await harness.admin("POST", "/reset");
});

describe("over HTTPS", () => {
  for (const register of [contacts, lists, messages, credits, auth, transport, admin, faults]) register(target, { viaProxy: false });
});
