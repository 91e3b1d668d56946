import { describe, expect } from "vitest";
import { client, json, raw } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

export const credits: Register = (target, options) => {
  const { it, direct } = cases(options);
  const agency = () => client(target(), "header", KEYS.agency);
  const creditsOf = async (id: string) => (await target().harness.admin("GET", `/accounts/${id}/credits`)).body;

  describe("POST /subaccounts/credits", () => {
    it("grants credits: success, sub_account_id, credits_added, new_balance, and a described transaction", async () => {
      const result = await agency().subaccounts.grantCredits({
        email: "one@northwind.example",
        amount: 500,
        description: "Auto-recharge after payment pi_1",
      });
      expect(result).toEqual({ success: true, sub_account_id: "sub_one", credits_added: 500, new_balance: 505 });
      const history = await creditsOf("sub_one");
      expect(history.balance).toBe(505);
      expect(history.transactions.at(-1)).toMatchObject({
        amount: 500,
        balanceAfter: 505,
        description: "Auto-recharge after payment pi_1",
        source: "agency_grant",
      });
    });

    it("without a description, the history says who granted", async () => {
      await agency().subaccounts.grantCredits({ email: "two@northwind.example", amount: 1.5 });
      expect((await creditsOf("sub_two")).transactions.at(-1)).toMatchObject({ amount: 1.5, description: "Credits granted by Northwind" });
    });

    it("the email matches without regard to case", async () => {
      await expect(agency().subaccounts.grantCredits({ email: "ONE@Northwind.example", amount: 1 })).resolves.toMatchObject({
        sub_account_id: "sub_one",
      });
    });

    it("a standard account is 403 NOT_AGENCY", async () => {
      await expect(
        client(target(), "header", KEYS.acme).subaccounts.grantCredits({ email: "one@northwind.example", amount: 1 }),
      ).rejects.toMatchObject({
        status: 403,
        code: "NOT_AGENCY",
        message: "Only agency accounts can grant credits to sub-accounts; this key belongs to a standard account.",
      });
    });

    it("an email that is no sub-account of this agency is 404 SUBACCOUNT_NOT_FOUND, even another agency's", async () => {
      for (const email of ["nobody@northwind.example", "foreign@other.example"]) {
        await expect(agency().subaccounts.grantCredits({ email, amount: 1 })).rejects.toMatchObject({
          status: 404,
          code: "SUBACCOUNT_NOT_FOUND",
          message: `No sub-account of this agency has the email ${email}.`,
        });
      }
      expect((await creditsOf("sub_foreign")).balance).toBe(0);
    });

    it("credits are kept to 6 decimal places", async () => {
      await expect(agency().subaccounts.grantCredits({ email: "one@northwind.example", amount: 0.000001 })).resolves.toMatchObject({
        credits_added: 0.000001,
        new_balance: 5.000001,
      });
      await expect(agency().subaccounts.grantCredits({ email: "one@northwind.example", amount: 0.1234567 })).rejects.toMatchObject({
        code: "INVALID_AMOUNT",
        message: "amount must be a positive number of credits with at most 6 decimal places, at most 1000000000.",
      });
      const history = await creditsOf("sub_one");
      expect(history.transactions.reduce((sum: number, t: { amount: number }) => sum + t.amount, 0)).toBeCloseTo(history.balance, 9);
    });

    direct("a missing email or amount is 400 naming the field, and grants nothing", async () => {
      for (const [body, message] of [
        [{ amount: 1 }, "email is required."],
        [{ email: "one@northwind.example" }, "amount is required."],
      ] as const) {
        await expect(agency().subaccounts.grantCredits(body as never)).rejects.toMatchObject({
          status: 400,
          code: "VALIDATION_ERROR",
          message,
        });
      }
      expect((await creditsOf("sub_one")).balance).toBe(5);
    });

    direct.each([0, -5, "5", 1e10, 1e-7])("amount %o is 400 INVALID_AMOUNT and grants nothing", async (amount) => {
      await expect(agency().subaccounts.grantCredits({ email: "one@northwind.example", amount: amount as number })).rejects.toMatchObject({
        status: 400,
        code: "INVALID_AMOUNT",
      });
      expect((await creditsOf("sub_one")).balance).toBe(5);
    });

    it("the same Idempotency-Key and body grants once and answers the first result again", async () => {
      const first = await agency().raw.POST("/subaccounts/credits", {
        params: { header: { "Idempotency-Key": "rch_001" } },
        body: { email: "one@northwind.example", amount: 500 },
      });
      const again = await agency().raw.POST("/subaccounts/credits", {
        params: { header: { "Idempotency-Key": "rch_001" } },
        body: { amount: 500, email: "one@northwind.example" },
      });
      expect(again.data).toEqual(first.data);
      expect(again.response.headers.get("idempotent-replayed")).toBe("true");
      expect(first.response.headers.get("idempotent-replayed")).toBeNull();
      expect((await creditsOf("sub_one")).balance).toBe(505);
      expect((await creditsOf("sub_one")).transactions.at(-1)).toMatchObject({ idempotencyKey: "rch_001" });
    });

    direct("an Idempotency-Key with a comma (two headers joined) is 400", async () => {
      await expect(
        agency().subaccounts.grantCredits({ email: "one@northwind.example", amount: 1 }, { idempotencyKey: "k1, k2" }),
      ).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        message: expect.stringContaining("Header Idempotency-Key"),
      });
      expect((await creditsOf("sub_one")).balance).toBe(5);
    });

    direct("the same Idempotency-Key with a different body is 400 IDEMPOTENCY_KEY_REUSED", async () => {
      await agency().subaccounts.grantCredits({ email: "one@northwind.example", amount: 500 }, { idempotencyKey: "rch_002" });
      await expect(
        agency().subaccounts.grantCredits({ email: "one@northwind.example", amount: 50 }, { idempotencyKey: "rch_002" }),
      ).rejects.toMatchObject({
        code: "IDEMPOTENCY_KEY_REUSED",
      });
      expect((await creditsOf("sub_one")).balance).toBe(505);
    });

    it("keys are per agency: another agency's same key is its own grant", async () => {
      await agency().subaccounts.grantCredits({ email: "one@northwind.example", amount: 1 }, { idempotencyKey: "shared" });
      await client(target(), "header", KEYS.otherAgency).subaccounts.grantCredits(
        { email: "foreign@other.example", amount: 1 },
        { idempotencyKey: "shared" },
      );
      expect((await creditsOf("sub_foreign")).balance).toBe(1);
    });

    direct("the key in the query or as Bearer is 401 WRONG_AUTH_FORM naming the header", async () => {
      const body = JSON.stringify({ email: "one@northwind.example", amount: 1 });
      const query = await json(
        await raw(target(), `/subaccounts/credits?apiKey=${KEYS.agency}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      );
      expect(query).toMatchObject({
        status: 401,
        body: {
          error: {
            code: "WRONG_AUTH_FORM",
            message:
              "POST /subaccounts/credits takes the API key as the header x-api-key: <API_KEY>, not as the query parameter ?apiKey=<API_KEY>. Remove apiKey from the query.",
          },
        },
      });
      const bearer = await json(
        await raw(target(), "/subaccounts/credits", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${KEYS.agency}` },
          body,
        }),
      );
      expect(bearer.body.error.code).toBe("WRONG_AUTH_FORM");
      expect((await creditsOf("sub_one")).balance).toBe(5);
    });
  });
};
