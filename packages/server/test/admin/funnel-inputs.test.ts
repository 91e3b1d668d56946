// What a funnel builder types, refused over HTTPS when the server would otherwise drop or send it
// as it is: a CSV import's wrong rows (named, or skipped on request), a template's unknown
// placeholder, a webhook URL to the inbox of no account, a misspelt campaign id, a snapshot sent
// as a seed, a delay that is not a number.
import type { Seed } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type HttpsHarness } from "../support/harness.js";

const SEED: Seed = {
  accounts: [
    {
      id: "acc_shop",
      name: "Shop",
      credits: 100,
      campaigns: [
        {
          id: "cmp_trial",
          name: "Trial",
          state: "Live",
          openingTemplate: { body: "Hi {{firstName}}, welcome!", approval: "approved" },
          triggerOnNewListContacts: true,
          followUps: { enabled: true, delaysHours: [24], messages: ["Still keen, {{firstName}}?"] },
        },
      ],
      lists: [{ id: "lst_leads", name: "Leads", campaignId: "cmp_trial" }],
    },
  ],
};

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start() {
  harness = await startHarness({ seed: SEED, clock: "virtual" });
  return harness.admin;
}

const LEADS = [
  { phone: "+14155550201", firstName: "Ada" },
  { phone: "+14155550202", firstName: "Grace" },
  { phone: "4155550202", firstName: "Katherine" },
  { phone: "+14155550204", firstName: "Dorothy", email: "dorothy@example" },
];

describe("POST /__admin/lists/{id}/contacts (importContacts) with entries it cannot take", () => {
  it("refuses the whole import by default, naming each wrong row and its value; nothing is added", async () => {
    const admin = await start();
    const refused = await admin("POST", "/lists/lst_leads/contacts", { source: "import", contacts: LEADS, rows: [2, 3, 4, 5] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_ERROR");
    expect(refused.body.error.message).toMatch(
      /^2 of 4 contacts cannot be imported, so none was: row 4: phone "4155550202": Phone number must include a valid country code[^;]*; row 5: email "dorothy@example" is not a valid email address\. Correct them, or import only the valid ones \(onInvalid: "skip"\)\.$/,
    );
    expect((await admin("GET", "/lists/lst_leads")).body.memberCount).toBe(0);
    expect((await admin("GET", "/contacts?accountId=acc_shop")).body).toEqual([]);
    expect((await admin("GET", "/messages?accountId=acc_shop")).body).toEqual([]);

    // Without rows, an entry is named by its place.
    const unnumbered = await admin("POST", "/lists/lst_leads/contacts", { contacts: LEADS });
    expect(unnumbered.body.error.message).toContain('contacts[2]: phone "4155550202": ');
  });

  it("with onInvalid: skip, imports the valid rows and lists the others; the funnel greets only those", async () => {
    const admin = await start();
    const imported = await admin("POST", "/lists/lst_leads/contacts", {
      source: "import",
      contacts: LEADS,
      rows: [2, 3, 4, 5],
      onInvalid: "skip",
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ listId: "lst_leads", added: 2, alreadyMembers: 0 });
    expect(imported.body.skipped).toEqual([
      {
        index: 2,
        row: 4,
        contact: LEADS[2],
        message: expect.stringMatching(/^phone "4155550202": Phone number must include a valid country code/),
      },
      { index: 3, row: 5, contact: LEADS[3], message: 'email "dorothy@example" is not a valid email address.' },
    ]);
    const members = (await admin("GET", "/lists/lst_leads/contacts")).body;
    expect(members.map((c: { firstName: string }) => c.firstName)).toEqual(["Ada", "Grace"]);
    const openings = (await admin("GET", "/messages?accountId=acc_shop&direction=outbound")).body;
    expect(openings.map((m: { body: string }) => m.body).sort()).toEqual(["Hi Ada, welcome!", "Hi Grace, welcome!"]);

    // An import with nothing wrong skips nothing.
    const clean = await admin("POST", "/lists/lst_leads/contacts", { contacts: [{ phone: "+14155550209" }], onInvalid: "skip" });
    expect(clean.body).toMatchObject({ added: 1, skipped: [] });
  });

  it("refuses rows that do not match the contacts one for one, and names a single wrong contact plainly", async () => {
    const admin = await start();
    const mismatched = await admin("POST", "/lists/lst_leads/contacts", { contacts: LEADS, rows: [2, 3] });
    expect(mismatched).toMatchObject({
      status: 400,
      body: { error: { message: "rows has 2 entries and contacts 4: give one row for each contact, or leave rows out." } },
    });
    const one = await admin("POST", "/lists/lst_leads/contacts", { source: "manual", contacts: [{ phone: "415" }] });
    expect(one.status).toBe(400);
    expect(one.body.error.message).toMatch(/^contacts\[0\]: phone "415": /);
    expect((await admin("GET", "/lists/lst_leads")).body.memberCount).toBe(0);
  });
});

describe("a campaign's texts with an unknown placeholder", () => {
  it("is refused by POST and PATCH /__admin/campaigns and POST /__admin/seed, with a did-you-mean; nothing changes", async () => {
    const admin = await start();
    const created = await admin("POST", "/campaigns", {
      accountId: "acc_shop",
      name: "Bearer form",
      openingTemplate: { body: "Hi {{first_name}}, thanks!", approval: "approved" },
    });
    expect(created).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "VALIDATION_ERROR",
          message:
            'Campaign "Bearer form": openingTemplate.body has an unknown placeholder {{first_name}}: did you mean {{firstName}}? The placeholders are {{firstName}} and {{lastName}}.',
        },
      },
    });
    expect((await admin("GET", "/campaigns?accountId=acc_shop")).body).toHaveLength(1);

    const before = (await admin("GET", "/campaigns/cmp_trial")).body;
    const patched = await admin("PATCH", "/campaigns/cmp_trial", {
      followUps: { messages: ["Still there?", "Last call, {{ lastname }}"] },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toBe(
      "Campaign cmp_trial: followUps.messages[1] has an unknown placeholder {{ lastname }}: did you mean {{lastName}}? The placeholders are {{firstName}} and {{lastName}}.",
    );
    const unknown = await admin("PATCH", "/campaigns/cmp_trial", { openingTemplate: { body: "Hi {{company}}", approval: "approved" } });
    expect(unknown.body.error.message).toBe(
      "Campaign cmp_trial: openingTemplate.body has an unknown placeholder {{company}}. The placeholders are {{firstName}} and {{lastName}}.",
    );
    expect((await admin("GET", "/campaigns/cmp_trial")).body).toEqual(before);

    const seeded = await admin("POST", "/seed", {
      accounts: [{ name: "X", campaigns: [{ id: "cmp_x", name: "X", openingTemplate: { body: "Hey {{firstname}}", approval: "draft" } }] }],
    });
    expect(seeded.status).toBe(400);
    expect(seeded.body.error.message).toMatch(
      /^Campaign cmp_x: openingTemplate\.body has an unknown placeholder \{\{firstname\}\}: did you mean \{\{firstName\}\}\?/,
    );
    expect((await admin("GET", "/accounts")).body).toHaveLength(1);
  });
});

