/**
 * The AI bot, as a function: a conversation, its contact and campaign in; a reply, a hand-off to
 * a person, a failure said in words, or nothing out. Plug in your own with `createIntake({ bot })`,
 * or a model on any OpenAI-compatible endpoint with `createModelBot` (model-bot/). The default bot
 * is deterministic, so tests can expect its words: it answers from the campaign's FAQs, hands off
 * when asked for a person, and otherwise steers toward the campaign's goal.
 */
import type { BotFailure } from "../events/events.js";
import type { components } from "../generated/admin.js";

export type { BotFailure };

type Schemas = components["schemas"];

export interface BotInput {
  /** The message to answer. */
  message: Schemas["Message"];
  /** The whole conversation so far, oldest first, the message included. */
  conversation: Array<Schemas["Message"]>;
  contact: Schemas["Contact"];
  campaign: Schemas["Campaign"];
  account: { id: string; name: string };
  /**
   * Aborted when the server stops or its state is replaced (a reset, a restore): a bot that calls
   * out (a model endpoint) may stop waiting. Its answer then lands nowhere.
   */
  signal?: AbortSignal;
}

/** What every answer may say besides itself: that it came from a recording, not a model asked now. */
interface Said {
  replayed?: boolean;
}

export type BotOutput =
  | ({ reply: string } & Said)
  /** Asks a person to take over: an alert is raised and the bot stops for this contact. */
  | ({ handOff: { reason: string; reply?: string } } & Said)
  /**
   * No answer, and why: the message's `botOutcome` is `outcome`, its `bot.error` the sentence (what
   * happened, what to do), told on the live events and the CLI's log. The next message tries again.
   */
  | ({ failed: { outcome: BotFailure; error: string } } & Said)
  /** No answer. */
  | null;

/** What GET /__admin/bot shows of a bot. */
export type BotInfo = Schemas["BotInfo"];

/**
 * A bot: a function, which may carry what it is (`info`). A plain function is shown as `custom`;
 * the default bot is `deterministic`, the model-backed one (`createModelBot`) `model`.
 *
 * `secrets`: what the bot holds that no one may read in its words (the model-backed one's API
 * key). The server redacts them, with its own secrets, from every text a bot or a webhook
 * receiver gives before it is stored, printed or published.
 */
export type Bot = ((input: BotInput) => BotOutput | Promise<BotOutput>) & { info?: BotInfo; secrets?: readonly string[] };

/** What a bot is: its own `info`, else a function of yours. */
export function botInfoOf(bot: Bot): BotInfo {
  return bot.info ?? describeBot("custom");
}

/** A bot's info with nothing but its name (a bot that asks no model). */
export function describeBot(name: BotInfo["name"]): BotInfo {
  return { name, model: null, baseUrl: null, mode: null, recording: null, timeoutMs: null, maxTokens: null, historyLimit: null };
}

// Question words stay: "where" is what tells "Where are you?" from "Are you open?".
const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from have i in is it me my of on or our please the there this to we will with you your".split(
    " ",
  ),
);

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^\p{L}\p{N}\s]/gu, " ")
      .split(/\s+/)
      .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
      .map((w) => (w.length > 4 && w.endsWith("s") ? w.slice(0, -1) : w)),
  );
}

/** The FAQ whose question shares the most meaningful words with the message (at least half of the question's). */
export function matchFaq(text: string, faqs: Array<Schemas["Faq"]>): Schemas["Faq"] | undefined {
  const said = words(text);
  let best: { faq: Schemas["Faq"]; score: number } | undefined;
  for (const faq of faqs) {
    const asked = words(faq.question);
    if (asked.size === 0) continue;
    const shared = [...asked].filter((w) => said.has(w)).length;
    const score = shared / asked.size;
    if (shared > 0 && score >= 0.5 && (!best || score > best.score)) best = { faq, score };
  }
  return best?.faq;
}

/**
 * The campaign's hand-off phrase the message contains, as a hand-off; undefined when it has none.
 * Every bot of the server's own checks it first: a model-backed one before it asks the model.
 */
export function handOffByPhrase(
  message: Schemas["Message"],
  campaign: Schemas["Campaign"],
): { handOff: { reason: string; reply: string } } | undefined {
  const text = message.body.toLowerCase();
  const phrase = campaign.handOffPhrases.find((p) => text.includes(p.toLowerCase()));
  if (!phrase) return undefined;
  return {
    handOff: {
      reason: `The contact asked for a person ("${phrase}").`,
      reply: "Of course: I've asked a member of our team to take over, and they will reply here shortly.",
    },
  };
}

export const defaultBot: Bot = Object.assign(
  ({ message, conversation, contact, campaign }: BotInput): BotOutput => {
    const handOff = handOffByPhrase(message, campaign);
    if (handOff) return handOff;
    const faq = matchFaq(message.body, campaign.faqs);
    if (faq) return { reply: faq.answer };
    const spokenBefore = conversation.some((m) => m.direction === "outbound" && m.source === "bot");
    const name = contact.firstName ? ` ${contact.firstName}` : "";
    const goal = campaign.goal.trim();
    if (!spokenBefore) {
      const parts = [`Hi${name}, thanks for your message!`];
      if (campaign.companyInfo.trim()) parts.push(campaign.companyInfo.trim());
      if (goal) parts.push(`Can I help you ${lowerFirst(goal)}`);
      return { reply: parts.join(" ") };
    }
    return {
      reply: goal
        ? `Thanks${name}! Shall we ${lowerFirst(goal)}`
        : `Thanks${name}! A member of our team will get back to you if I can't help.`,
    };
  },
  { info: describeBot("deterministic") },
);

/** "Book a free trial class." -> "book a free trial class?" */
function lowerFirst(goal: string): string {
  const sentence = goal.replace(/[.!?]+$/, "");
  return `${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}?`;
}
