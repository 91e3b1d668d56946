// The quickstart against the reference server over HTTPS, with the demo seed.
import { DEMO_SEED } from "@intake/server/node";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoConfig } from "../src/demo-config.js";
import { quickstart } from "../src/quickstart.js";

let server: IntakeTestServer;
beforeAll(async () => {
  server = await startIntakeServer({ seed: DEMO_SEED });
});
afterAll(() => server.stop());

describe("client quickstart against the reference server", () => {
  it("creates the lead, adds it to the list, hands over a message and grants credits once per idempotency key", async () => {
    const config = demoConfig(server);
    const first = await quickstart(config);
    expect(first.contact).toMatchObject({ phone: "+14155550123", firstName: "Ada" });
    expect(first.membership).toMatchObject({ success: true, added: true });
    expect(first.grant).toMatchObject({ success: true, sub_account_id: "sub_client_one", credits_added: 500, new_balance: 542 });

    // Run again: the lead is found, not duplicated; the grant's idempotency key returns the first grant.
    const again = await quickstart(config);
    expect(again.contact.id).toBe(first.contact.id);
    expect(again.membership).toMatchObject({ added: false });
    expect(again.grant).toEqual(first.grant);
    expect((await server.admin.account("sub_client_one")).credits).toBe(542);
    expect((await server.admin.messages({ direction: "inbound" })).map((m) => m.body)).toEqual([
      "Is the offer still on?",
      "Is the offer still on?",
    ]);
  });
});
