/**
 * The integration's tests, written once and run against both ways of having Intake in CI: the
 * msw handlers (msw.test.ts) and the HTTPS server (https.test.ts). Each case starts from the
 * seed: `admin.reset()` puts it back.
 */
import { BadRequestError, createIntakeClient, type FetchFn } from "@intake/client";
import type { AdminClient } from "@intake/server/connect";
import { beforeEach, describe, expect, it } from "vitest";
import { onSignup } from "../src/signups.js";
import { API_KEY, LIST_ID } from "./seed.js";

export interface IntakeUnderTest {
  baseUrl: string;
  /** The HTTPS server's fetch trusts its certificate; with msw the global fetch is intercepted. */
  fetch?: FetchFn;
  admin: AdminClient;
}

export function signupCases(connect: () => IntakeUnderTest) {
  let intake: IntakeUnderTest;
  const client = () => createIntakeClient({ auth: "query", apiKey: API_KEY, baseUrl: intake.baseUrl, fetch: intake.fetch });

  beforeEach(async () => {
    intake = connect();
    await intake.admin.reset();
  });

  describe("onSignup", () => {
    it("sends a consenting sign-up as a lead: contact created, name split, added to the list, welcome message sent", async () => {
      const result = await onSignup(client(), LIST_ID, {
        phone: "+1 415 555 0100",
        fullName: "Ada King Lovelace",
        email: "ada@example.com",
        marketingConsent: true,
      });
      expect(result).toMatchObject({ sent: true, newLead: true });

      await intake.admin.settle();
      const { contact, messages } = await intake.admin.contact((result as { contactId: string }).contactId);
      expect(contact).toMatchObject({ phone: "+14155550100", firstName: "Ada", lastName: "King Lovelace", email: "ada@example.com" });
      expect(messages.map((m) => [m.source, m.status, m.body])).toEqual([["opening", "sent", "Welcome, Ada!"]]);
    });

    it("sends nothing without marketing consent", async () => {
      expect(await onSignup(client(), LIST_ID, { phone: "+14155550101", fullName: "Alan", marketingConsent: false })).toEqual({
        sent: false,
        reason: "no marketing consent",
      });
      expect(await intake.admin.contacts({ accountId: "acc_shop" })).toEqual([]);
      expect(await intake.admin.journal()).toEqual([]);
    });

    it("treats a repeat sign-up as the same lead: one contact, one welcome message", async () => {
      const signup = { phone: "+14155550102", fullName: "Grace Hopper", marketingConsent: true };
      const first = await onSignup(client(), LIST_ID, signup);
      const again = await onSignup(client(), LIST_ID, signup);
      expect(again).toEqual({ sent: true, contactId: (first as { contactId: string }).contactId, newLead: false });
      await intake.admin.settle();
      expect(await intake.admin.messages({ accountId: "acc_shop" })).toHaveLength(1);
    });

    it("gets through a rate limit: Intake answers 429 once, the client waits and retries", async () => {
      await intake.admin.setFaults([{ operationId: "createContact", status: 429, retryAfter: 0, times: 1 }]);
      expect(await onSignup(client(), LIST_ID, { phone: "+14155550103", fullName: "Edsger", marketingConsent: true })).toMatchObject({
        sent: true,
        newLead: true,
      });
      const attempts = await intake.admin.journal({ operationId: "createContact" });
      expect(attempts.map((e) => e.status)).toEqual([429, 201]);
    });

    it("surfaces a phone Intake cannot use as a BadRequestError, and nothing is stored", async () => {
      const failure = onSignup(client(), LIST_ID, { phone: "not a phone", fullName: "Nobody", marketingConsent: true });
      await expect(failure).rejects.toBeInstanceOf(BadRequestError);
      await expect(failure).rejects.toMatchObject({ status: 400, code: "INVALID_PHONE" });
      expect(await intake.admin.contacts({ accountId: "acc_shop" })).toEqual([]);
    });
  });
}
