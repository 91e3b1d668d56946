// The dashboard as a funnel builder's studio, in Debian's Chromium (playwright-core) against the
// CLI's server: every page follows what API calls made outside the browser change, without a
// reload; the studio's actions (a new contact, a list joined, the contact's messages simulated, a
// test webhook, the built-in inbox) work from the UI, their effect checked through the admin API;
// and every page fits a 420 px screen with no serious or critical accessibility violation.
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, admin, channel, noProblems, openTab, SECRET, setUp, v1, type Setup } from "./browser.js";

let setup: Setup;
let campaignId: string;
let listId: string;

beforeAll(async () => {
  setup = await setUp();
  // A Live funnel on the messaging app: an approved opening template, the trigger on, a follow-up
  // after a day, an FAQ and a hand-off phrase; its list; the account's default campaign, so custom
  // channel messages reach its bot; replies to the test's receiver.
  campaignId = (
    await admin(setup, "POST", "/campaigns", {
      accountId: "acc_fit",
      name: "Studio funnel",
      state: "Live",
      channel: "messaging_app",
      openingTemplate: { body: "Hi {{firstName}}, welcome to the studio!", approval: "approved" },
      triggerOnNewListContacts: true,
      followUps: { enabled: true, delaysHours: [24], cycles: 1, messagesPerCycle: 1, messages: ["Still keen, {{firstName}}?"] },
      faqs: [{ question: "How much is a membership?", answer: "29 a month." }],
      handOffPhrases: ["talk to a person"],
    })
  ).id;
  listId = (await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: "Studio leads", campaignId })).id;
  await admin(setup, "PATCH", "/accounts/acc_fit", { defaultCampaignId: campaignId, webhookUrl: setup.receiver.url });
}, 60_000);
afterAll(async () => {
  await setup?.close();
});

/** The page's own marker: still there after a step means the step did not reload the page. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));
const stayed = (page: Page) => page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed === true);
const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();
const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name }).click();
const bubbles = (page: Page) => page.getByRole("list", { name: "Conversation" }).getByRole("listitem");
const settled = (page: Page) => expect.poll(() => page.getByText("Loading…").count()).toBe(0);

/** The Fit Club's /v1 clients, with its key now (a test generates a new one). */
const currentKey = async (): Promise<string> => (await admin(setup, "GET", "/accounts/acc_fit")).apiKey;
const fit = async () => v1(setup, await currentKey());
const custom = async () => channel(setup, await currentKey()).messages;

/** A dashboard page of the Fit Club, loaded and following the event stream, marked. */
async function openAt(path: string, options: Parameters<typeof openTab>[1] = {}) {
  const tab = await openTab(setup, options);
  const stream = tab.page.waitForResponse((response) => response.url().includes("/__admin/events"));
  await tab.page.goto(setup.cli.info.dashboardUrl.replace("#", `${path}?account=acc_fit#`));
  await stream;
  await tab.page.locator("main h1").waitFor();
  await settled(tab.page);
  await mark(tab.page);
  return tab;
}

/** The same page, reached without a reload. */
async function done(page: Page, problems: string[]) {
  expect(await stayed(page)).toBe(true);
  noProblems(problems);
}

