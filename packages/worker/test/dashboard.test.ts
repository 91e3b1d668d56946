// A sandbox's dashboard in Chromium, opened from the link the operator API answers: it logs in
// with the token in the link, finds its admin API under the sandbox's path, and follows what the
// API changes live (no reload); its pages' links stay under the sandbox. No script error, no
// Content-Security-Policy violation.
import { chromium, type Browser } from "playwright-core";
import { createIntakeClient } from "@intake/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CHROMIUM, noProblems } from "../../server/test/dashboard/browser.js";
import { createSandbox, startWorker, type LocalWorker } from "./support/worker.js";

let worker: LocalWorker;
let browser: Browser;
beforeAll(async () => {
  worker = await startWorker();
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
  await worker?.stop();
});

it("opens from the sandbox's link, and shows a contact created through /v1 without a reload", async () => {
  const sandbox = await createSandbox(worker, { name: "studio", demo: true });
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  const stream = page.waitForResponse(
    (response) => response.url() === `${sandbox.adminUrl}/events` || response.url().startsWith(`${sandbox.adminUrl}/events?`),
  );
  await page.goto(sandbox.dashboardUrl.replace("#", "contacts?account=acc_acme#"));
  await stream;
  await page.locator("main h1").waitFor();
  await page.getByRole("row").filter({ hasText: "Ada Lovelace" }).waitFor();
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  const api = createIntakeClient({
    auth: "bearer",
    apiKey: sandbox.accounts.find((account) => account.id === "acc_acme")!.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: (r) => worker.fetch(r),
  });
  await api.contacts.create({ phone_number: "+14155550199", first_name: "Hosted", last_name: "Lead" });
  await page.getByRole("row").filter({ hasText: "Hosted Lead" }).waitFor();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  // Its links stay under the sandbox, and a page reached by one loads in place.
  const inbox = page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Inbox" });
  expect(await inbox.getAttribute("href")).toMatch(/^\/s\/studio\/__dashboard\/inbox/);
  await inbox.click();
  await page.getByText(`${new URL(sandbox.baseUrl).origin}/s/studio/__inbox/acc_acme`).waitFor();
  // A page's address loads on its own (the page is served under the sandbox for any dashboard path).
  await page.reload();
  await page.getByText(`${new URL(sandbox.baseUrl).origin}/s/studio/__inbox/acc_acme`).waitFor();
  noProblems(problems);
  await context.close();
}, 60_000);
