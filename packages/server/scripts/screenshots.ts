/**
 * npm run screenshots: the README's pictures of the dashboard, taken from a real run. Starts the
 * built server with a virtual clock, plays a short funnel through /v1 and the admin API against a
 * local webhook receiver (its first answer a 503, so a retry shows), and photographs the
 * conversation and deliveries pages in Debian's Chromium at 1280 px; then points the webhook at the
 * server's own inbox, lets the lead answer (simulated, as the dashboard does) and sends a test
 * webhook, and photographs the inbox at 1280 px, and the conversation and inbox at 420 px.
 */
import { createServer } from "node:http";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createIntake } from "@intake/server";
import { serve } from "@intake/server/node";
import { chromium } from "playwright-core";
import { Agent } from "undici";

const OUT = fileURLToPath(new URL("../docs/images/", import.meta.url));
const KEY = "ik_screenshots_fit_club_0001";
const TOKEN = "adm_screenshots_token_000001";

async function main() {
  let answered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(answered++ === 0 ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/intake`;

  const intake = createIntake({
    // Ids from counters: the pictures change only when the dashboard does (and durations).
    deterministic: true,
    clockStart: "2026-03-02T09:00:00Z",
    adminToken: TOKEN,
    seed: {
      accounts: [
        {
          id: "acc_fit",
          name: "Fit Club",
          apiKey: KEY,
          credits: 200,
          webhookUrl: hook,
          campaigns: [
            {
              id: "cmp_spring",
              name: "Spring intake",
              type: "Combined",
              state: "Live",
              triggerOnNewListContacts: true,
              openingTemplate: { body: "Hi {{firstName}}, thanks for your interest in Fit Club! Any questions?", approval: "approved" },
              faqs: [{ question: "How much is a membership?", answer: "A membership is 29 a month, with no joining fee." }],
              handOffPhrases: ["speak to a person"],
            },
          ],
          lists: [{ id: "lst_spring", name: "Spring leads", campaignId: "cmp_spring" }],
        },
      ],
    },
  });
  const server = await serve(intake, { port: 0 });
  const dispatcher = new Agent({ connect: { ca: server.certificate } });
  const call = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, dispatcher, headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) } } as RequestInit);
    if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ id: string; contact?: { id: string } }>;
  };
  const v1 = (path: string, body: unknown) => call(`${server.baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify(body) });
  const admin = (method: string, path: string, body?: unknown) =>
    call(`${server.adminUrl}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` }, body: body === undefined ? undefined : JSON.stringify(body) });
  const receive = (body: string, sid: string) =>
    call(`${server.baseUrl}/incoming_custom_channel_message?apiKey=${KEY}`, { method: "POST", body: JSON.stringify({ customData: { messageSid: sid, fromId: "+14155550123", toId: "fit-club", body } }) });

  const lead = await v1("/contacts", { phone_number: "+14155550123", first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" });
  await v1("/lists/lst_spring/contacts", { contact_id: lead.contact?.id ?? lead.id });
  await admin("POST", "/settle");
  await admin("POST", "/clock/advance", { ms: 7 * 60_000 });
  await receive("How much is a membership?", "SM-shot-1");
  await admin("POST", "/settle");
  await admin("POST", "/clock/advance", { ms: 5 * 60_000 });
  await receive("Great. Can I speak to a person about a family plan?", "SM-shot-2");
  await admin("POST", "/settle");
  await admin("POST", "/clock/advance", { ms: 3 * 60_000 });
  const contactId = lead.contact?.id ?? lead.id;
  await admin("POST", `/contacts/${contactId}/replies`, { body: "Hi Ada, Sam here from the front desk. Family plans start at 49 a month; shall I book you a visit?" });
  await admin("POST", "/settle");

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 })).newPage();
    mkdirSync(OUT, { recursive: true });
    await page.goto(`${server.dashboardUrl}contacts/${contactId}?account=acc_fit#token=${TOKEN}`);
    await page.getByRole("list", { name: "Conversation" }).getByRole("listitem").nth(5).waitFor();
    await page.locator("details.attempts").first().evaluate((details) => ((details as HTMLDetailsElement).open = true));
    await page.screenshot({ path: `${OUT}dashboard-conversation.png`, fullPage: true });
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Deliveries" }).click();
    await page.locator(".delivery").first().waitFor();
    await page.screenshot({ path: `${OUT}dashboard-deliveries.png`, fullPage: true });

    // The studio: the built-in inbox receives the next webhooks; the lead's answer simulated.
    await admin("PATCH", "/accounts/acc_fit", { webhookUrl: "/__inbox/acc_fit" });
    await admin("POST", "/clock/advance", { ms: 2 * 60_000 });
    await admin("POST", "/accounts/acc_fit/test-webhook");
    // Sam hands the conversation back to the bot, which answers the lead's next question.
    await admin("PATCH", `/contacts/${contactId}`, { botPaused: false });
    await admin("POST", `/contacts/${contactId}/inbound`, { body: "And how much is a membership for two?" });
    await admin("POST", "/settle");
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Inbox" }).click();
    await page.locator("ol.inbox > li").nth(1).waitFor();
    await page.screenshot({ path: `${OUT}dashboard-inbox.png`, fullPage: true });

    const phone = await (await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 420, height: 900 }, deviceScaleFactor: 1 })).newPage();
    await phone.goto(`${server.dashboardUrl}contacts/${contactId}?account=acc_fit#token=${TOKEN}`);
    await phone.getByRole("list", { name: "Conversation" }).getByRole("listitem").nth(7).waitFor();
    await phone.screenshot({ path: `${OUT}dashboard-conversation-420.png`, fullPage: true });
    await phone.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Inbox" }).click();
    await phone.locator("ol.inbox > li").nth(1).waitFor();
    await phone.screenshot({ path: `${OUT}dashboard-inbox-420.png`, fullPage: true });
    console.log(`screenshots: ${["conversation", "deliveries", "inbox", "conversation-420", "inbox-420"].map((name) => `${OUT}dashboard-${name}.png`).join(", ")}`);
  } finally {
    await browser.close();
    await server.close();
    await intake.close();
    await dispatcher.close();
    receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
