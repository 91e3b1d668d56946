// Deleting a contact, a list or a campaign through the admin API (its typed client), and setting a
// balance: what each deletion takes with it, so that nothing left names the record, no later
// request trips on it, and the state saved (a snapshot) restores as it is.
import { createAdminClient } from "@intake/server/admin-client";
import { describe, expect } from "vitest";
import { client, type Target } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

const PHONES = ["+14155550141", "+14155550142", "+14155550143", "+14155550144", "+14155550145"];

export const deleting: Register = (target, options) => {
  const { it, direct } = cases(options);
  const adminOf = (t: Target) =>
    createAdminClient({ adminUrl: t.harness.adminUrl, token: t.harness.adminToken, fetch: (request) => t.harness.fetch(request) });
  const call = (method: string, path: string, body?: unknown) => target().harness.admin(method, path, body);

  /**
   * cmp_acme goes Live with its trigger, an approved opening and follow-ups; five contacts are
   * imported into its list lst_acme at once: the first gets its opening now (and a follow-up is
   * scheduled a day later), the other four wait in the campaign's queue.
   */
  async function funnel() {
    const admin = adminOf(target());
    await admin.updateCampaign("cmp_acme", {
      state: "Live",
      triggerOnNewListContacts: true,
      openingTemplate: { body: "Hi {{firstName}}", approval: "approved" },
      followUps: { enabled: true },
    });
    const imported = await admin.importContacts("lst_acme", {
      source: "import",
      contacts: PHONES.map((phone, i) => ({ phone, firstName: `Lead${i}` })),
    });
    await admin.settle();
    const [first, ...queued] = imported.contactIds;
    return { admin, first: first!, queued };
  }

  /** Every stored record, as text: a deleted record's id must be in none of them. */
  const stored = async () => JSON.stringify((await adminOf(target()).snapshot()).records);

  describe("deleting (admin API)", () => {
    it("a contact: its conversation, list memberships, alerts and pending work go with it; /v1 knows it no more", async () => {
      const { admin, first } = await funnel();
      const acme = client(target(), "query", KEYS.acme);
      expect((await admin.jobs()).some((job) => job.kind === "follow_up" && job.contact?.id === first)).toBe(true);
      // A custom-channel lead writes in: the bot answers on the webhook (which has nowhere to go), then hands off.
      const written = await acme.messages.receive({
        customData: { messageSid: "SM-del-1", fromId: "lead-del", toId: "page", body: "Hello" },
      });
      await acme.messages.receive({ customData: { messageSid: "SM-del-2", fromId: "lead-del", toId: "page", body: "talk to a human" } });
      await admin.settle();
      const lead = (await admin.message(written.messageId)).contactId;
      expect((await admin.contact(lead)).messages.length).toBeGreaterThan(1);
      expect((await admin.contact(lead)).alerts.length).toBe(1);
      expect((await admin.deliveries({ contactId: lead })).length).toBeGreaterThan(0);
      const members = (await admin.lists("acc_acme")).find((list) => list.id === "lst_acme")!.memberCount;

      for (const id of [first, lead]) await expect(admin.deleteContact(id)).resolves.toBeUndefined();

      for (const id of [first, lead]) {
        await expect(admin.contact(id)).rejects.toMatchObject({ status: 404, code: "NOT_FOUND", message: `No contact with id ${id}.` });
        expect(await admin.messages({ contactId: id })).toEqual([]);
        expect(await admin.deliveries({ contactId: id })).toEqual([]);
        expect((await admin.jobs()).filter((job) => job.contact?.id === id)).toEqual([]);
        expect(await stored()).not.toContain(id);
      }
      expect((await admin.alerts("acc_acme")).filter((alert) => alert.contact?.id === lead)).toEqual([]);
      expect((await admin.lists("acc_acme")).find((list) => list.id === "lst_acme")!.memberCount).toBe(members - 1);
      // The account's credit history still adds up to its balance.
      const credits = await admin.credits("acc_acme");
      expect(credits.transactions.reduce((sum, t) => sum + t.amount, 0)).toBeCloseTo(credits.balance, 6);
      // /v1: a lookup is 404, the same sid is a new message from a new contact.
      await expect(acme.contacts.find({ phoneNumber: PHONES[0]! })).resolves.toBeNull();
      const again = await acme.messages.receive({
        customData: { messageSid: "SM-del-1", fromId: "lead-del", toId: "page", body: "Hello again" },
      });
      expect(again).not.toMatchObject({ duplicate: true });
      expect((await admin.message(again.messageId)).contactId).not.toBe(lead);
      // The state saved now loads as it is.
      await expect(admin.restore(await admin.snapshot())).resolves.toMatchObject({ contacts: 5 });
      await expect(admin.deleteContact(first)).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
    });

    it("a list: its memberships and the openings still queued for them go; its contacts and campaign stay", async () => {
      const { admin, first, queued } = await funnel();
      expect(
        (await admin.jobs())
          .filter((job) => job.kind === "opening")
          .map((job) => job.contact?.id)
          .sort(),
      ).toEqual([...queued].sort());
      await admin.deleteList("lst_acme");
      await expect(admin.members("lst_acme")).rejects.toMatchObject({
        status: 404,
        code: "NOT_FOUND",
        message: "No list with id lst_acme.",
      });
      expect((await admin.jobs()).filter((job) => job.kind === "opening")).toEqual([]);
      // The first lead's opening was sent: its follow-up goes on, as do the contacts and the campaign.
      expect((await admin.jobs()).some((job) => job.kind === "follow_up" && job.contact?.id === first)).toBe(true);
      for (const id of [first, ...queued]) expect((await admin.contact(id)).listIds).toEqual([]);
      await expect(admin.campaigns("acc_acme")).resolves.toContainEqual(expect.objectContaining({ id: "cmp_acme" }));
      expect(await stored()).not.toContain('lst_acme"');
      const acme = client(target(), "query", KEYS.acme);
      await expect(acme.lists.addContact("lst_acme", { contactId: first })).rejects.toMatchObject({ status: 404, code: "LIST_NOT_FOUND" });
    });

    it("a list on which a member is also on another list of the same campaign keeps that member's queued opening", async () => {
      const admin = adminOf(target());
      const second = await admin.createList({ accountId: "acc_acme", name: "Second", campaignId: "cmp_acme" });
      const { queued } = await funnel();
      await admin.importContacts(second.id, { source: "manual", contactIds: [queued[0]!] });
      await admin.deleteList("lst_acme");
      expect((await admin.jobs()).filter((job) => job.kind === "opening").map((job) => job.contact?.id)).toEqual([queued[0]]);
    });

    it("a campaign: lists unlinked, the default cleared, no record names it, its openings and follow-ups cancelled", async () => {
      const { admin, first } = await funnel();
      expect((await admin.contact(first)).contact.campaignId).toBe("cmp_acme");
      await admin.deleteCampaign("cmp_acme");
      await expect(admin.campaigns("acc_acme")).resolves.toEqual([]);
      await expect(admin.deleteCampaign("cmp_acme")).rejects.toMatchObject({
        status: 404,
        code: "NOT_FOUND",
        message: "No campaign with id cmp_acme.",
      });
      expect((await admin.lists("acc_acme")).find((list) => list.id === "lst_acme")).toMatchObject({ campaignId: null, memberCount: 5 });
      expect((await admin.account("acc_acme")).defaultCampaignId).toBeNull();
      expect((await admin.contact(first)).contact.campaignId).toBeNull();
      expect((await admin.jobs()).filter((job) => job.kind === "opening" || job.kind === "follow_up")).toEqual([]);
      expect(await stored()).not.toContain("cmp_acme");
      // /v1 after: the campaign is unknown, and a message with none to route it to is answered by no bot.
      const acme = client(target(), "query", KEYS.acme);
      await expect(
        acme.messages.receive({ customData: { messageSid: "SM-del-4", fromId: "x", toId: "y", body: "Hi", campaignId: "cmp_acme" } }),
      ).rejects.toMatchObject({ status: 404 });
      const written = await acme.messages.receive({ customData: { messageSid: "SM-del-3", fromId: "x", toId: "y", body: "Hi" } });
      await admin.settle();
      expect((await admin.message(written.messageId)).botOutcome).toBe("no_campaign");
      // A new campaign becomes the default again.
      const next = await admin.createCampaign({ accountId: "acc_acme", name: "Next" });
      expect((await admin.account("acc_acme")).defaultCampaignId).toBe(next.id);
    });

    it("unknown ids are 404 in the admin shape", async () => {
      for (const path of ["/contacts/ct_nope", "/lists/lst_nope", "/campaigns/cmp_nope"]) {
        const answer = await call("DELETE", path);
        expect(answer).toMatchObject({
          status: 404,
          body: { error: { code: "NOT_FOUND", message: expect.stringMatching(/^No (contact|list|campaign) with id \w+_nope\.$/) } },
        });
      }
    });

    it("credits set to a balance: one transaction of the difference, none when it has it; no credits stops the bot", async () => {
      const admin = adminOf(target());
      const zero = await admin.setCredits("acc_acme", 0, "Rehearse no credits");
      expect(zero.balance).toBe(0);
      expect(zero.transactions.at(-1)).toMatchObject({
        amount: -100,
        balanceAfter: 0,
        source: "admin",
        description: "Rehearse no credits",
      });
      expect((await admin.setCredits("acc_acme", 0)).transactions).toHaveLength(zero.transactions.length);
      expect((await admin.setCredits("acc_acme", 12.5)).transactions.at(-1)).toMatchObject({
        amount: 12.5,
        balanceAfter: 12.5,
        description: "Balance set to 12.5",
      });
      await admin.setCredits("acc_acme", 0);
      await admin.updateCampaign("cmp_acme", { state: "Live" });
      const acme = client(target(), "query", KEYS.acme);
      const written = await acme.messages.receive({
        customData: { messageSid: "SM-credits", fromId: "broke", toId: "page", body: "Hello?" },
      });
      await admin.settle();
      expect((await admin.message(written.messageId)).botOutcome).toBe("no_credits");
    });

    direct("credits: amount and balance together, neither, or a balance out of range is 400, and the balance stays", async () => {
      for (const [body, message] of [
        [
          { amount: 1, balance: 2 },
          "Send either amount (credits to add, or remove when negative) or balance (the balance to set), not both.",
        ],
        [
          { description: "nothing" },
          "Send either amount (credits to add, or remove when negative) or balance (the balance to set), not both.",
        ],
        [{ balance: -1 }, "balance must be a number of credits from 0 to 1000000000, with at most 6 decimal places."],
        [{ balance: 0.0000001 }, "balance must be a number of credits from 0 to 1000000000, with at most 6 decimal places."],
      ] as const) {
        expect(await call("POST", "/accounts/acc_acme/credits", body), JSON.stringify(body)).toMatchObject({
          status: 400,
          body: { error: { code: "VALIDATION_ERROR", message } },
        });
      }
      expect((await call("GET", "/accounts/acc_acme/credits")).body.balance).toBe(100);
    });
  });
};
