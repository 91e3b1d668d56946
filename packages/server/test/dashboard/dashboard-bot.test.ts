// What the dashboard shows of the bot, in Chromium against the CLI's server. Started with a bot
// module (`--bot FILE`) that says it is a model replaying a recording, each outcome on demand:
// each received message's bubble names the model, says what came of asking it in words (a reply,
// a hand-off, a timeout, a refused key, a question with no recording) with its latency and the
// error sentence; the campaign page and the top of the conversation say which bot answers on this
// server. At 420 px neither page scrolls sideways, and axe finds no serious or critical violation.
// Then started with the model bot itself (`--model`) against an OpenAI-compatible endpoint on
// 127.0.0.1: its reply, a refused key and a timeout show the same way.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityProblems, admin, channel, noProblems, openTab, setUp, type Setup } from "./browser.js";
import { refuses, said, startFakeModel, type FakeModel } from "../support/fake-model.js";

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

/** A Live campaign, the account's default (custom-channel messages reach its bot), replies to the built-in inbox. */
async function liveCampaign(): Promise<string> {
  const id = (
    await admin(setup, "POST", "/campaigns", {
      accountId: "acc_fit",
      name: "Trial week",
      state: "Live",
      channel: "messaging_app",
      goal: "Book a first class.",
    })
  ).id;
  await admin(setup, "PATCH", "/accounts/acc_fit", { defaultCampaignId: id, webhookUrl: "/__inbox/acc_fit" });
  return id;
}

/** Says `body` on the custom channel as the lead `fromId`; the contact's id. */
async function say(fromId: string, sid: string, body: string): Promise<string> {
  const { messageId } = await (
    await channel(setup)
  ).messages.receive({ customData: { fromId, toId: "fit-club", firstName: "Maya", lastName: "Model", messageSid: sid, body } });
  return (await admin(setup, "GET", `/messages/${messageId}`)).contactId;
}

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
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, `${what} scrolls sideways at 420 px`).toBeLessThanOrEqual(clientWidth);
  expect(await accessibilityProblems(page), what).toEqual([]);
}

