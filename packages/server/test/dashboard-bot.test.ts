// What the dashboard shows of the bot, in Chromium against the CLI's server started with a bot
// module (`--bot FILE`) that says it is a model replaying a recording: each received message's
// bubble names the model, says what came of asking it in words (a reply, a hand-off, a timeout, a
// refused key, a question with no recording) with its latency and the error sentence; the
// campaign page and the top of the conversation say which bot answers on this server. At 420 px
// neither page scrolls sideways, and axe finds no serious or critical violation.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, admin, channel, noProblems, openTab, setUp, type Setup } from "./dashboard/browser.js";

// The bot's info as a model-backed bot in replay mode gives it; its answers, by the message. A
// timeout takes its time (a real second), so the latency shown is one.
const BOT_MODULE = `
const info = { name: "model", model: "llama3.2", baseUrl: "http://127.0.0.1:11434/v1", mode: "replay", recording: "model-replies.json", timeoutMs: 1000, maxTokens: 300, historyLimit: 20 };
const answers = {
  "What time are the evening classes?": { reply: "Evening classes start at 6:00 and 7:30 pm on weekdays.", replayed: true },
  "Can my company get a corporate plan?": { handOff: { reason: "The lead asks about a corporate plan.", reply: "I've asked our membership team to get in touch." }, replayed: true },
  "Is there parking?": { failed: { outcome: "bot_timeout", error: "The model gave no answer within 1 s (http://127.0.0.1:11434/v1): try again, or raise --model-timeout." } },
  "Do you have a pool?": { failed: { outcome: "bot_not_recorded", error: "No recording of what was asked (the last message: \\"Do you have a pool?\\"): record it with --model-record." } },
  "Are you open on Sundays?": { failed: { outcome: "bot_refused", error: "The endpoint refused the key (401 Unauthorized: Incorrect API key provided)." } },
};
export default Object.assign(async ({ message }) => {
  const answer = answers[message.body] ?? { reply: "Thanks!" };
  if (answer.failed?.outcome === "bot_timeout") await new Promise((resolve) => setTimeout(resolve, 1000));
  return answer;
}, { info });
`;

let setup: Setup;
let campaignId: string;

beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), "intake-dashboard-bot-"));
  const botFile = join(folder, "model-bot.mjs");
  writeFileSync(botFile, BOT_MODULE);
  setup = await setUp(["--bot", botFile]);
  campaignId = (await admin(setup, "POST", "/campaigns", { accountId: "acc_fit", name: "Trial week", state: "Live", channel: "messaging_app", goal: "Book a first class." })).id;
  await admin(setup, "PATCH", "/accounts/acc_fit", { defaultCampaignId: campaignId, webhookUrl: "/__inbox/acc_fit" });
}, 60_000);
afterAll(async () => {
  await setup?.close();
});

const bubbles = (page: Page) => page.getByRole("list", { name: "Conversation" }).getByRole("listitem");
const LATENCY = /(< 1 ms|\d+(\.\d)? ms|\d+\.\d\d s)/;

async function openAt(path: string, width?: number) {
  const tab = await openTab(setup, width ? { viewport: { width, height: 900 } } : {});
  await tab.page.goto(setup.cli.info.dashboardUrl.replace("#", `${path}?account=acc_fit#`));
  await tab.page.locator("main h1").waitFor();
  await expect.poll(() => tab.page.getByText("Loading…").count()).toBe(0);
  return tab;
}

/** The page fits 420 px with no sideways scroll, and axe finds nothing serious. */
async function fitsAndPasses(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  expect(scrollWidth, `${what} scrolls sideways at 420 px`).toBeLessThanOrEqual(clientWidth);
  expect(await accessibilityProblems(page), what).toEqual([]);
}

describe("the bot on the dashboard", () => {
  it("conversation: each message the bot was asked about names the model, its outcome in words, its latency, replayed or not, and why it failed", async () => {
    const inbound = (await channel(setup)).messages;
    const customData = { fromId: "+14155550501", toId: "fit-club", firstName: "Maya", lastName: "Model" };
    const say = (sid: string, body: string) => inbound.receive({ customData: { ...customData, messageSid: sid, body } });
    const { messageId } = await say("SM-bot-1", "What time are the evening classes?");
    const { contactId } = await admin(setup, "GET", `/messages/${messageId}`);
    const { page, problems } = await openAt(`contacts/${contactId}`, 420);

    // The top of the conversation: the bot answering on this server.
    await page.getByRole("definition").getByText("active: Model llama3.2 — replaying from model-replies.json, no endpoint called").waitFor();
    const asked = (body: string) => bubbles(page).filter({ hasText: body }).filter({ hasText: "From the contact" });
    const replied = asked("What time are the evening classes?");
    await replied.filter({ hasText: "replayed from the recording" }).waitFor();
    expect(await replied.locator(".bot-run").innerText()).toMatch(new RegExp(`^Model llama3\\.2 replied in ${LATENCY.source}\\s*replayed from the recording$`));
    await bubbles(page).filter({ hasText: "Evening classes start at 6:00 and 7:30 pm on weekdays." }).filter({ hasText: "Bot" }).waitFor();

    // Failures, in words, each with its error sentence; the next message is asked again.
    await say("SM-bot-2", "Is there parking?");
    const timedOut = asked("Is there parking?").locator(".bot-run");
    await timedOut.getByText("Why: The model gave no answer within 1 s").waitFor();
    expect(await timedOut.innerText()).toMatch(/^✗ Model llama3\.2 timed out after 1(\.\d)? s\n/);
    await say("SM-bot-3", "Do you have a pool?");
    await asked("Do you have a pool?").getByText("Model llama3.2 failed: no recording of this question (replay)").waitFor();
    await asked("Do you have a pool?").getByText(/^Why: No recording of what was asked/).waitFor();
    await say("SM-bot-4", "Are you open on Sundays?");
    const refused = asked("Are you open on Sundays?");
    await refused.getByText(new RegExp(`Model llama3\\.2 failed: key refused by the endpoint \\(401 or 403\\) after ${LATENCY.source}`)).waitFor();
    await refused.getByText("Why: The endpoint refused the key (401 Unauthorized: Incorrect API key provided).").waitFor();

    // A hand-off asked for by the model; then the contact is paused, and the bot is not asked.
    await say("SM-bot-5", "Can my company get a corporate plan?");
    await asked("Can my company get a corporate plan?").getByText(new RegExp(`Model llama3\\.2 handed off to a person in ${LATENCY.source}`)).waitFor();
    await say("SM-bot-6", "Hello?");
    await asked("Hello?").getByText("Bot not asked: the bot is paused for this contact (a person answers).").waitFor();
    const stored = await admin(setup, "GET", `/messages/${messageId}`);
    expect(stored.bot).toMatchObject({ name: "model", model: "llama3.2", replayed: true, error: null });

    await fitsAndPasses(page, "the conversation");
    noProblems(problems);
  }, 60_000);

  it("campaign page: says which bot answers on this server, with its timeout, token cap and history", async () => {
    const { page, problems } = await openAt(`campaigns/${campaignId}`, 420);
    const active = page.getByRole("group", { name: "Bot on this server" });
    await active.getByText("Bot on this server: Model llama3.2 — replaying from model-replies.json, no endpoint called").waitFor();
    await active.getByText(/It times out after 1 s, answers in at most 300 tokens, sees the latest 20 messages\./).waitFor();
    expect(await admin(setup, "GET", "/bot")).toMatchObject({ name: "model", model: "llama3.2", mode: "replay" });
    await fitsAndPasses(page, "the campaign page");
    noProblems(problems);
  }, 60_000);
});
