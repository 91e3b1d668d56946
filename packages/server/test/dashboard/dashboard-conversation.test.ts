// The conversation page as a rehearsal tool, in Chromium against the CLI's server with the model
// bot (--model) on an OpenAI-compatible endpoint on 127.0.0.1: "The model is answering…" while its
// call is pending, a failed answer offered to the model again ("Try the bot again"), the next
// follow-up due and why follow-ups stopped, a warning that joining another campaign's list moves
// the contact (and the list page's note of it), and the inbox naming the contact of each webhook.
// At 1280 and 420 px.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, admin, channel, noProblems, openTab, setUp, type Setup } from "./browser.js";
import { refuses, said, startFakeModel, type FakeModel } from "../support/fake-model.js";

let setup: Setup;
let model: FakeModel;
const HOUR = 3_600_000;

const bubbles = (page: Page) => page.getByRole("list", { name: "Conversation" }).getByRole("listitem");
/** The value of a fact at the top of the conversation ("Follow-ups", "Campaign"). */
const fact = (page: Page, term: string) => page.locator(`dl.facts dt:text-is("${term}") + dd`);

async function openAt(path: string, width: number) {
  const tab = await openTab(setup, { viewport: { width, height: 900 } });
  await tab.page.goto(setup.cli.info.dashboardUrl.replace("#", `${path}?account=acc_fit#`));
  await tab.page.locator("main h1").waitFor();
  await expect.poll(() => tab.page.getByText("Loading…").count()).toBe(0);
  return tab;
}

/** The page fits its width with no sideways scroll, and axe finds nothing serious. */
async function fitsAndPasses(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
  expect(await accessibilityProblems(page), what).toEqual([]);
}

/** Two Live campaigns with an approved opening and a follow-up a day later, each with its list, named with `tag`; replies to the built-in inbox. */
async function twoFunnels(tag: string) {
  const campaign = (name: string) =>
    admin(setup, "POST", "/campaigns", {
      accountId: "acc_fit",
      name,
      type: "Combined",
      state: "Live",
      channel: "messaging_app",
      openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
      triggerOnNewListContacts: true,
      followUps: { enabled: true, delaysHours: [24], cycles: 1, messagesPerCycle: 2, messages: ["Still keen?"] },
    });
  const spring = await campaign(`Spring intake ${tag}`);
  const summer = await campaign(`Summer intake ${tag}`);
  await admin(setup, "PATCH", "/accounts/acc_fit", { defaultCampaignId: spring.id, webhookUrl: "/__inbox/acc_fit" });
  const springList = await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: `Spring leads ${tag}`, campaignId: spring.id });
  const summerList = await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: `Summer leads ${tag}`, campaignId: summer.id });
  return { spring, summer, springList, summerList };
}

beforeAll(async () => {
  model = await startFakeModel();
  setup = await setUp(["--model", "llama3.2", "--model-base-url", model.baseUrl]);
}, 60_000);
afterAll(async () => {
  await setup?.close();
  await model?.close();
});

