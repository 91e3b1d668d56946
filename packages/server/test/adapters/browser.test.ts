// The server's msw handlers and @intake/client in a real browser: headless Chromium (Debian's
// package) driven by playwright-core, requests intercepted by msw's service worker.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePage } from "../../../../test-support/serve-page.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SECRET = "whsec_YnJvd3Nlci10ZXN0LXNlY3JldC0wMDAwMDE=";

let browser: Browser | undefined;
let page: Awaited<ReturnType<typeof servePage>> | undefined;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No Chromium at ${CHROMIUM}. Install it (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  page = await servePage(new URL("../browser/funnel-page.ts", import.meta.url).pathname);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await page?.close();
});

describe("in a browser page, with msw's service worker", () => {
  it("runs a funnel round trip: lead created and found, added to the list, opening sent, a question answered through the signed reply webhook", async () => {
    const tab = await browser!.newPage();
    const console: string[] = [];
    tab.on("console", (message) => console.push(`${message.type()}: ${message.text()}`));
    tab.on("pageerror", (error) => console.push(`pageerror: ${error.message}`));
    await tab.goto(page!.url);
    await tab
      .waitForFunction(() => window.__intakeResult !== undefined, undefined, { timeout: 45_000 })
      .catch((error: Error) => {
        throw new Error(`The page did not finish: ${error.message}\nIts console:\n${console.join("\n")}`);
      });
    const outcome = (await tab.evaluate(() => window.__intakeResult)) as { ok: boolean; error?: string; result?: any };
    expect(outcome.error ?? "", console.join("\n")).toBe("");
    const result = outcome.result;

    expect(result.controlledByWorker).toBe(true);
    expect(result.lead).toMatchObject({ phone: "+14155550123", firstName: "Ada" });
    expect(result.foundId).toBe(result.lead.id);
    expect(result.membership).toMatchObject({ added: true });
    expect(result.inbound).toMatchObject({ success: true, messageId: expect.any(String) });
    expect(result.refused).toEqual({ name: "BadRequestError", status: 400, code: "INVALID_PHONE" });
    expect(result.messages).toEqual([
      { direction: "outbound", source: "opening", status: "sent", body: "Hi Ada, welcome!" },
      { direction: "inbound", source: "api_receive", status: "received", body: "How much is a membership?" },
      { direction: "outbound", source: "bot", status: "sent", body: "29 a month." },
    ]);
    expect(result.webhooks).toHaveLength(1);
    const [webhook] = result.webhooks;
    expect(webhook.url).toBe("https://hooks.acme.test/intake");
    expect(new Webhook(SECRET).verify(webhook.body, webhook.headers)).toMatchObject({ body: "29 a month.", toId: "user-1" });
    await tab.close();
  }, 60_000);
});
