// The funnel builder's forms in Debian's Chromium (playwright-core) against the CLI's server: what
// a builder types that the server cannot use is refused on the page, naming it, and nothing of it
// is kept (a delay that is not a number, a placeholder the engine cannot fill, a CSV's wrong row).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, noProblems, openTab, setUp, type Setup } from "./browser.js";

let setup: Setup;
beforeAll(async () => {
  setup = await setUp();
}, 60_000);
afterAll(async () => {
  await setup?.close();
});

const open = (page: Page, path: string) => page.goto(setup.cli.info.dashboardUrl.replace("#", `${path}?account=acc_fit#`));
const alert = (page: Page) => page.getByRole("alert");
/** The page's problems but the 400s these tests ask for (the browser logs each refused request). */
const besidesRefusals = (problems: string[]) => problems.filter((problem) => !/the server responded with a status of 400/.test(problem));

describe("the funnel builder's forms", () => {
  it("refuses a follow-up delay that is not a number of hours, naming it, and keeps the delays saved", async () => {
    const { page, problems } = await openTab(setup);
    const campaign = await admin(setup, "POST", "/campaigns", {
      accountId: "acc_fit",
      name: "Delays",
      followUps: { enabled: true, delaysHours: [24, 48] },
    });
    await open(page, `campaigns/${campaign.id}`);
    for (const typed of ["2h, 72", "abc, 72"]) {
      await page.getByLabel("Delays (hours)").fill(typed);
      await page.getByRole("button", { name: "Save campaign" }).click();
      await expect.poll(() => alert(page).textContent()).toContain(`Delays (hours): "${typed.split(",")[0]}" is not a number of hours.`);
      expect(await page.getByText("Saved.").count()).toBe(0);
      expect((await admin(setup, "GET", `/campaigns/${campaign.id}`)).followUps.delaysHours).toEqual([24, 48]);
    }
    await page.getByLabel("Delays (hours)").fill("2, 72");
    await page.getByRole("button", { name: "Save campaign" }).click();
    await page.getByText("Saved.").waitFor();
    expect((await admin(setup, "GET", `/campaigns/${campaign.id}`)).followUps.delaysHours).toEqual([2, 72]);
    noProblems(besidesRefusals(problems));
  }, 60_000);

  it("refuses an opening template with an unknown placeholder, suggesting the one meant", async () => {
    const { page, problems } = await openTab(setup);
    const campaign = await admin(setup, "POST", "/campaigns", {
      accountId: "acc_fit",
      name: "Placeholders",
      openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
    });
    await open(page, `campaigns/${campaign.id}`);
    await page.getByLabel("Opening template", { exact: true }).fill("Hi {{first_name}}, thanks for signing up!");
    await page.getByRole("button", { name: "Save campaign" }).click();
    await expect
      .poll(() => alert(page).textContent())
      .toContain("openingTemplate.body has an unknown placeholder {{first_name}}: did you mean {{firstName}}?");
    expect((await admin(setup, "GET", `/campaigns/${campaign.id}`)).openingTemplate.body).toBe("Hi {{firstName}}!");
    noProblems(besidesRefusals(problems));
  }, 60_000);

  it("names a CSV's wrong rows and imports nothing, or imports the valid rows and lists the others when asked", async () => {
    const { page, problems } = await openTab(setup);
    const list = await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: "CSV leads" });
    await open(page, `lists/${list.id}`);
    // Row 1 is the header; the blank line is row 4 and counts, as in a spreadsheet.
    const csv = "phone,firstName\n+14155550301,Ada\n+14155550302,Grace\n\n4155550202,Katherine\n+14155550305,Dorothy\n";
    const file = { name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(csv) };
    await page.getByLabel("CSV file", { exact: true }).setInputFiles(file);
    await page.getByRole("button", { name: "Import" }).click();
    await expect
      .poll(() => alert(page).textContent())
      .toMatch(
        /1 of 4 contacts cannot be imported, so none was: row 5: phone "4155550202": Phone number must include a valid country code/,
      );
    expect((await admin(setup, "GET", `/lists/${list.id}`)).memberCount).toBe(0);

    await page.getByLabel("Import the valid rows and list the others").check();
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByRole("status").filter({ hasText: "3 added, 0 already members. 1 row skipped:" }).waitFor();
    const skipped = page.getByRole("list", { name: "Skipped rows" }).getByRole("listitem");
    expect(await skipped.allTextContents()).toEqual([
      expect.stringMatching(/^Row 5: phone "4155550202": Phone number must include a valid country code/),
    ]);
    await page.getByRole("heading", { name: "Members (3)" }).waitFor();
    expect((await admin(setup, "GET", `/lists/${list.id}/contacts`)).map((c: { firstName: string }) => c.firstName)).toEqual([
      "Ada",
      "Grace",
      "Dorothy",
    ]);
    noProblems(besidesRefusals(problems));
  }, 60_000);
});