describe("the bot on the dashboard: a bot that says it is a model replaying a recording", () => {
  let campaignId: string;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "intake-dashboard-bot-"));
    const botFile = join(folder, "model-bot.mjs");
    writeFileSync(botFile, BOT_MODULE);
    setup = await setUp(["--bot", botFile]);
    campaignId = await liveCampaign();
  }, 60_000);
  afterAll(async () => {
    await setup?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("conversation: each message the bot was asked about names the model, its outcome in words, its latency, replayed or not, and why it failed", async () => {
    const lead = (sid: string, body: string) => say("+14155550501", sid, body);
    const contactId = await lead("SM-bot-1", "What time are the evening classes?");
    const { page, problems } = await openAt(`contacts/${contactId}`, 420);

    // The top of the conversation: the bot answering on this server.
    await page
      .getByRole("definition")
      .getByText("active: Model llama3.2 — replaying from model-replies.json, no endpoint called")
      .waitFor();
    const asked = (body: string) => bubbles(page).filter({ hasText: body }).filter({ hasText: "From the contact" });
    const replied = asked("What time are the evening classes?");
    await replied.filter({ hasText: "replayed from the recording" }).waitFor();
    expect(await replied.locator(".bot-run").innerText()).toMatch(
      new RegExp(`^Model llama3\\.2 replied in ${LATENCY.source}\\s*replayed from the recording$`),
    );
    await bubbles(page).filter({ hasText: "Evening classes start at 6:00 and 7:30 pm on weekdays." }).filter({ hasText: "Bot" }).waitFor();

    // Failures, in words, each with its error sentence; the next message is asked again.
    await lead("SM-bot-2", "Is there parking?");
    const timedOut = asked("Is there parking?").locator(".bot-run");
    await timedOut.getByText("Why: The model gave no answer within 1 s").waitFor();
    expect(await timedOut.innerText()).toMatch(/^✗ Model llama3\.2 timed out after 1(\.\d)? s\n/);
    await lead("SM-bot-3", "Do you have a pool?");
    await asked("Do you have a pool?").getByText("Model llama3.2 failed: no recording of this question (replay)").waitFor();
    await asked("Do you have a pool?")
      .getByText(/^Why: No recording of what was asked/)
      .waitFor();
    await lead("SM-bot-4", "Are you open on Sundays?");
    const refused = asked("Are you open on Sundays?");
    await refused
      .getByText(new RegExp(`Model llama3\\.2 failed: key refused by the endpoint \\(401 or 403\\) after ${LATENCY.source}`))
      .waitFor();
    await refused.getByText("Why: The endpoint refused the key (401 Unauthorized: Incorrect API key provided).").waitFor();

    // A hand-off asked for by the model; then the contact is paused, and the bot is not asked.
    await lead("SM-bot-5", "Can my company get a corporate plan?");
    await asked("Can my company get a corporate plan?")
      .getByText(new RegExp(`Model llama3\\.2 handed off to a person in ${LATENCY.source}`))
      .waitFor();
    await lead("SM-bot-6", "Hello?");
    await asked("Hello?").getByText("Bot not asked: the bot is paused for this contact (a person answers).").waitFor();
    const [first] = (await admin(setup, "GET", `/contacts/${contactId}`)).messages;
    expect(first.bot).toMatchObject({ name: "model", model: "llama3.2", replayed: true, error: null });

    await fitsAndPasses(page, "the conversation");
    noProblems(problems);
  }, 60_000);

  it("conversation: a latency reads in the unit of its rounded figure (999.6 ms is 1.00 s, a timeout then 1 s; 9.97 ms is 10 ms)", async () => {
    const latencies: Record<string, number> = {
      "What time are the evening classes?": 999.6,
      "Is there parking?": 999.6,
      "Can my company get a corporate plan?": 9.97,
    };
    let contactId = "";
    for (const [n, body] of Object.keys(latencies).entries()) contactId = await say("+14155550502", `SM-round-${n}`, body);
    // A timer may fire a little before its second by the clock that measures it: once the bot has
    // answered all three, their latencies are set through the snapshot so the figures on the page are known.
    let snapshot: any;
    const botRuns = () => snapshot.records.message.filter((m: any) => m.contactId === contactId && m.bot);
    const answered = async () => {
      snapshot = await admin(setup, "GET", "/snapshot");
      return botRuns().length;
    };
    await expect.poll(answered, { timeout: 10_000 }).toBe(3);
    for (const message of botRuns()) message.bot.latencyMs = latencies[message.body];
    await admin(setup, "PUT", "/snapshot", snapshot);

    const { page, problems } = await openAt(`contacts/${contactId}`);
    const asked = (body: string) => bubbles(page).filter({ hasText: body }).filter({ hasText: "From the contact" }).locator(".bot-run");
    await asked("What time are the evening classes?").getByText("Model llama3.2 replied in 1.00 s").waitFor();
    await asked("Is there parking?")
      .getByText(/^✗ Model llama3\.2 timed out after 1 s$/)
      .waitFor();
    await asked("Can my company get a corporate plan?").getByText("Model llama3.2 handed off to a person in 10 ms").waitFor();
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

describe("the bot on the dashboard: the model bot (--model) against an OpenAI-compatible endpoint on 127.0.0.1", () => {
  let model: FakeModel;
  let campaignId: string;
  beforeAll(async () => {
    model = await startFakeModel();
    // By the lead's last message: an answer, a refused key, or none (past the 1 s timeout).
    model.answer(({ body }) => {
      const last = body.messages.at(-1)?.content;
      if (last === "Are you open on Sundays?") return refuses(401, "Incorrect API key provided.");
      if (last === "Is there parking?") return "hang";
      return said("Evening classes start at 6:00 and 7:30 pm on weekdays.");
    });
    setup = await setUp(["--model", "llama3.2", "--model-base-url", model.baseUrl, "--model-timeout", "1000"]);
    campaignId = await liveCampaign();
  }, 60_000);
  afterAll(async () => {
    await setup?.close();
    await model?.close();
  });

  it("conversation: the model's reply with its latency, a refused key and a timeout, each in words with the endpoint's reason", async () => {
    const lead = (sid: string, body: string) => say("+14155550601", sid, body);
    const contactId = await lead("SM-model-1", "What time are the evening classes?");
    const { page, problems } = await openAt(`contacts/${contactId}`);
    await page
      .getByRole("definition")
      .getByText(`active: Model llama3.2 at ${model.baseUrl} — live: every answer from the endpoint`)
      .waitFor();
    const asked = (body: string) => bubbles(page).filter({ hasText: body }).filter({ hasText: "From the contact" }).locator(".bot-run");
    await asked("What time are the evening classes?")
      .getByText(new RegExp(`^Model llama3\\.2 replied in ${LATENCY.source}$`))
      .waitFor();
    await bubbles(page).filter({ hasText: "Evening classes start at 6:00 and 7:30 pm on weekdays." }).filter({ hasText: "Bot" }).waitFor();

    await lead("SM-model-2", "Are you open on Sundays?");
    await asked("Are you open on Sundays?")
      .getByText(new RegExp(`Model llama3\\.2 failed: key refused by the endpoint \\(401 or 403\\) after ${LATENCY.source}`))
      .waitFor();
    await asked("Are you open on Sundays?")
      .getByText(/^Why: .*Incorrect API key provided/)
      .waitFor();
    await lead("SM-model-3", "Is there parking?");
    await asked("Is there parking?")
      .getByText(/^✗ Model llama3\.2 timed out after 1(\.\d)? s$/)
      .waitFor();
    await asked("Is there parking?")
      .getByText(/^Why: ./)
      .waitFor();
    expect(model.requests.map((r) => r.body.messages.at(-1)?.content)).toEqual([
      "What time are the evening classes?",
      "Are you open on Sundays?",
      "Is there parking?",
    ]);
    noProblems(problems);
  }, 60_000);

  it("campaign page: the model, its endpoint, live, its timeout, token cap and history", async () => {
    const { page, problems } = await openAt(`campaigns/${campaignId}`);
    const active = page.getByRole("group", { name: "Bot on this server" });
    await active.getByText(`Bot on this server: Model llama3.2 at ${model.baseUrl} — live: every answer from the endpoint`).waitFor();
    await active.getByText(/It times out after 1 s, answers in at most 400 tokens, sees the latest 20 messages\./).waitFor();
    noProblems(problems);
  }, 60_000);
});