describe("every dashboard page follows the event stream, without a reload", () => {
  it("contacts: a contact created through /v1 appears, and joining a list fills its Lists and Campaign columns", async () => {
    const { page, problems } = await openAt("contacts");
    const api = await fit();
    const lead = await api.contacts.create({ phone_number: "+14155550301", first_name: "Lena", last_name: "Live" });
    const row = page.getByRole("row").filter({ hasText: "Lena Live" });
    await row.waitFor();
    await api.lists.addContact(listId, { contact_id: lead.id });
    await row.filter({ hasText: "Studio leads" }).filter({ hasText: "Studio funnel" }).waitFor();
    await done(page, problems);
  }, 60_000);

  it("lists and a list's page: a list made elsewhere appears, and members added through /v1 count and show", async () => {
    const { page, problems } = await openAt("lists");
    const list = await admin(setup, "POST", "/lists", { accountId: "acc_fit", name: "Walk-ins", campaignId });
    const row = page.getByRole("row").filter({ hasText: "Walk-ins" });
    await row.filter({ hasText: "Studio funnel" }).waitFor();
    const api = await fit();
    const first = await api.contacts.create({ phone_number: "+14155550302", first_name: "Wally" });
    await api.lists.addContact(list.id, { contact_id: first.id });
    await expect.poll(() => row.getByRole("cell").nth(2).textContent()).toBe("1");

    await row.getByRole("link", { name: "Walk-ins" }).click();
    await page.getByRole("heading", { name: "Members (1)" }).waitFor();
    const second = await api.contacts.create({ phone_number: "+14155550303", first_name: "Wanda" });
    await api.lists.addContact(list.id, { contact_id: second.id });
    await page.getByRole("heading", { name: "Members (2)" }).waitFor();
    await page.getByRole("row").filter({ hasText: "Wanda" }).waitFor();
    await admin(setup, "PATCH", `/lists/${list.id}`, { name: "Walk-ins (spring)" });
    await expect.poll(() => heading(page)).toBe("List: Walk-ins (spring)");
    await done(page, problems);
  }, 60_000);

  it("campaigns and a campaign's page: a campaign made and changed elsewhere shows its new settings", async () => {
    const { page, problems } = await openAt("campaigns");
    const made = await admin(setup, "POST", "/campaigns", { accountId: "acc_fit", name: "Autumn push" });
    const row = page.getByRole("row").filter({ hasText: "Autumn push" });
    await row.filter({ hasText: "Draft" }).waitFor();
    await admin(setup, "PATCH", `/campaigns/${made.id}`, { state: "Live" });
    await row.filter({ hasText: "Live" }).waitFor();

    await row.getByRole("link", { name: "Autumn push" }).click();
    await expect.poll(() => heading(page)).toBe("Campaign: Autumn push");
    await admin(setup, "PATCH", `/campaigns/${made.id}`, {
      name: "Autumn push, take two",
      goal: "Book a trial class",
      faqs: [{ question: "Parking?", answer: "Free." }],
    });
    await expect.poll(() => heading(page)).toBe("Campaign: Autumn push, take two");
    await expect.poll(() => page.getByLabel("Goal").inputValue()).toBe("Book a trial class");
    await expect.poll(() => page.getByLabel("Question 1").inputValue()).toBe("Parking?");
    await page.getByRole("group", { name: "Bot on this server" }).getByText("Bot on this server: Deterministic bot (built-in)").waitFor();
    await done(page, problems);
  }, 60_000);

  it("conversation: messages received through /v1, the bot's answer and its webhook, and a reply typed elsewhere appear", async () => {
    const inbound = await custom();
    const customData = { fromId: "+14155550177", toId: "fit-club", channel: "whatsapp-bridge", firstName: "Cleo", lastName: "Custom" };
    const { messageId } = await inbound.receive({ customData: { ...customData, messageSid: "SM-live-1", body: "Hello there" } });
    const { contactId } = await admin(setup, "GET", `/messages/${messageId}`);
    const { page, problems } = await openAt(`contacts/${contactId}`);
    await page.getByRole("definition").getByText("Custom channel “whatsapp-bridge”, sender id +14155550177").waitFor();

    await inbound.receive({ customData: { ...customData, messageSid: "SM-live-2", body: "How much is a membership?" } });
    await bubbles(page)
      .filter({ hasText: "How much is a membership?" })
      .filter({ hasText: "From the contact" })
      .filter({ hasText: "Received on Custom channel “whatsapp-bridge”" })
      .filter({ hasText: /Deterministic bot replied in (< 1 ms|\d+(\.\d)? ms)/ })
      .waitFor();
    const answer = bubbles(page).filter({ hasText: "29 a month." }).filter({ hasText: "Bot" });
    await answer.getByText(`Custom channel webhook → ${setup.receiver.url}: delivered`).waitFor();

    await admin(setup, "POST", `/contacts/${contactId}/replies`, { body: "Hi Cleo, Sam here." });
    await bubbles(page).filter({ hasText: "Hi Cleo, Sam here." }).filter({ hasText: "Human" }).waitFor();
    await done(page, problems);
  }, 60_000);

  it("deliveries, alerts and the queue: a webhook, a hand-off and scheduled work appear under the contact's name", async () => {
    const { page, problems } = await openAt("deliveries");
    const customData = { fromId: "+14155550178", toId: "fit-club", firstName: "Dora", lastName: "Delivery" };
    await (await custom()).receive({ customData: { ...customData, messageSid: "SM-live-3", body: "How much is a membership?" } });
    const card = page.getByRole("listitem").filter({ hasText: "Reply webhook to Dora Delivery" });
    await card.filter({ hasText: "delivered" }).getByRole("link", { name: "Dora Delivery" }).waitFor();

    await nav(page, "Alerts");
    await settled(page);
    await (await custom()).receive({ customData: { ...customData, messageSid: "SM-live-4", body: "Can I talk to a person?" } });
    await page.getByRole("row").getByRole("link", { name: "Dora Delivery" }).waitFor();

    await nav(page, "Queue & clock");
    await settled(page);
    const api = await fit();
    const quinn = await api.contacts.create({ phone_number: "+14155550304", first_name: "Quinn", last_name: "Queue" });
    await api.lists.addContact(listId, { contact_id: quinn.id });
    const followUp = page.getByRole("row").filter({ hasText: "follow-up" }).filter({ hasText: "Quinn Queue" });
    await followUp.waitFor();
    const before = await page.locator("main time").first().getAttribute("datetime");
    await admin(setup, "POST", "/clock/advance", { ms: 2 * 86_400_000 });
    await expect.poll(() => followUp.count()).toBe(0);
    await expect.poll(() => page.locator("main time").first().getAttribute("datetime")).not.toBe(before);
    await done(page, problems);
  }, 60_000);

  it("journal: a /v1 request appears, with its duration in real milliseconds", async () => {
    const { page, problems } = await openAt("journal");
    await (await fit()).contacts.find({ phoneNumber: "+14155550301" });
    const row = page.getByRole("row").filter({ hasText: "findContact" }).first();
    await row.waitFor();
    const took = await row.getByRole("cell").nth(4).textContent();
    expect(took).toMatch(/^(< 1 ms|\d+(\.\d)? ms|\d+\.\d\d s)$/);
    await done(page, problems);
  }, 60_000);

  it("inbox: what reaches /__inbox appears, newest first, with its signature checked", async () => {
    const { page, problems } = await openAt("inbox");
    await page.getByText("Nothing received yet.").waitFor();
    const send = (headers: Record<string, string>, body: string) =>
      setup.cli.fetch(`${setup.cli.info.url}/__inbox/acc_fit`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const signedBody = JSON.stringify({ body: "signed by the test" });
    const at = new Date();
    const signature = new Webhook(SECRET).sign("msg_signed_1", at, signedBody);
    expect(
      (
        await send(
          { "webhook-id": "msg_signed_1", "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature },
          signedBody,
        )
      ).status,
    ).toBe(200);
    const received = page.getByRole("list", { name: "Received requests, newest first" }).getByRole("listitem");
    await received
      .filter({ hasText: "msg_signed_1" })
      .filter({ hasText: "✓ Signature verified" })
      .filter({ hasText: "Answered 200" })
      .waitFor();

    await send({ "webhook-id": "msg_unsigned_1" }, JSON.stringify({ body: "not signed" }));
    await received
      .first()
      .filter({ hasText: "msg_unsigned_1" })
      .filter({ hasText: "✗ Signature not verified" })
      .filter({ hasText: /Why: ./ })
      .waitFor();
    await received.first().getByText("Headers and body").click();
    await received.first().getByText('"body": "not signed"').waitFor();
    await done(page, problems);
  }, 60_000);

  it("settings: the webhook URL, API key and credits changed elsewhere show", async () => {
    const { page, problems } = await openAt("settings");
    await admin(setup, "PATCH", "/accounts/acc_fit", { webhookUrl: "https://hooks.example.com/intake" });
    await expect.poll(() => page.getByLabel("Webhook URL").inputValue()).toBe("https://hooks.example.com/intake");
    const { apiKey } = await admin(setup, "POST", "/accounts/acc_fit/api-key");
    await expect.poll(() => page.getByLabel("API key", { exact: true }).inputValue()).toBe(apiKey);
    await admin(setup, "POST", "/accounts/acc_fit/credits", { amount: 7, description: "Live top-up" });
    await page.getByRole("row").filter({ hasText: "Live top-up" }).filter({ hasText: "+7" }).waitFor();
    await admin(setup, "PATCH", "/accounts/acc_fit", { webhookUrl: setup.receiver.url });
    await expect.poll(() => page.getByLabel("Webhook URL").inputValue()).toBe(setup.receiver.url);
    await done(page, problems);
  }, 60_000);
});

describe("acting from the dashboard", () => {
  it("creates a contact, adds it to the campaign's list, sees the opening message go on a built-in channel, and simulates the lead's answer there", async () => {
    const { page, problems } = await openAt("contacts");
    await page.getByRole("link", { name: "New contact" }).click();
    await page.getByLabel("First name").fill("Ada");
    await page.getByLabel("Last name").fill("Studio");
    await page.getByLabel("Phone number").fill("+1 415 555 0310");
    await page.getByRole("button", { name: "Create contact" }).click();
    await expect.poll(() => heading(page)).toBe("Ada Studio");
    const contactId = page.url().match(/contacts\/(ct_[^?]+)/)![1]!;
    expect((await admin(setup, "GET", `/contacts/${contactId}`)).contact).toMatchObject({
      accountId: "acc_fit",
      firstName: "Ada",
      lastName: "Studio",
      phone: "+14155550310",
    });

    // The funnel's trigger: the list linked to the Live campaign, which says what joining does.
    const addForm = page.getByRole("form", { name: "Add to a list" });
    await addForm.getByLabel("List", { exact: true }).selectOption({ label: "Studio leads" });
    await addForm.getByText("Campaign “Studio funnel” sends its opening message.").waitFor();
    await addForm.getByRole("button", { name: "Add to list" }).click();
    await addForm.getByRole("status").filter({ hasText: "Added to Studio leads." }).waitFor();
    expect((await admin(setup, "GET", `/lists/${listId}/contacts?limit=1000`)).map((c: any) => c.id)).toContain(contactId);
    const opening = bubbles(page).filter({ hasText: "Hi Ada, welcome to the studio!" });
    await opening
      .filter({ hasText: "Opening message (template)" })
      .filter({ hasText: "Messaging app (simulated: no webhook for built-in channels)" })
      .waitFor();

    // The lead answers on the messaging app (picked: the custom channel is the default, as in the
    // admin API): the bot's answer goes there too, with no webhook, as the hint says.
    const simulate = page.getByRole("form", { name: "Simulate a message from the contact" });
    expect(await simulate.getByLabel("Channel").inputValue()).toBe("custom");
    await simulate.getByLabel("Channel").selectOption("messaging_app");
    await simulate.getByText("Stored as received on Messaging app; the bot answers there, recorded as sent with no webhook").waitFor();
    await simulate.getByLabel("Message from the contact").fill("How much is a membership?");
    await simulate.getByRole("button", { name: "Simulate message" }).click();
    await bubbles(page)
      .filter({ hasText: "How much is a membership?" })
      .filter({ hasText: "From the contact (simulated)" })
      .filter({ hasText: "Received on Messaging app" })
      .waitFor();
    await bubbles(page)
      .filter({ hasText: "29 a month." })
      .filter({ hasText: "Messaging app (simulated: no webhook for built-in channels)" })
      .waitFor();
    const { messages } = await admin(setup, "GET", `/contacts/${contactId}`);
    expect(messages.map((m: any) => [m.direction, m.source, m.channel, m.body])).toEqual([
      ["outbound", "opening", "messaging_app", "Hi Ada, welcome to the studio!"],
      ["inbound", "simulated", "messaging_app", "How much is a membership?"],
      ["outbound", "bot", "messaging_app", "29 a month."],
    ]);
    await done(page, problems);
  }, 60_000);

  it("points the webhook at the built-in inbox, simulates a text, a reaction and a file on the custom channel, and the bot's answer reaches the inbox signed", async () => {
    const { page, problems } = await openAt("settings");
    await page.getByRole("button", { name: "Use the built-in inbox" }).click();
    await page.getByRole("status").filter({ hasText: "Webhooks now go to the built-in inbox" }).waitFor();
    expect((await admin(setup, "GET", "/accounts/acc_fit")).webhookUrl).toBe("/__inbox/acc_fit");
    await expect.poll(() => page.getByLabel("Webhook URL").inputValue()).toBe("/__inbox/acc_fit");

    const cora = await (await fit()).contacts.create({ phone_number: "+14155550320", first_name: "Cora", last_name: "Custom" });
    await nav(page, "Contacts");
    await page.getByRole("link", { name: "Cora Custom" }).click();
    await expect.poll(() => heading(page)).toBe("Cora Custom");
    const simulate = page.getByRole("form", { name: "Simulate a message from the contact" });
    await simulate.getByLabel("Channel").selectOption("custom");
    await simulate.getByLabel("Message from the contact").fill("How much is a membership?");
    await simulate.getByRole("button", { name: "Simulate message" }).click();
    const answer = bubbles(page).filter({ hasText: "29 a month." });
    await answer.getByText("Custom channel webhook → /__inbox/acc_fit: delivered").waitFor();

    await simulate.getByLabel("Kind of message").selectOption({ label: "A reaction to a message" });
    await simulate.getByLabel("React to").selectOption({ label: "Bot: 29 a month." });
    await simulate.getByLabel("Emoji").fill("👍");
    await simulate.getByRole("button", { name: "Simulate message" }).click();
    await bubbles(page).filter({ hasText: "Reacted 👍 to “29 a month.”" }).waitFor();

    await simulate.getByLabel("Kind of message").selectOption({ label: "A file by URL, with a caption" });
    await simulate.getByLabel("Caption").fill("My signed form");
    await simulate.getByLabel("Media URL").fill("https://files.example.com/form.pdf");
    await simulate.getByLabel("Content type").fill("application/pdf");
    await simulate.getByRole("button", { name: "Simulate message" }).click();
    await bubbles(page)
      .filter({ hasText: "My signed form" })
      .filter({ hasText: "Media (application/pdf): https://files.example.com/form.pdf" })
      .waitFor();

    const { contact, messages } = await admin(setup, "GET", `/contacts/${cora.id}`);
    expect(contact.fromId).toBe("+14155550320");
    const bot = messages.find((m: any) => m.body === "29 a month.");
    expect(messages.filter((m: any) => m.source === "simulated")).toMatchObject([
      { channel: "custom", messageType: "text", body: "How much is a membership?" },
      { channel: "custom", messageType: "reaction", body: "👍", reactionTo: bot.messageSid ?? bot.id },
      {
        channel: "custom",
        messageType: "text",
        body: "My signed form",
        mediaUrl: "https://files.example.com/form.pdf",
        mediaContentType: "application/pdf",
      },
    ]);

    await nav(page, "Inbox");
    const received = page.getByRole("list", { name: "Received requests, newest first" }).getByRole("listitem").filter({ hasText: bot.id });
    await received.filter({ hasText: "✓ Signature verified" }).filter({ hasText: "Answered 200" }).waitFor();
    await done(page, problems);
  }, 60_000);

  it("sends a test webhook to the inbox and shows its answer and signature; the inbox answers the status picked, and clears", async () => {
    await admin(setup, "PATCH", "/accounts/acc_fit", { webhookUrl: "/__inbox/acc_fit" });
    const { page, problems } = await openAt("settings");
    await page.getByRole("button", { name: "Send a test webhook" }).click();
    const result = page.getByRole("status").filter({ hasText: "Sent to /__inbox/acc_fit" });
    await result.filter({ hasText: "answered 200" }).filter({ hasText: "✓ Signature verified" }).waitFor();

    await nav(page, "Inbox");
    await page.getByLabel("Answer webhooks with").selectOption("503");
    await page.getByRole("button", { name: "Set the answer" }).click();
    await page.getByRole("status").filter({ hasText: "The inbox answers with this status from now on." }).waitFor();
    expect((await admin(setup, "GET", "/inbox/acc_fit")).answerStatus).toBe(503);

    await nav(page, "Settings");
    await page.getByRole("button", { name: "Send a test webhook" }).click();
    await result.filter({ hasText: "refused with 503" }).waitFor();

    await nav(page, "Inbox");
    await page.getByRole("listitem").filter({ hasText: "Answered 503" }).first().waitFor();
    await page.getByRole("button", { name: "Clear the inbox" }).click();
    await page.getByText("Nothing received yet.").waitFor();
    expect((await admin(setup, "GET", "/inbox/acc_fit")).requests).toEqual([]);
    await admin(setup, "PATCH", "/inbox/acc_fit", { answerStatus: 200 });
    await done(page, problems);
  }, 60_000);
});

/** The Fit Club's pages, with a record of each kind where a page shows one: a conversation on a custom channel with a file and a webhook. */
async function everyPage(): Promise<string[]> {
  const customData = {
    fromId: "+14155550190",
    toId: "fit-club",
    channel: "whatsapp-bridge",
    firstName: "Nia",
    lastName: "Narrow-Screen-With-A-Long-Name",
  };
  await (
    await custom()
  ).receive({
    customData: {
      ...customData,
      messageSid: "SM-narrow-1",
      body: "How much is a membership? ".repeat(8),
      mediaUrl: `https://files.example.com/${"long-path/".repeat(12)}form.pdf`,
      mediaContentType: "application/pdf",
    },
  });
  const [contact] = await admin(setup, "GET", "/contacts?accountId=acc_fit&q=%2B14155550190");
  return [
    "contacts",
    `contacts/${contact.id}`,
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
}

describe("the dashboard on a phone", () => {
  it("has no horizontal scroll at 420 px and no serious or critical accessibility violation on any page, the inbox's included", async () => {
    // Something in the inbox.
    await admin(setup, "PATCH", "/accounts/acc_fit", { webhookUrl: "/__inbox/acc_fit" });
    await admin(setup, "POST", "/accounts/acc_fit/test-webhook");
    const { page, problems } = await openAt("contacts", { viewport: { width: 420, height: 900 } });
    for (const path of await everyPage()) {
      await page.goto(`${new URL(setup.cli.info.dashboardUrl).origin}/__dashboard/${path}?account=acc_fit`);
      await page.locator("main h1").waitFor();
      await settled(page);
      const { scrollWidth, clientWidth, over } = await page.evaluate(() => {
        const { scrollWidth, clientWidth } = document.documentElement;
        // What sticks out, to say where in a failure.
        const over = [...document.querySelectorAll("body *")]
          .filter((element) => element.getBoundingClientRect().right > clientWidth + 0.5)
          .slice(-3)
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 60)}`);
        return { scrollWidth, clientWidth, over };
      });
      expect(scrollWidth, `${path} scrolls sideways at 420 px: ${over.join(" | ")}`).toBeLessThanOrEqual(clientWidth);
      expect(await accessibilityProblems(page), path).toEqual([]);
    }
    // Every link of the navigation is on the screen, none hidden behind another.
    const links = page.getByRole("navigation", { name: "Pages" }).getByRole("link");
    for (const box of await links.evaluateAll((all) => all.map((a) => a.getBoundingClientRect().right)))
      expect(box).toBeLessThanOrEqual(420);
    noProblems(problems);
  }, 90_000);
});

describe("the whole state replaced", () => {
  it("a reset is read again by the open page, whatever it shows", async () => {
    const { page, problems } = await openAt("contacts");
    await (await fit()).contacts.create({ phone_number: "+14155550399", first_name: "Tina", last_name: "Transient" });
    const row = page.getByRole("row").filter({ hasText: "Tina Transient" });
    await row.waitFor();
    // The seed the server started with, again: a state replaced, not an event a contact at a time.
    expect(await admin(setup, "POST", "/reset")).toMatchObject({ accounts: expect.any(Number) });
    await expect.poll(() => row.count()).toBe(0);
    await done(page, problems);
  }, 60_000);
});
