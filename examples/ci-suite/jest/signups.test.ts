// The integration under jest, against the HTTPS server the global set-up started.
import { afterAll, beforeEach, describe, expect, it } from "@jest/globals";
import { createIntakeClient } from "@intake/client";
import { connectIntake, type IntakeConnection } from "@intake/server/connect";
import { onSignup } from "../src/signups.js";
import { API_KEY, LIST_ID, seed } from "../test/seed.js";

const intake = connectIntake(JSON.parse(process.env.INTAKE_CONNECTION!) as IntakeConnection);
const client = createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl: intake.baseUrl, fetch: intake.fetch });
beforeEach(() => intake.admin.reset(seed));
afterAll(() => intake.fetch.close());

describe("onSignup under jest", () => {
  it("sends a consenting sign-up as a lead and Intake sends the welcome message", async () => {
    const result = await onSignup(client, LIST_ID, { phone: "+14155550110", fullName: "Katherine Johnson", marketingConsent: true });
    expect(result).toMatchObject({ sent: true, newLead: true });
    await intake.admin.settle();
    const { contact, messages } = await intake.admin.contact((result as { contactId: string }).contactId);
    expect(contact).toMatchObject({ firstName: "Katherine", lastName: "Johnson" });
    expect(messages.map((m) => m.body)).toEqual(["Welcome, Katherine!"]);
  });

  it("sends nothing without consent", async () => {
    await onSignup(client, LIST_ID, { phone: "+14155550111", fullName: "Dorothy", marketingConsent: false });
    expect(await intake.admin.journal()).toEqual([]);
  });
});
