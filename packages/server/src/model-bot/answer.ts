/**
 * What the model answered, made into the bot's answer: a reply, a hand-off (its tool called, or a
 * first line `HANDOFF: <reason>`), or why there is none (empty, longer than a message may be).
 * The same for an answer from the endpoint and one from a recording, so a replay ends as the
 * rehearsal did.
 */
import type { BotOutput } from "../engine/bot.js";
import { HAND_OFF_LINE } from "./prompt.js";

/** The model's answer as it came: its text, the hand-off tool's arguments if it called it, and why it stopped. */
export interface ModelAnswer {
  content: string | null;
  handOff: { reason: string; reply?: string } | null;
  /** The endpoint's `finish_reason` (`stop`, `length`, `tool_calls`, …). */
  finishReason: string | null;
}

/** A hand-off's reason is read by a person in an alert: a sentence or a few, not a page. */
const MAX_REASON = 1000;
const ASKED = "The model asked for a person.";

/** The number of characters as a message's size is counted (code points, as the contract's maxLength). */
export const charCount = (text: string) => [...text].length;

export function interpret(answer: ModelAnswer, { maxChars, maxTokens }: { maxChars: number; maxTokens: number }): NonNullable<BotOutput> {
  let text = (answer.content ?? "").trim();
  let handOff = answer.handOff;
  const lines = text.split("\n");
  if (!handOff && lines[0]!.trim().toUpperCase().startsWith(HAND_OFF_LINE)) {
    handOff = { reason: lines[0]!.trim().slice(HAND_OFF_LINE.length).trim() };
    text = lines.slice(1).join("\n").trim();
  }
  if (handOff) {
    let reason = handOff.reason.trim() || ASKED;
    let reply = handOff.reply?.trim() || text || undefined;
    if (reply && charCount(reply) > maxChars) {
      // The hand-off matters more than its words: the person is asked for, the reply is not sent.
      reason = `${reason} (Its reply to the contact, ${charCount(reply)} characters, was longer than a message may be, ${maxChars}, and was not sent.)`;
      reply = undefined;
    }
    return { handOff: { reason: [...reason].slice(0, MAX_REASON).join(""), ...(reply ? { reply } : {}) } };
  }
  if (!text) {
    const cut = answer.finishReason === "length" ? ` It stopped at its cap of ${maxTokens} tokens before writing any: raise --model-max-tokens (a model that reasons first spends tokens on that).` : "";
    return { failed: { outcome: "bot_empty_answer", error: `The model gave an empty answer (finish reason: ${answer.finishReason ?? "none"}).${cut} The next message tries again.` } };
  }
  const size = charCount(text);
  if (size > maxChars) {
    return {
      failed: {
        outcome: "bot_oversized_answer",
        error: `The model's answer has ${size} characters, more than a message may hold (${maxChars}); it was not sent. Ask for short answers in the bot instructions, or lower --model-max-tokens. The next message tries again.`,
      },
    };
  }
  return { reply: text };
}
