import { ConnectionError, RateLimitError, ServerError, TimeoutError } from "@intake/client";
import { afterEach, describe, expect } from "vitest";
import { client } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

export const faults: Register = (target, options) => {
  const { direct } = cases(options);
  const set = (rules: unknown[]) => target().harness.admin("PUT", "/faults", rules);
  const acme = (extra = {}) => client(target(), "query", KEYS.acme, extra);
  afterEach(async () => {
    await target().harness.admin("DELETE", "/faults");
  });

  describe("fault injection", () => {
    direct("an error status, in the operation's shape, that a client's retries get through", async () => {
      const rules = await set([{ operationId: "findContact", status: 503, times: 2 }]);
      expect(rules.body).toEqual([
        expect.objectContaining({ id: expect.stringMatching(/^flt_/), operationId: "findContact", status: 503, remaining: 2 }),
      ]);
      await expect(acme().contacts.find({ email: "a@example.com" })).rejects.toMatchObject({
        constructor: ServerError,
        status: 503,
        code: "INTERNAL_ERROR",
      });
      // The client retries a GET after a 5xx: the second fault, then the real answer.
      await expect(
        acme({ maxRetries: 2, retry: { initialDelayMs: 1, maxDelayMs: 2 } }).contacts.find({ email: "a@example.com" }),
      ).resolves.toBeNull();
      const journal = (await target().harness.admin("GET", "/journal?operationId=findContact")).body;
      expect(journal.map((e: { status: number; fault: string | null }) => [e.status, e.fault !== null])).toEqual([
        [503, true],
        [503, true],
        [404, false],
      ]);
      expect((await target().harness.admin("GET", "/faults")).body[0].remaining).toBe(0);
    });

    direct("rules in order: the first status answers; a later one waits its turn without spending its times", async () => {
      await set([
        { operationId: "findContact", status: 503, times: 1 },
        { operationId: "findContact", status: 500, times: 1 },
      ]);
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          await acme()
            .contacts.find({ email: "a@example.com" })
            .then(
              () => 404,
              (e: { status: number }) => e.status,
            ),
        );
      expect(statuses).toEqual([503, 500, 404]);
      expect((await target().harness.admin("GET", "/faults")).body.map((r: { remaining: number }) => r.remaining)).toEqual([0, 0]);
    });

    direct("a forced 429 with Retry-After, in the receive endpoint's string shape too", async () => {
      await set([{ status: 429, retryAfter: 7 }]);
      const error = await acme()
        .messages.receive({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ code: undefined, retryAfterMs: 7000 });
      expect((await target().harness.admin("GET", "/messages")).body).toEqual([]);
    });

    direct("a dropped connection is a ConnectionError, and nothing is stored", async ({ skip }) => {
      skip(target().name === "worker", "a Worker always answers: it refuses drop rules (the Worker's own tests)");
      await set([{ operationId: "createContact", drop: true }]);
      await expect(acme().contacts.create({ phone: "+14155550123" })).rejects.toBeInstanceOf(ConnectionError);
      await target().harness.admin("DELETE", "/faults");
      expect((await target().harness.admin("GET", "/contacts")).body).toEqual([]);
    });

    direct(
      "when: after, the grant is applied and its answer fails: granted once, and an idempotencyKey retry does not double it",
      async () => {
        await set([{ operationId: "grantSubaccountCredits", status: 503, when: "after", times: 1 }]);
        const agency = client(target(), "header", KEYS.agency, { maxRetries: 2, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
        const grant = () =>
          agency.subaccounts.grantCredits({ email: "one@northwind.example", amount: 500 }, { idempotencyKey: "rch_lost" });
        // The client does not retry a grant after a 5xx: it may have been applied, and here it was.
        await expect(grant()).rejects.toMatchObject({
          constructor: ServerError,
          status: 503,
          message: expect.stringContaining("after the operation was applied"),
        });
        const balance = async () => (await target().harness.admin("GET", "/accounts/sub_one/credits")).body.balance;
        expect(await balance()).toBe(505);
        // The integration's own retry, with the same key, gets the first result and grants nothing more.
        await expect(grant()).resolves.toMatchObject({ credits_added: 500, new_balance: 505 });
        expect(await balance()).toBe(505);
        const journal = (await target().harness.admin("GET", "/journal?operationId=grantSubaccountCredits")).body;
        expect(journal.map((e: { status: number; fault: string | null }) => [e.status, e.fault !== null])).toEqual([
          [503, true],
          [200, false],
        ]);
      },
    );

    direct("when: after with a drop, the contact is stored and the client sees a lost connection", async ({ skip }) => {
      skip(target().name === "worker", "a Worker always answers: it refuses drop rules, after the effect too (the Worker's own tests)");
      await set([{ operationId: "createContact", drop: true, when: "after" }]);
      await expect(acme().contacts.create({ email: "lost@example.com" })).rejects.toBeInstanceOf(ConnectionError);
      await target().harness.admin("DELETE", "/faults");
      expect((await target().harness.admin("GET", "/contacts")).body).toEqual([expect.objectContaining({ email: "lost@example.com" })]);
    });

    direct("when: after on a request the operation refuses: the fault's answer says nothing was applied", async () => {
      await set([{ operationId: "grantSubaccountCredits", status: 503, when: "after", times: 1 }]);
      const agency = client(target(), "header", KEYS.agency);
      // No such sub-account: the operation answers 404, which the fault replaces.
      const error = await agency.subaccounts.grantCredits({ email: "nobody@northwind.example", amount: 500 }).catch((e: unknown) => e);
      expect(error).toMatchObject({
        constructor: ServerError,
        status: 503,
        message: expect.stringContaining("after the operation answered 404, nothing applied"),
      });
      expect((error as Error).message).not.toContain("was applied");
    });

    direct("when: after with a 429 is refused: a 429 tells a client to repeat the call, which would double the effect", async () => {
      const response = await set([{ operationId: "grantSubaccountCredits", status: 429, when: "after" }]);
      expect(response).toMatchObject({
        status: 400,
        body: { error: { message: expect.stringContaining("Fault rule 0 answers 429 after the operation") } },
      });
      expect((await target().harness.admin("GET", "/faults")).body).toEqual([]);
    });

    direct("when without a status or drop is refused", async () => {
      const response = await set([{ operationId: "createContact", latencyMs: 10, when: "after" }]);
      expect(response).toMatchObject({
        status: 400,
        body: { error: { message: expect.stringContaining("Fault rule 0 has when but no status or drop") } },
      });
      expect((await target().harness.admin("GET", "/faults")).body).toEqual([]);
    });

    direct("latency makes a client's timeout fire", async () => {
      await set([{ latencyMs: 300 }]);
      await expect(acme({ timeoutMs: 50 }).contacts.create({ email: "a@example.com" })).rejects.toBeInstanceOf(TimeoutError);
    });

    direct("a rate hits that fraction of requests", async () => {
      await set([{ operationId: "findContact", status: 500, rate: 0.5 }]);
      const outcomes = [];
      for (let i = 0; i < 200; i++)
        outcomes.push(
          await acme()
            .contacts.find({ email: "a@example.com" })
            .then(
              () => "ok",
              () => "fault",
            ),
        );
      const faulted = outcomes.filter((o) => o === "fault").length;
      expect(faulted).toBeGreaterThan(60);
      expect(faulted).toBeLessThan(140);
    });

    direct("a rule that does nothing is refused", async () => {
      const response = await set([{ operationId: "createContact", rate: 0.5 }]);
      expect(response).toMatchObject({
        status: 400,
        body: { error: { message: "Fault rule 0 does nothing: give it latencyMs, status or drop." } },
      });
    });
  });
};