describe("seeds and settings that name what is not there", () => {
  it("a webhookUrl to the inbox of no account is refused with a did-you-mean; the account's own inbox is taken", async () => {
    const admin = await start();
    const patched = await admin("PATCH", "/accounts/acc_shop", { webhookUrl: "/__inbox/acc_shopp" });
    expect(patched.status).toBe(400);
    expect(patched.body.error.message).toMatch(
      /^webhookUrl \/__inbox\/acc_shopp is the inbox of no account here: did you mean \/__inbox\/acc_shop\?/,
    );
    const recharge = await admin("POST", "/accounts", { name: "New", autoRechargeUrl: "/__inbox/acc_nobody" });
    expect(recharge.body.error.message).toMatch(/^autoRechargeUrl \/__inbox\/acc_nobody is the inbox of no account here\. /);
    expect((await admin("GET", "/accounts/acc_shop")).body.webhookUrl).toBeNull();
    expect((await admin("PATCH", "/accounts/acc_shop", { webhookUrl: "/__inbox/acc_shop" })).status).toBe(200);
    expect((await admin("POST", "/accounts", { id: "acc_own", name: "Own", webhookUrl: "/__inbox/acc_own" })).status).toBe(201);
  });

  it("a misspelt campaignId names the nearest of the account's campaigns", async () => {
    const admin = await start();
    const list = await admin("PATCH", "/lists/lst_leads", { campaignId: "cmp_trail" });
    expect(list).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    expect(list.body.error.message).toBe(
      "List lst_leads: no campaign cmp_trail in account acc_shop: did you mean cmp_trial? Its campaigns: cmp_trial.",
    );
    const account = await admin("PATCH", "/accounts/acc_shop", { defaultCampaignId: "cmp_tril" });
    expect(account.body.error.message).toBe(
      "Account acc_shop's defaultCampaignId: no campaign cmp_tril in account acc_shop: did you mean cmp_trial? Its campaigns: cmp_trial.",
    );
  });

  it("a snapshot sent as a seed (POST /__admin/seed, POST /__admin/reset) is named as one, with how to load it", async () => {
    const admin = await start();
    const snapshot = (await admin("GET", "/snapshot")).body;
    for (const path of ["/seed", "/reset"]) {
      const refused = await admin("POST", path, snapshot);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(
        /^This is a snapshot \(format intake-snapshot\/1, what GET \/__admin\/snapshot gives\), not a seed\. Load it with PUT \/__admin\/snapshot/,
      );
    }
    expect((await admin("PUT", "/snapshot", snapshot)).status).toBe(200);
  });

  it("a follow-up delay that is not a number of hours is refused by the admin API, not dropped", async () => {
    const admin = await start();
    const refused = await admin("PATCH", "/campaigns/cmp_trial", { followUps: { delaysHours: ["2h", 72] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("followUps.delaysHours[0]");
    expect((await admin("GET", "/campaigns/cmp_trial")).body.followUps.delaysHours).toEqual([24]);
  });
});
