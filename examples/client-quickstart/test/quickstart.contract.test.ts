// The quickstart against `prism mock openapi.yaml`: every call it makes is valid under the contract.
import { describe, expect, inject, it } from "vitest";
import { quickstart } from "../src/quickstart.js";

describe("client quickstart", () => {
  it("runs its three auth forms against the contract", async () => {
    const result = await quickstart({
      baseUrl: inject("prismUrl").replace(/\/v1$/, ""),
      apiKey: "ik_test_regular",
      agencyKey: "ik_test_agency",
      listId: "lst_Funnel2026",
      subaccountEmail: "client-one@agency.example",
      allowInsecureLoopback: true,
    });
    expect(result.contact.id).toMatch(/^ct_/);
    expect(result.membership.success).toBe(true);
    expect(result.received.messageId).toMatch(/^msg_/);
    expect(result.grant).toMatchObject({ success: true, credits_added: 500 });
  });
});
