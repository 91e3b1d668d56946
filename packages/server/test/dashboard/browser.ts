/** The CLI's server with a virtual clock, a webhook receiver, and Debian's Chromium, for the dashboard's tests. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createIntakeClient } from "@intake/client";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";
import { startReceiver, type Receiver } from "../support/receiver.js";
import { startCli, type CliRun } from "../support/spawn.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ADMIN_TOKEN = "adm_dashboard_test_token_000001";
export const KEY = "ik_dashboard_fit_club_key_0001";
export const SECRET = "whsec_ZGFzaGJvYXJkLXRlc3Qtc2VjcmV0LTAwMDE=";

const built = fileURLToPath(new URL("../../../dashboard/dist/index.html", import.meta.url));

export const SEED = {
  accounts: [
    { id: "acc_fit", name: "Fit Club", apiKey: KEY, credits: 50, webhookSecret: SECRET },
    {
      id: "acc_northwind",
      kind: "agency",
      name: "Northwind",
      credits: 100,
      subaccounts: [{ id: "sub_client", name: "Client One", email: "one@northwind.example", credits: 5 }],
    },
  ],
};

export interface Setup {
  cli: CliRun;
  receiver: Receiver;
  browser: Browser;
  close(): Promise<void>;
}

/** The server, Chromium and a receiver; `args` go to the CLI after the usual ones (a `--bot FILE`, say). */
export async function setUp(args: string[] = []): Promise<Setup> {
  if (!existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}. Install it (apt-get update && apt-get install -y chromium) or set CHROMIUM_PATH.`);
  if (!existsSync(built)) throw new Error("The dashboard is not built: run npm run build -w @intake/dashboard.");
  const folder = mkdtempSync(join(tmpdir(), "intake-dashboard-"));
  const seedFile = join(folder, "seed.json");
  writeFileSync(seedFile, JSON.stringify(SEED));
  const receiver = await startReceiver();
  const cli = await startCli([
    "--port",
    "0",
    "--clock",
    "virtual",
    "--seed",
    seedFile,
    "--admin-token",
    ADMIN_TOKEN,
    "--rate-limit",
    "0",
    ...args,
  ]);
  const browser = await chromium.launch({
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
  return {
    cli,
    receiver,
    browser,
    async close() {
      await browser.close();
      await cli.stop();
      await receiver.close();
    },
  };
}

/** A tab that trusts the server's generated certificate, failing the test on a script error or a Content-Security-Policy violation. */
export async function openTab(
  setup: Setup,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<{ page: Page; problems: string[] }> {
  const context = await setup.browser.newContext({ ignoreHTTPSErrors: true, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !/Failed to load resource: the server responded with a status of (401|404|409)/.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, problems };
}

// The run's fetch takes a Request as well as a URL (it adds the dispatcher that trusts the certificate).
export function v1(setup: Setup, apiKey = KEY) {
  return createIntakeClient({
    auth: "bearer",
    apiKey,
    baseUrl: setup.cli.info.baseUrl,
    fetch: (request) => setup.cli.fetch(request as never),
    maxRetries: 0,
  });
}

/** The custom channel's calls (their key goes in the query). */
export function channel(setup: Setup, apiKey = KEY) {
  return createIntakeClient({
    auth: "query",
    apiKey,
    baseUrl: setup.cli.info.baseUrl,
    fetch: (request) => setup.cli.fetch(request as never),
    maxRetries: 0,
  });
}

export async function admin(setup: Setup, method: string, path: string, body?: unknown): Promise<any> {
  const response = await setup.cli.fetch(`${setup.cli.info.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical violations on the page as it is now (run through the debugger protocol: the page's CSP allows no injected script). */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 3),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.targets.join(", ")}`);
}

export function noProblems(problems: string[]) {
  expect(problems, problems.join("\n")).toEqual([]);
}
