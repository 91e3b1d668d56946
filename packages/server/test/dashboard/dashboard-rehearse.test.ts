// What a rehearsal needs from the dashboard, in Chromium: credits set or topped up in Settings (to
// rehearse "no credits"), the whole state exported to a file, imported back (asked first; a bad
// file refused, saying why) and reset (asked first), and a contact, a list and a campaign deleted
// from their pages, on a laptop and on a phone.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { admin, noProblems, openTab, setUp, v1, type Setup } from "./browser.js";

let setup: Setup;
beforeAll(async () => {
  setup = await setUp();
}, 60_000);
afterAll(async () => {
  await setup?.close();
});
beforeEach(async () => {
  await admin(setup, "POST", "/reset");
});

const open = async (page: Page, path: string) => {
  await page.goto(setup.cli.info.dashboardUrl.replace("#", `${path}?account=acc_fit#`));
  await page.locator("main h1").waitFor();
};
const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();
const contactCount = async () => (await admin(setup, "GET", "/contacts?accountId=acc_fit")).length;
/** The browser logs the 400 a step provoked on purpose: that one, and nothing else, so far. */
const refusedOnce = async (problems: string[]) => {
  await expect.poll(() => problems.length).toBeGreaterThan(0);
  expect(problems.splice(0)).toEqual(["console: Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
};

describe("rehearsing in the dashboard", () => {
  it("sets the balance to 0 and tops it up in Settings", async () => {
    const { page, problems } = await openTab(setup);
    await open(page, "settings");
    await page.getByLabel("Set the balance to").fill("0");
    await page.getByRole("button", { name: "Set balance" }).click();
    await page.getByText("Balance: 0", { exact: true }).waitFor();
    expect((await admin(setup, "GET", "/accounts/acc_fit")).credits).toBe(0);
    await page.getByLabel("Add credits (negative removes)").fill("7.5");
    await page.getByRole("button", { name: "Add credits" }).click();
    await page.getByText("Balance: 7.5", { exact: true }).waitFor();
    const history = page.getByRole("table", { name: "Credit history, newest first" });
    await expect.poll(() => history.getByRole("row").nth(1).textContent()).toContain("+7.5");
    // A balance the server refuses says why, and the balance stays.
    await page.getByLabel("Set the balance to").fill("0.0000001");
    await page.getByRole("button", { name: "Set balance" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "balance must be a number of credits from 0 to 1000000000, with at most 6 decimal places." })
      .waitFor();
    await refusedOnce(problems);
    expect((await admin(setup, "GET", "/accounts/acc_fit")).credits).toBe(7.5);
    noProblems(problems);
  }, 60_000);

  it("exports the state to a file, imports it back once asked, refuses a file that is not a snapshot, and resets once asked", async () => {
    const { page, problems } = await openTab(setup);
    await v1(setup).contacts.create({ phone_number: "+14155550181", first_name: "Saved" });
    await open(page, "settings");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export snapshot" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^intake-snapshot-.+\.json$/);
    const file = await download.path();
    const text = readFileSync(file, "utf8");
    expect(JSON.parse(text)).toMatchObject({
      format: "intake-snapshot/1",
      records: { contact: [expect.objectContaining({ firstName: "Saved" })] },
    });
    await page.getByRole("status").filter({ hasText: "Exported: 3 accounts, 1 contact, 0 messages." }).waitFor();

    // Something new, then the file imported over it: asked first, then the state is the file's.
    await v1(setup).contacts.create({ phone_number: "+14155550182", first_name: "Later" });
    const chooser = page.getByLabel("Import snapshot…");
    await chooser.setInputFiles({ name: "saved.json", mimeType: "application/json", buffer: Buffer.from(text) });
    const asked = page.getByRole("group", { name: "Import snapshot" });
    await asked.getByText(/^Replace the whole state with saved\.json, saved at .+ \(3 accounts, 1 contact, 0 messages\)\?/).waitFor();
    expect(await contactCount()).toBe(2);
    await asked.getByRole("button", { name: "Yes, import" }).click();
    await page.getByRole("status").filter({ hasText: "Imported saved.json: 3 accounts, 1 contact." }).waitFor();
    expect((await admin(setup, "GET", "/contacts?accountId=acc_fit")).map((c: any) => c.firstName)).toEqual(["Saved"]);

    // Cancel leaves the state alone.
    await chooser.setInputFiles({ name: "saved.json", mimeType: "application/json", buffer: Buffer.from(text) });
    await asked.getByRole("button", { name: "Cancel" }).click();
    await asked.waitFor({ state: "detached" });

    // Files that are not snapshots are refused before anything is sent, saying what to do.
    await chooser.setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from("not json") });
    await page
      .getByRole("alert")
      .filter({ hasText: /^notes\.json is not JSON \(.+\)\. Choose a file saved by Export\.$/ })
      .waitFor();
    await chooser.setInputFiles({ name: "other.json", mimeType: "application/json", buffer: Buffer.from('{"format":"other/2"}') });
    await page
      .getByRole("alert")
      .filter({
        hasText: 'other.json is not an Intake snapshot: its format is "other/2", not intake-snapshot/1. Choose a file saved by Export.',
      })
      .waitFor();
    // One the server refuses (a record it would not take) says so, and changes nothing.
    const broken = JSON.parse(text);
    broken.records.contact[0].accountId = "acc_missing";
    await chooser.setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(broken)) });
    await asked.getByRole("button", { name: "Yes, import" }).click();
    await asked
      .getByRole("alert")
      .filter({ hasText: "records.contact[0].accountId names account acc_missing, which these records do not have. Nothing was changed." })
      .waitFor();
    await refusedOnce(problems);
    await asked.getByRole("button", { name: "Cancel" }).click();
    expect(await contactCount()).toBe(1);

    // Reset: asked first; Cancel keeps everything, yes goes back to the starting seed.
    await page.getByRole("button", { name: "Reset…" }).click();
    await page.getByRole("group", { name: "Reset…" }).getByRole("button", { name: "Cancel" }).click();
    expect(await contactCount()).toBe(1);
    await page.getByRole("button", { name: "Reset…" }).click();
    await page.getByRole("group", { name: "Reset…" }).getByRole("button", { name: "Yes, reset" }).click();
    await page.getByRole("status").filter({ hasText: "Reset: 3 accounts from the starting seed." }).waitFor();
    expect(await contactCount()).toBe(0);
    noProblems(problems);
  }, 90_000);

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 420, height: 860 },
  ]) {
    it(`deletes a contact, a list and a campaign from their pages once asked (${viewport.width} px)`, async () => {
      const { page, problems } = await openTab(setup, { viewport });
      const campaign = await admin(setup, "POST", "/campaigns", { accountId: "acc_fit", name: "Doomed campaign" });
      const list = await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: "Doomed list", campaignId: campaign.id });
      const contactId = (
        await admin(setup, "POST", `/lists/${list.id}/contacts`, {
          source: "manual",
          contacts: [{ phone: "+14155550183", firstName: "Doomed" }],
        })
      ).contactIds[0];
      for (const [path, noun, name, section, gone] of [
        [`contacts/${contactId}`, "contact", "Doomed", "Contacts", `/contacts/${contactId}`],
        [`lists/${list.id}`, "list", "Doomed list", "Lists", `/lists/${list.id}`],
        [`campaigns/${campaign.id}`, "campaign", "Doomed campaign", "Campaigns", `/campaigns/${campaign.id}`],
      ] as const) {
        await open(page, path);
        await page.getByRole("button", { name: `Delete ${noun}` }).click();
        const asked = page.getByRole("group", { name: `Delete ${noun}` });
        await asked.getByText(`Delete ${name}? This cannot be undone.`).waitFor();
        // The choice has the focus: a keyboard user confirms with Enter.
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(`Yes, delete this ${noun}`);
        await page.keyboard.press("Enter");
        await expect.poll(() => heading(page)).toBe(section);
        expect(await admin(setup, "GET", gone)).toMatchObject({ error: { code: "NOT_FOUND" } });
        await expect.poll(() => page.getByRole("main").textContent()).not.toContain(name);
      }
      noProblems(problems);
    }, 90_000);
  }
});
