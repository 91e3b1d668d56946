// The funnel builder's whole journey in the browser, from the printed link alone: Debian's Chromium
// (playwright-core) with no certificate exception and no webhook receiver of the test's own, on
// `intake-server --demo` as the README starts it (its clock virtual, moved from the studio). Every
// step shows on the open page without a reload, at 1280 px and on a 420 px phone screen (where no
// page scrolls sideways).
import { createIntakeClient } from "@intake/client";
import { chromium, type Browser, type Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCli, type CliRun } from "../support/spawn.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
let browser: Browser;
beforeAll(async () => {
  // No --ignore-certificate-errors, and (below) no ignoreHTTPSErrors: the link must open as printed.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update"],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Whatever goes wrong in the page: a script error, a console error (a failed resource too), a dialog. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
  page.on("dialog", (dialog) => (problems.push(`dialog: ${dialog.message()}`), void dialog.dismiss()));
  return problems;
}

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name, exact: true }).click();
const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();
const bubbles = (page: Page) => page.getByRole("list", { name: "Conversation" }).getByRole("listitem");
const inboxItems = (page: Page) => page.getByRole("list", { name: "Received requests, newest first" }).locator(":scope > li");
/** The page's own marker: still there at the end means no step reloaded the page. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { __stayed: boolean }).__stayed = true));
const stayed = (page: Page) => page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed === true);
/** How many lines an element's text takes. */
const lines = (page: Page, locator: ReturnType<Page["locator"]>) =>
  locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.each([
  ["at 1280 px", { width: 1280, height: 900 }],
  ["at 420 px", { width: 420, height: 860 }],
])("the funnel builder's journey %s", (_, viewport) => {
  let cli: CliRun;
  beforeAll(async () => {
    // No --clock: the demo's own is one the studio can move.
    cli = await startCli(["--demo", "--port", "0", "--rate-limit", "0"]);
  }, 60_000);
  afterAll(async () => {
    await cli?.stop();
  });

  it("rehearses a funnel end to end from the printed link: the inbox, a new lead, the opening, a reply, the bot, a person, a day later", async () => {
    const page = await (await browser.newContext({ viewport })).newPage();
    const problems = watch(page);
    const fits = async (step: string) => expect(await sideways(page), `${step}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    const secret = cli.info.demoWebhookSecrets!.business!;
    const inbox = async () => {
      const response = await cli.fetch(`${cli.info.adminUrl}/inbox/acc_acme`, {
        headers: { authorization: `Bearer ${cli.info.adminToken}` },
      });
      return (await response.json()) as {
        requests: { webhookId: string | null; headers: Record<string, string>; body: string; signature: { verified: boolean } }[];
      };
    };

    // The printed link: plain HTTP on loopback, no warning, logged in, the token out of the address bar.
    expect(cli.info.dashboardUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__dashboard\/#token=adm_/);
    await page.goto(cli.info.dashboardUrl);
    await expect.poll(() => heading(page)).toBe("Contacts");
    expect(page.url()).not.toContain("token");
    await mark(page);
    await fits("contacts");

    // Empty tables say so, and what fills them.
    await nav(page, "Journal");
    await page.getByText(/^Nothing yet: each request to \/v1/).waitFor();
    await nav(page, "Queue & clock");
    await page.getByText(/^Nothing scheduled yet: openings queued/).waitFor();
    await page.getByText("Clock (virtual)").waitFor();

    // The demo's campaign: its type on one line; its FAQ answers whole, in text areas.
    await nav(page, "Campaigns");
    const type = page.locator("td", { hasText: /^Combined$/ });
    expect(await lines(page, type), "Combined fits one line").toBe(1);
    await page.getByRole("link", { name: "Spring membership funnel" }).click();
    const faqAnswer = page.getByLabel("Answer 1");
    expect(await faqAnswer.evaluate((element) => element.tagName)).toBe("TEXTAREA");
    expect(await faqAnswer.inputValue()).toBe("Memberships start at 29 dollars a month, with no joining fee this spring.");
    expect(
      await faqAnswer.evaluate((element) => element.scrollHeight - element.clientHeight),
      "the whole answer shows",
    ).toBeLessThanOrEqual(1);
    await fits("campaign");

    // The demo's first delivery, delivered to the inbox inside the server, its signature verified.
    await nav(page, "Inbox");
    const first = inboxItems(page).first();
    await first.getByText("✓ Signature verified").waitFor();
    await first.getByText("Answered 200").waitFor();
    await fits("inbox");
    await nav(page, "Deliveries");
    await page.getByText("delivered", { exact: true }).first().waitFor();
    // Its lead's message, badged as the demo's.
    await nav(page, "Contacts");
    await page.getByRole("link", { name: "Grace Hopper" }).first().click();
    await bubbles(page).filter({ hasText: "Hi! How much is a membership?" }).getByText("simulated by the demo at start").waitFor();

    // A new lead, made in the UI, added to the campaign's list: the opening message goes on the built-in channel.
    await nav(page, "Contacts");
    await page.getByLabel("First name").fill("Lin");
    await page.getByLabel("Last name").fill("Lead");
    await page.getByLabel("Phone number").fill("+1 415 555 0142");
    await page.getByRole("button", { name: "Create contact" }).click();
    await expect.poll(() => heading(page)).toBe("Lin Lead");
    const addToList = page.getByRole("form", { name: "Add to a list" });
    await addToList.getByLabel("List", { exact: true }).selectOption({ label: "Spring funnel leads" });
    await addToList.getByRole("button", { name: "Add to list" }).click();
    const opening = bubbles(page).filter({ hasText: "Hi Lin, thanks for your interest in Acme Fitness!" });
    await opening.filter({ hasText: "Opening message" }).filter({ hasText: "simulated: no webhook for built-in channels" }).waitFor();
    await fits("conversation");

    // The lead answers on the custom channel: the bot's answer goes to the inbox.
    // The channel the admin API defaults to, whatever the opening went on; the hint follows the pick.
    const simulate = page.getByRole("form", { name: "Simulate a message from the contact" });
    const picked = simulate.getByLabel("Channel");
    expect(await picked.inputValue()).toBe("custom");
    await simulate.getByText("the bot's answer goes to the account's webhook URL").waitFor();
    await picked.selectOption("sms");
    await simulate.getByText("Stored as received on SMS; the bot answers there, recorded as sent with no webhook").waitFor();
    await picked.selectOption("custom");
    await simulate.getByLabel("Message from the contact").fill("How much is a membership?");
    await simulate.getByRole("button", { name: "Simulate message" }).click();
    await bubbles(page)
      .filter({ hasText: "How much is a membership?" })
      .filter({ hasText: "From the contact (simulated)" })
      .getByText("simulated in the dashboard")
      .waitFor();
    const answer = bubbles(page).filter({ hasText: "Memberships start at 29 dollars a month" });
    await answer.filter({ hasText: "Bot" }).filter({ hasText: "delivered" }).waitFor();

    // In the inbox, newest first: the bot's answer, signed with the account's secret.
    await nav(page, "Inbox");
    const newest = inboxItems(page).first();
    await newest.filter({ hasText: "Memberships start at 29 dollars a month" }).getByText("✓ Signature verified").waitFor();
    await fits("inbox, the bot's answer in it");
    const received = (await inbox()).requests[0]!;
    // Checked again here, as a receiver would, with the secret the server printed.
    expect(new Webhook(secret).verify(received.body, received.headers)).toMatchObject({
      body: expect.stringContaining("Memberships start at 29 dollars a month"),
      toId: "+14155550142",
    });
    await page.goBack();
    await expect.poll(() => heading(page)).toBe("Lin Lead");

    // A person replies: delivered to the inbox too.
    await page.getByLabel("Reply as a person").fill("Hi Lin, Sam from the front desk here: see you Tuesday?");
    await page.getByRole("button", { name: "Send reply" }).click();
    await bubbles(page).filter({ hasText: "see you Tuesday?" }).filter({ hasText: "Human" }).filter({ hasText: "delivered" }).waitFor();
    expect((await inbox()).requests[0]).toMatchObject({ body: expect.stringContaining("see you Tuesday?"), signature: { verified: true } });

    // A second lead comes in through /v1, as a landing page's backend sends it: the open contacts page shows it.
    await nav(page, "Contacts");
    const api = createIntakeClient({
      auth: "bearer",
      apiKey: cli.info.demoKeys!.business!,
      baseUrl: cli.info.baseUrl,
      fetch: (request) => cli.fetch(request as never),
      maxRetries: 0,
    });
    const quiet = await api.contacts.create({ phone_number: "+14155550143", first_name: "Quinn", last_name: "Quiet" });
    await api.lists.addContact("lst_spring_leads", { contact_id: quiet.id });
    await page.getByText("Quinn Quiet").first().waitFor();
    await page.getByRole("link", { name: "Quinn Quiet" }).first().waitFor();

    // A day on the virtual clock: the lead who did not answer gets the follow-up.
    await nav(page, "Queue & clock");
    await page.locator("tbody tr").filter({ hasText: "follow-up" }).filter({ hasText: "Quinn Quiet" }).waitFor();
    await page.getByRole("button", { name: "Advance a day" }).click();
    await nav(page, "Contacts");
    await page.getByRole("link", { name: "Quinn Quiet" }).first().click();
    await bubbles(page).filter({ hasText: "Just checking in: still keen on a free class?" }).filter({ hasText: "Follow-up" }).waitFor();
    await fits("the follow-up");

    expect(await stayed(page)).toBe(true);
    expect(problems, problems.join("\n")).toEqual([]);
    await page.context().close();
  }, 120_000);
});
