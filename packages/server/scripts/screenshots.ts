/**
 * npm run screenshots: the README's pictures of the dashboard, taken from a real run. Starts the
 * server with a deterministic virtual clock and its webhooks going to its own inbox (which answers
 * the first one 503, so a retry shows), plays a short funnel through /v1 and the admin API (a lead,
 * the opening, questions, a hand-off, a person's reply, the lead's answer simulated), and
 * photographs the contacts, conversation, inbox and deliveries pages in Debian's Chromium, from
 * the printed link, at 1280 and 420 px.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createIntake } from "@intake/server";
import { serve } from "@intake/server/node";
import { chromium, type Browser } from "playwright-core";
import { Agent } from "undici";

const OUT = fileURLToPath(new URL("../docs/images/", import.meta.url));
const KEY = "ik_screenshots_fit_club_0001";
const TOKEN = "adm_screenshots_token_000001";
const WIDTHS = [1280, 420];

async function main() {
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
          webhookUrl: "/__inbox/acc_fit",
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
    const response = await fetch(url, {
      ...init,
      dispatcher,
      headers: { "content-type": "application/json", ...(init.headers as Record<string, string>) },
    } as RequestInit);
    if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ id: string; contact?: { id: string } }>;
  };
  const v1 = (path: string, body: unknown) =>
    call(`${server.baseUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${KEY}` }, body: JSON.stringify(body) });
  const admin = (method: string, path: string, body?: unknown) =>
    call(`${server.adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const receive = (body: string, sid: string) =>
    call(`${server.baseUrl}/incoming_custom_channel_message?apiKey=${KEY}`, {
      method: "POST",
      body: JSON.stringify({ customData: { messageSid: sid, fromId: "+14155550123", toId: "fit-club", body } }),
    });

  const lead = await v1("/contacts", { phone_number: "+14155550123", first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" });
  const contactId = lead.contact?.id ?? lead.id;
  await v1("/lists/lst_spring/contacts", { contact_id: contactId });
  await v1("/contacts", { phone_number: "+14155550124", first_name: "Grace", last_name: "Hopper" });
  await admin("POST", "/settle");
  await admin("POST", "/clock/advance", { ms: 7 * 60_000 });
  // The inbox fails the first answer's webhook: its retry, 5 s later, is delivered.
  await admin("PATCH", "/inbox/acc_fit", { answerStatus: 503 });
  await receive("How much is a membership?", "SM-shot-1");
  await admin("POST", "/settle");
  await admin("PATCH", "/inbox/acc_fit", { answerStatus: 200 });
  await admin("POST", "/clock/advance", { ms: 5 * 60_000 });
  await receive("Great. Can I speak to a person about a family plan?", "SM-shot-2");
  await admin("POST", "/settle");
  await admin("POST", "/clock/advance", { ms: 3 * 60_000 });
  await admin("POST", `/contacts/${contactId}/replies`, {
    body: "Hi Ada, Sam here from the front desk. Family plans start at 49 a month; shall I book you a visit?",
  });
  await admin("PATCH", `/contacts/${contactId}`, { botPaused: false });
  await admin("POST", "/clock/advance", { ms: 2 * 60_000 });
  await admin("POST", `/contacts/${contactId}/inbound`, { body: "And how much is a membership for two?" });
  await admin("POST", "/settle");

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
  const taken: string[] = [];
  try {
    mkdirSync(OUT, { recursive: true });
    for (const width of WIDTHS) taken.push(...(await photograph(browser, width, `${server.dashboardUrl}#token=${TOKEN}`)));
    console.log(`screenshots: ${taken.join(", ")}`);
  } finally {
    await browser.close();
    await server.close();
    await intake.close();
    await dispatcher.close();
  }
}

/** The pages at one width, opened from the printed link (plain HTTP on loopback: no certificate exception). */
async function photograph(browser: Browser, width: number, link: string): Promise<string[]> {
  const page = await (await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 })).newPage();
  const nav = (name: string) => page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name, exact: true }).click();
  const shot = async (name: string) => {
    const path = `${OUT}dashboard-${name}-${width}.png`;
    await page.screenshot({ path, fullPage: true });
    return path;
  };
  const paths: string[] = [];
  await page.goto(link.replace("#", `contacts?account=acc_fit#`));
  await page.getByRole("link", { name: "Ada Lovelace" }).first().waitFor();
  paths.push(await shot("contacts"));
  await page.getByRole("link", { name: "Ada Lovelace" }).first().click();
  await page.getByRole("list", { name: "Conversation" }).getByRole("listitem").nth(7).waitFor();
  await page
    .locator("details.attempts")
    .first()
    .evaluate((details) => ((details as HTMLDetailsElement).open = true));
  paths.push(await shot("conversation"));
  await nav("Inbox");
  await page.locator("ol.inbox > li").nth(3).waitFor();
  paths.push(await shot("inbox"));
  if (width === WIDTHS[0]) {
    await nav("Deliveries");
    await page.locator(".delivery").first().waitFor();
    paths.push(await shot("deliveries"));
  }
  await page.context().close();
  return paths;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
