/**
 * The bot in words: which one answered a received message (the built-in one, a model by its
 * name, your function), what came of it, how long it took and why it failed; and which bot
 * answers on this server (GET /__admin/bot), set when the server started.
 */
import { admin, type Message, type Schemas } from "../api/admin.js";
import { useLoad } from "../ui/load.js";
import { duration } from "../ui/text.js";

type BotRun = Schemas["BotRun"];
type BotInfo = Schemas["BotInfo"];

/** Who a bot is, by the name a person reads: "Deterministic bot", "Model llama3.2", "Your bot function". */
export function botName(name: BotRun["name"], model: string | null): string {
  if (name === "model") return model ? `Model ${model}` : "The model-backed bot";
  return name === "custom" ? "Your bot function" : "Deterministic bot";
}

/** A timeout as a person says it: "30 s", "2.5 s", "800 ms". */
function seconds(ms: number): string {
  return ms < 999.5 ? duration(ms) : `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * What came of asking the bot, by `botOutcome`: the rest of a sentence that starts with the bot's
 * name, and the latency after `timed` ("replied in 812 ms", "timed out after 30 s"). `failed`
 * marks the ones where it gave no answer: a ✗ and the words say so, not a colour alone.
 */
const ASKED: Record<string, { what: string; timed?: "in" | "after"; failed?: true }> = {
  replied: { what: "replied", timed: "in" },
  handed_off: { what: "handed off to a person", timed: "in" },
  no_answer: { what: "chose not to answer", timed: "in" },
  bot_error: { what: "failed: it threw an error", timed: "after", failed: true },
  bot_unconfigured: { what: "was not asked: no API key for its endpoint", failed: true },
  bot_refused: { what: "failed: key refused by the endpoint (401 or 403)", timed: "after", failed: true },
  bot_timeout: { what: "timed out", timed: "after", failed: true },
  bot_rate_limited: { what: "failed: rate-limited by the endpoint (429)", timed: "after", failed: true },
  bot_unavailable: { what: "failed: the endpoint was unavailable (a 5xx, or not reachable)", timed: "after", failed: true },
  bot_empty_answer: { what: "failed: an empty answer", timed: "after", failed: true },
  bot_oversized_answer: { what: "failed: an answer longer than a message may be", timed: "after", failed: true },
  bot_not_recorded: { what: "failed: no recording of this question (replay)", failed: true },
};

/** True when the bot was asked and failed to answer: the ones "Try the bot again" asks again. */
export const botFailed = (outcome: string | null): boolean => !!outcome && ASKED[outcome]?.failed === true;

/** Why the bot was not asked at all, by `botOutcome`. */
const NOT_ASKED: Record<string, string> = {
  reaction: "a reaction, which the bot does not answer",
  no_campaign: "no campaign to answer for (none named, and the account has no default)",
  outgoing_campaign: "the campaign is Outgoing, which does not answer",
  campaign_not_live: "the campaign is not Live",
  bot_inactive: "the campaign's bot is off",
  contact_paused: "the bot is paused for this contact (a person answers)",
  no_credits: "the account has no credits left",
};

/** A received message's bot line: who answered, what came of it, how long it took, replayed or not; and the error. */
export function BotRunLine({ message }: { message: Message }) {
  const outcome = message.botOutcome;
  if (!outcome) return null;
  const run = message.bot;
  const asked = ASKED[outcome];
  const reason = NOT_ASKED[outcome];
  // Not asked; or a message stored before runs were kept, its outcome alone.
  if (!run) return <p class="bot-run">{reason ? `Bot not asked: ${reason}.` : `Bot: ${asked?.what ?? spaced(outcome)}.`}</p>;
  const took = outcome === "bot_timeout" ? seconds(run.latencyMs) : duration(run.latencyMs);
  const what = asked ? `${asked.what}${asked.timed ? ` ${asked.timed} ${took}` : ""}` : `${reason ?? spaced(outcome)} (${took})`;
  return (
    <div class={`bot-run${asked?.failed ? " failed" : ""}`}>
      <p>
        {asked?.failed ? <span aria-hidden="true">✗ </span> : null}
        <strong>{botName(run.name, run.model)}</strong> {what}
        {run.replayed ? <span class="badge">replayed from the recording</span> : null}
      </p>
      {run.error ? <p class="bot-error">Why: {run.error}</p> : null}
    </div>
  );
}

const spaced = (outcome: string) => outcome.replaceAll("_", " ");

/** The active bot in a phrase: "Deterministic bot (built-in)", "Model llama3.2 at http://… — replaying from model-replies.json". */
export function activeBot(info: BotInfo): string {
  if (info.name === "deterministic") return "Deterministic bot (built-in)";
  if (info.name === "custom") return "Your bot function (--bot FILE, or createIntake({ bot }))";
  const where = info.baseUrl ? ` at ${info.baseUrl}` : "";
  const file = info.recording ?? "the recording file";
  const mode = {
    live: " — live: every answer from the endpoint",
    record: ` — recording to ${file}`,
    replay: ` — replaying from ${file}, no endpoint called`,
  }[info.mode ?? "live"];
  return `${botName("model", info.model)}${info.mode === "replay" ? "" : where}${mode}`;
}

/** The model-backed bot's limits in words: its timeout, token cap and history. */
export function botLimits(info: BotInfo): string | null {
  const limits = [
    info.timeoutMs !== null ? `times out after ${seconds(info.timeoutMs)}` : null,
    info.maxTokens !== null ? `answers in at most ${info.maxTokens} tokens` : null,
    info.historyLimit !== null ? `sees the latest ${info.historyLimit} messages` : null,
  ].filter(Boolean);
  return limits.length ? `${limits.join(", ")}.` : null;
}

const ABOUT: Record<BotInfo["name"], string> = {
  deterministic:
    "It answers from the campaign's FAQs, hands off on a hand-off phrase, and otherwise steers toward the goal: the same words every time.",
  model:
    "It answers from the campaign's language, bot instructions, company info, FAQs, resources and goal; a hand-off phrase still hands off before it is asked.",
  custom: "A function of yours answers, given the message, the conversation, the contact and the campaign.",
};

/** The bot that answers on this server: set at its start, so loaded once a page. */
export const useActiveBot = () => useLoad(() => admin().bot(), []);

/** Which bot answers on this server, and how: every campaign's, set when the server started. */
export function ActiveBot({ info }: { info: BotInfo }) {
  const limits = botLimits(info);
  return (
    <div class="note active-bot" role="group" aria-label="Bot on this server">
      <p>
        <strong>Bot on this server:</strong> {activeBot(info)}
      </p>
      <p class="muted">
        {ABOUT[info.name]}
        {limits ? ` It ${limits}` : ""} Set when the server starts (every campaign's).
      </p>
    </div>
  );
}
