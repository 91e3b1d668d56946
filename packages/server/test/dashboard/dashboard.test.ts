// The dashboard in Debian's Chromium (playwright-core) against the CLI's server: a funnel
// builder's whole journey through the pages, with nothing but clicks and typing in the browser
// and /v1 calls from outside, as an integration would make them.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, admin, ADMIN_TOKEN, channel, KEY, noProblems, openTab, SECRET, setUp, v1, type Setup } from "./browser.js";

let setup: Setup;
beforeAll(async () => {
  setup = await setUp();
}, 60_000);
afterAll(async () => {
  await setup?.close();
});

/** The page's own marker: still there after a step means the step did not reload the page. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));
const stayed = (page: Page) => page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed === true);
const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name }).click();
/** The Fit Club's key now (the journey generates a new one). */
const currentKey = async (): Promise<string> => (await admin(setup, "GET", "/accounts/acc_fit")).apiKey;
const bubbles = (page: Page) => page.getByRole("list", { name: "Conversation" }).getByRole("listitem");

describe("the dashboard in a browser", () => {
  it("takes a funnel builder from the printed URL through a campaign, a list, a conversation, a new API key and a day on the clock", async () => {
    const { page, problems } = await openTab(setup);
    const { dashboardUrl } = setup.cli.info;
    expect(dashboardUrl).toMatch(new RegExp(`/__dashboard/#token=${ADMIN_TOKEN}$`));

    // Log in from the printed URL: the token leaves the address bar at once.
    await page.goto(dashboardUrl);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Contacts");
    expect(page.url()).not.toContain("token");
    expect(page.url()).toContain("account=acc_fit");
    await mark(page);

    // A Live Combined campaign with an approved opening template, the trigger on, a follow-up after a day, an FAQ.
    await nav(page, "Campaigns");
    await page.getByLabel("Name").fill("Spring intake");
    await page.getByLabel("Type").selectOption("Combined");
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Campaign: Spring intake");
    await page.getByLabel("State").selectOption("Live");
    await page.getByLabel("Has an opening template").check();
    await page.getByLabel("Opening template", { exact: true }).fill("Hi {{firstName}}, welcome to Fit Club!");
    await page.getByLabel("Template approval").selectOption("approved");
    await page.getByLabel("Trigger on New Contacts Added to List").check();
    await page.getByLabel("Follow-ups enabled").check();
    await page.getByLabel("Delays (hours)").fill("24");
    await page.getByLabel("Cycles").fill("1");
    await page.getByLabel("Messages per cycle").fill("1");
    await page.getByLabel("Follow-up messages").fill("Still keen, {{firstName}}?");
    await page.getByRole("button", { name: "Add FAQ" }).click();
    await page.getByLabel("Question 1").fill("How much is a membership?");
    await page.getByLabel("Answer 1").fill("29 a month.");
    await page.getByRole("button", { name: "Save campaign" }).click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    const campaignId = page.url().match(/campaigns\/(cmp_[^?]+)/)![1]!;
    expect(await admin(setup, "GET", `/campaigns/${campaignId}`)).toMatchObject({
      type: "Combined",
      state: "Live",
      openingTemplate: { body: "Hi {{firstName}}, welcome to Fit Club!", approval: "approved" },
      triggerOnNewListContacts: true,
      followUps: { enabled: true, delaysHours: [24], cycles: 1, messagesPerCycle: 1, messages: ["Still keen, {{firstName}}?"] },
      faqs: [{ question: "How much is a membership?", answer: "29 a month." }],
    });

    // A list linked to it.
    await nav(page, "Lists");
    await page.getByLabel("Name").fill("Spring leads");
    await page.getByLabel("Linked campaign").selectOption({ label: "Spring intake" });
    await page.getByRole("button", { name: "Create list" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("List: Spring leads");
    const listId = page.url().match(/lists\/(lst_[^?]+)/)![1]!;

    // The Custom Channel Webhook URL, to a local receiver.
    await nav(page, "Settings");
    await page.getByLabel("Webhook URL").fill(setup.receiver.url);
    await page.getByRole("button", { name: "Save webhook URL" }).click();
    await page.getByRole("status").filter({ hasText: "Webhook URL saved." }).waitFor();

    // A contact added through /v1 shows up on the open contacts page, and its opening message in its conversation.
    await nav(page, "Contacts");
    const api = v1(setup);
    const lead = await api.contacts.create({ phone_number: "+14155550123", first_name: "Ada", last_name: "Lovelace" });
    await page.getByRole("link", { name: "Ada Lovelace" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Ada Lovelace");
    await api.lists.addContact(listId, { contact_id: lead.id });
    await bubbles(page).filter({ hasText: "Hi Ada, welcome to Fit Club!" }).waitFor();
    await expect.poll(() => bubbles(page).first().textContent()).toContain("Opening message");
    // A second lead who will not answer: hers is the follow-up.
    const quiet = await api.contacts.create({ phone_number: "+14155550124", first_name: "Grace", last_name: "Hopper" });
    await api.lists.addContact(listId, { contact_id: quiet.id });

    // An inbound message on the custom channel: the bot's answer, delivered to the receiver, with its attempt.
    await channel(setup).messages.receive({
      customData: { messageSid: "SM-dash-1", fromId: "+14155550123", toId: "fit-club", body: "How much is a membership?" },
    });
    await bubbles(page).filter({ hasText: "How much is a membership?" }).waitFor();
    const botReply = bubbles(page).filter({ hasText: "29 a month." });
    await botReply.getByText("1 delivery attempt (delivered)").waitFor();
    await botReply.getByText("1 delivery attempt (delivered)").click();
    await expect.poll(() => botReply.getByRole("listitem").first().textContent()).toMatch(/#1 .* — 200 in (< 1 ms|[\d.]+ m?s)/);

    // A reply typed by a person reaches the receiver signed with the account's secret.
    await page.getByLabel("Reply as a person").fill("Hi Ada, this is Sam from the front desk.");
    await page.getByRole("button", { name: "Send reply" }).click();
    await bubbles(page).filter({ hasText: "Hi Ada, this is Sam from the front desk." }).filter({ hasText: "Human" }).waitFor();
    await expect.poll(() => setup.receiver.received.map((r) => r.json?.body)).toContain("Hi Ada, this is Sam from the front desk.");
    const human = setup.receiver.received.find((r) => r.json?.body === "Hi Ada, this is Sam from the front desk.")!;
    expect(setup.receiver.verify(human, SECRET)).toMatchObject({ body: "Hi Ada, this is Sam from the front desk.", toId: "+14155550123" });

    // The deliveries page: the human reply's webhook, sent again with the same webhook-id.
    await nav(page, "Deliveries");
    const card = page.getByRole("listitem").filter({ hasText: "Hi Ada, this is Sam from the front desk." });
    // Its attempt shows the signature the receiver got.
    await card.getByText(`webhook-signature: ${String(human.headers["webhook-signature"])}`).waitFor();
    await card.getByRole("button", { name: "Redeliver" }).click();
    await card.getByRole("row").filter({ hasText: /^2/ }).filter({ hasText: "200" }).waitFor();
    const copies = setup.receiver.received.filter((r) => r.json?.body === "Hi Ada, this is Sam from the front desk.");
    expect(copies).toHaveLength(2);
    expect(copies[1]!.headers["webhook-id"]).toBe(copies[0]!.headers["webhook-id"]);
    await page.goBack();
    await page.getByRole("heading", { level: 1, name: "Ada Lovelace" }).waitFor();

    // Pause and resume the bot.
    await page.getByRole("button", { name: "Pause the bot" }).click();
    await page.getByRole("button", { name: "Resume the bot" }).waitFor();
    expect((await admin(setup, "GET", `/contacts/${lead.id}`)).contact.botPaused).toBe(true);
    await page.getByRole("button", { name: "Resume the bot" }).click();
    await page.getByRole("button", { name: "Pause the bot" }).waitFor();

    // A new API key: the old one is refused at once, the new one works.
    await nav(page, "Settings");
    await page.getByRole("button", { name: "Generate" }).click();
    await page.getByRole("status").filter({ hasText: "A new key was generated" }).waitFor();
    await expect.poll(() => page.getByLabel("API key", { exact: true }).inputValue()).not.toBe(KEY);
    const newKey = await page.getByLabel("API key", { exact: true }).inputValue();
    await expect(api.contacts.find({ phoneNumber: "+14155550123" })).rejects.toMatchObject({ status: 401 });
    await expect(v1(setup, newKey).contacts.find({ phoneNumber: "+14155550123" })).resolves.toMatchObject({ id: lead.id });

    // A day on the virtual clock: the follow-up goes.
    await nav(page, "Queue & clock");
    await page.getByRole("row").filter({ hasText: "follow-up" }).filter({ hasText: "Grace Hopper" }).waitFor();
    await page.getByRole("button", { name: "Advance a day" }).click();
    await expect.poll(() => page.getByRole("row").filter({ hasText: "follow-up" }).filter({ hasText: "Grace Hopper" }).count()).toBe(0);
    await nav(page, "Contacts");
    await page
      .getByRole("row")
      .filter({ hasText: "Grace Hopper" })
      .filter({ hasText: "Spring leads" })
      .filter({ hasText: "Spring intake" })
      .waitFor();
    await page.getByRole("link", { name: "Grace Hopper" }).click();
    await bubbles(page).filter({ hasText: "Still keen, Grace?" }).filter({ hasText: "Follow-up" }).waitFor();

    expect(await stayed(page)).toBe(true);
    noProblems(problems);
  }, 120_000);

  it("shows names and message bodies as text, never as markup", async () => {
    const { page, problems } = await openTab(setup);
    const attack = "<img src=x onerror=alert(1)>";
    const contactId = (await v1(setup, await currentKey()).contacts.create({ phone_number: "+14155550199", first_name: attack })).id;
    await admin(setup, "POST", `/contacts/${contactId}/replies`, { body: attack });
    await page.goto(`${setup.cli.info.dashboardUrl.replace("#", `contacts/${contactId}?account=acc_fit#`)}`);
    await bubbles(page).filter({ hasText: attack }).waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(attack);
    expect(await page.locator("img").count()).toBe(0);
    noProblems(problems);
  }, 60_000);

  it("adds contacts to a list by hand and from a CSV file", async () => {
    const { page, problems } = await openTab(setup);
    const list = await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: "Open day" });
    await page.goto(setup.cli.info.dashboardUrl.replace("#", `lists/${list.id}?account=acc_fit#`));
    await page.getByLabel("Phone").fill("+14155550140");
    await page.getByLabel("First name").fill("Katherine");
    await page.getByRole("button", { name: "Add contact" }).click();
    await page.getByRole("status").filter({ hasText: "1 added, 0 already members." }).waitFor();
    const csv = 'phone,firstName,lastName,email\n+14155550141,Dorothy,Vaughan,dorothy@example.com\n"+14155550140",Katherine,,\n';
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({ name: "leads.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByRole("status").filter({ hasText: "1 added, 1 already members." }).waitFor();
    await page.getByRole("heading", { name: "Members (2)" }).waitFor();
    expect((await admin(setup, "GET", `/lists/${list.id}/contacts`)).map((c: any) => [c.firstName, c.email])).toEqual([
      ["Katherine", null],
      ["Dorothy", "dorothy@example.com"],
    ]);
    // The contacts page shows the newest first: the one just imported at the top.
    await page.goto(setup.cli.info.dashboardUrl.replace("#", "contacts?account=acc_fit#"));
    await expect.poll(() => page.getByRole("row").nth(1).textContent()).toContain("Dorothy Vaughan");
    noProblems(problems);
  }, 60_000);

  it("logs in on its login page with the admin token, and refuses another; works by keyboard", async () => {
    const { page, problems } = await openTab(setup);
    await page.goto(`${setup.cli.info.url}/__dashboard/`);
    await page.getByLabel("Admin token").fill("adm_wrong");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("alert").filter({ hasText: "The server refused this token" }).waitFor();
    // By keyboard alone: the token field, Enter; then Tab to a page's link and Enter.
    await page.getByLabel("Admin token").fill("");
    await page.getByLabel("Admin token").focus();
    await page.keyboard.type(ADMIN_TOKEN);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Contacts");
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    for (let i = 0; i < 12 && (await focused()) !== "Campaigns"; i++) await page.keyboard.press("Tab");
    expect(await focused()).toBe("Campaigns");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Campaigns");
    // The agency's sub-account is under it in the account picker.
    await page.getByLabel("Account").selectOption({ label: "Client One (sub-account)" });
    await expect.poll(() => page.url()).toContain("account=sub_client");
    noProblems(problems);
  }, 60_000);

  it("has no serious or critical accessibility violation on any page", async () => {
    const { page, problems } = await openTab(setup);
    const campaignId = (
      await admin(setup, "POST", "/campaigns", { accountId: "acc_fit", name: "Checked", faqs: [{ question: "Hours?", answer: "9 to 5." }] })
    ).id;
    const listId = (await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: "Checked list", campaignId })).id;
    const contactId = (
      await admin(setup, "POST", `/lists/${listId}/contacts`, {
        source: "manual",
        contacts: [{ phone: "+14155550177", firstName: "Grace" }],
      })
    ).contactIds[0];
    await admin(setup, "POST", `/contacts/${contactId}/replies`, { body: "Hello Grace" });
    const base = new URL(setup.cli.info.dashboardUrl).origin;
    await page.goto(`${base}/__dashboard/`);
    expect(await accessibilityProblems(page), "login").toEqual([]);
    await page.goto(setup.cli.info.dashboardUrl);
    const pages = [
      "contacts",
      `contacts/${contactId}`,
      "lists",
      `lists/${listId}`,
      "campaigns",
      `campaigns/${campaignId}`,
      "deliveries",
      "inbox",
      "queue",
      "alerts",
      "journal",
      "faults",
      "settings",
    ];
    for (const path of pages) {
      await page.goto(`${base}/__dashboard/${path}?account=acc_fit`);
      await page.locator("main h1").waitFor();
      await page.getByText("Loading…").waitFor({ state: "detached" });
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    // The check itself finds a control without a label.
    await page.evaluate(() => document.querySelector("main")!.append(Object.assign(document.createElement("input"), { type: "text" })));
    expect((await accessibilityProblems(page)).join("\n")).toContain("label");
    noProblems(problems);
  }, 90_000);
});
