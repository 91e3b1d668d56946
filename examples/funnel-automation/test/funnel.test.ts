import { createIntakeClient } from "@intake/client";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intakeLead } from "../src/funnel.js";

const KEY = "ik_example_funnel_automation_1";
let server: IntakeTestServer;

beforeAll(async () => {
  server = await startIntakeServer({
    seed: {
      accounts: [
        {
          id: "acc_gym",
          name: "Acme Fitness",
          apiKey: KEY,
          credits: 10,
          campaigns: [
            {
              id: "cmp_spring",
              name: "Spring",
              type: "Combined",
              state: "Live",
              triggerOnNewListContacts: true,
              openingTemplate: { body: "Hi {{firstName}}, want a free class?", approval: "approved" },
            },
          ],
          lists: [{ id: "lst_spring", name: "Spring leads", campaignId: "cmp_spring" }],
        },
      ],
    },
  });
});
afterAll(() => server.stop());

describe("the automation platform's funnel step", () => {
  it("creates a new lead, adds it to the list, and the campaign sends its opening message; the same lead again changes nothing", async () => {
    const intake = createIntakeClient({ auth: "bearer", apiKey: KEY, baseUrl: server.baseUrl, fetch: server.fetch });
    const lead = { phone_number: "+1 (415) 555-0142", first_name: "Grace", email: "grace@example.com" };
    const first = await intakeLead(intake, "lst_spring", lead);
    expect(first).toMatchObject({ created: true, addedToList: true, contact: { phone: "+14155550142", firstName: "Grace" } });
    const again = await intakeLead(intake, "lst_spring", lead);
    expect(again).toMatchObject({ created: false, addedToList: false, contact: { id: first.contact.id } });

    await server.admin.settle();
    const { messages } = await server.admin.contact(first.contact.id);
    expect(messages.map((m) => [m.source, m.status, m.channel, m.body])).toEqual([
      ["opening", "sent", "messaging_app", "Hi Grace, want a free class?"],
    ]);
    // The request used the Bearer form with snake_case fields, as the platform sends them.
    const journal = await server.admin.journal({ operationId: "createContact" });
    expect(journal.map((e) => [e.authForm, Object.keys(e.requestBody as object)])).toEqual([
      ["bearer", ["phone_number", "first_name", "email"]],
    ]);
  });
});