describe("the conversation page as a rehearsal tool", () => {
  it.each([1280, 420])(
    "at %i px: the model answering, a failed answer tried again, the next follow-up and why they stopped",
    async (width) => {
      const { springList } = await twoFunnels(`W${width}`);
      const phone = `+1415555${width === 1280 ? "0701" : "0702"}`;
      const lead = await admin(setup, "POST", "/contacts", {
        accountId: "acc_fit",
        phone,
        firstName: "Rita",
        lastName: `Rehearsal${width}`,
      });
      await admin(setup, "POST", `/lists/${springList.id}/contacts`, { source: "manual", contactIds: [lead.id] });
      await admin(setup, "POST", "/settle");
      const { now } = await admin(setup, "GET", "/clock");
      const { page, problems } = await openAt(`contacts/${lead.id}`, width);

      // The opening went: the first follow-up is due a day later.
      const due = new Date(Date.parse(now) + 24 * HOUR)
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, "Z");
      await fact(page, "Follow-ups").getByText(`Follow-up 1 of 2 (Spring intake W${width}) due ${due}`).waitFor();

      // The model fails; its answer is offered again; while it is asked, the bubble says so.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let asks = 0;
      model.answer(async ({ body }) => {
        if (body.messages.at(-1)?.content !== "Can I bring a friend?") return said("Welcome!");
        if (++asks === 1) return refuses(503, "The model is overloaded.");
        await held;
        return said("Yes, bring a friend for free.");
      });
      const before = model.requests.length;
      await channel(setup).messages.receive({
        customData: { fromId: phone, toId: "fit-club", messageSid: `SM-friend-${width}`, body: "Can I bring a friend?" },
      });
      const asked = bubbles(page).filter({ hasText: "Can I bring a friend?" });
      await asked.getByText(/failed: the endpoint was unavailable/).waitFor();
      // The lead wrote: no follow-up goes now.
      await fact(page, "Follow-ups").getByText("Follow-ups stopped: the lead wrote").waitFor();

      await asked.getByRole("button", { name: "Try the bot again" }).click();
      await asked.getByRole("status").getByText("The model is answering…").waitFor();
      expect(await asked.getByRole("button", { name: "Try the bot again" }).count()).toBe(0);
      release();
      await bubbles(page).filter({ hasText: "Yes, bring a friend for free." }).filter({ hasText: "Bot" }).waitFor();
      await asked.getByText(/Model llama3\.2 replied in/).waitFor();
      expect(await asked.getByText("The model is answering…").count()).toBe(0);
      expect(model.requests.slice(before).map((r) => r.body.messages.at(-1)?.content)).toEqual([
        "Can I bring a friend?",
        "Can I bring a friend?",
      ]);

      await fitsAndPasses(page, `the conversation at ${width} px`);
      noProblems(problems);
    },
    60_000,
  );

  it("warns that joining another campaign's list moves the contact from its campaign to that one", async () => {
    const { spring, summer, springList } = await twoFunnels("M");
    const lead = await admin(setup, "POST", "/contacts", { accountId: "acc_fit", phone: "+14155550703", firstName: "Mo" });
    await admin(setup, "POST", `/lists/${springList.id}/contacts`, { source: "manual", contactIds: [lead.id] });
    await admin(setup, "POST", "/settle");
    expect((await admin(setup, "GET", `/contacts/${lead.id}`)).contact.campaignId).toBe(spring.id);
    const { page, problems } = await openAt(`contacts/${lead.id}`, 420);
    const form = page.getByRole("form", { name: "Add to a list" });
    await form.getByLabel("List").selectOption({ label: "Summer leads M" });
    await form
      .getByRole("note")
      .getByText("The contact moves from campaign “Spring intake M” to campaign “Summer intake M”", { exact: false })
      .waitFor();
    await form.getByRole("button", { name: "Add to list" }).click();
    await fact(page, "Campaign").getByText("Summer intake M").waitFor();
    expect((await admin(setup, "GET", `/contacts/${lead.id}`)).contact.campaignId).toBe(summer.id);
    noProblems(problems);
  }, 60_000);

  it("a list's add by hand says how many of the contacts added were in another campaign, and where they move", async () => {
    const { summer, springList, summerList } = await twoFunnels("L");
    const lead = await admin(setup, "POST", "/contacts", { accountId: "acc_fit", phone: "+14155550704", firstName: "Lu" });
    await admin(setup, "POST", `/lists/${summerList.id}/contacts`, { source: "manual", contactIds: [lead.id] });
    await admin(setup, "POST", "/settle");
    expect((await admin(setup, "GET", `/contacts/${lead.id}`)).contact.campaignId).toBe(summer.id);
    const { page, problems } = await openAt(`lists/${springList.id}`, 420);
    await page.getByLabel("Phone").fill("+14155550704");
    await page.getByRole("button", { name: "Add contact" }).click();
    await page
      .getByRole("status")
      .filter({
        hasText:
          "1 added, 0 already members. 1 of them was in campaign “Summer intake L”: once “Spring intake L” sends the opening message, the conversation moves to “Spring intake L”.",
      })
      .waitFor();
    noProblems(problems);
  }, 60_000);

  it("the inbox names the contact of each reply webhook, a link to its conversation", async () => {
    await twoFunnels("I");
    model.answer(() => said("Welcome!"));
    const { messageId } = await channel(setup).messages.receive({
      customData: { fromId: "user-inbox", toId: "fit-club", messageSid: "SM-inbox-1", body: "Hello", firstName: "Ines", lastName: "Inbox" },
    });
    const { contactId } = await admin(setup, "GET", `/messages/${messageId}`);
    await admin(setup, "POST", "/settle");
    const { page, problems } = await openAt("inbox", 420);
    const received = page
      .getByRole("list", { name: "Received requests, newest first" })
      .getByRole("listitem")
      .filter({ hasText: "Welcome!" });
    await received.getByRole("link", { name: "Ines Inbox" }).click();
    await expect.poll(() => page.url()).toContain(`contacts/${contactId}`);
    await fitsAndPasses(page, "the conversation from the inbox");
    noProblems(problems);
  }, 60_000);
});
