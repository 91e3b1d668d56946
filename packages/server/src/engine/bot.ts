/**
 * The AI bot, as a function: a conversation, its contact and campaign in; a reply, a hand-off to
 * a person, or nothing out. Plug in your own model with `createIntake({ bot })`. The default bot
 * is deterministic, so tests can expect its words: it answers from the campaign's FAQs, hands off
 * when asked for a person, and otherwise steers toward the campaign's goal.
 */
import type { components } from "../generated/admin.js";

type Schemas = components["schemas"];

export interface BotInput {
  /** The message to answer. */
  message: Schemas["Message"];
  /** The whole conversation so far, oldest first, the message included. */
  conversation: Array<Schemas["Message"]>;
  contact: Schemas["Contact"];
  campaign: Schemas["Campaign"];
  account: { id: string; name: string };
}

export type BotOutput =
  | { reply: string }
  /** Asks a person to take over: an alert is raised and the bot stops for this contact. */
  | { handOff: { reason: string; reply?: string } }
  /** No answer. */
  | null;

export type Bot = (input: BotInput) => BotOutput | Promise<BotOutput>;

// Question words stay: "where" is what tells "Where are you?" from "Are you open?".
const STOP_WORDS = new Set("a an and are as at be by can do does for from have i in is it me my of on or our please the there this to we will with you your".split(" "));

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

export const defaultBot: Bot = ({ message, conversation, contact, campaign }) => {
  const text = message.body.toLowerCase();
  const phrase = campaign.handOffPhrases.find((p) => text.includes(p.toLowerCase()));
  if (phrase) {
    return {
      handOff: {
        reason: `The contact asked for a person ("${phrase}").`,
        reply: "Of course: I've asked a member of our team to take over, and they will reply here shortly.",
      },
    };
  }
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
  return { reply: goal ? `Thanks${name}! Shall we ${lowerFirst(goal)}` : `Thanks${name}! A member of our team will get back to you if I can't help.` };
};

/** "Book a free trial class." -> "book a free trial class?" */
function lowerFirst(goal: string): string {
  const sentence = goal.replace(/[.!?]+$/, "");
  return `${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}?`;
}
