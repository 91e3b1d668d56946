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
  /**
   * The message's `content` as the endpoint gave it (and a recording keeps it): text, null, or
   * content parts (`[{ type: "text", text }, …]`); anything else is refused as what it is.
   */
  content: unknown;
  handOff: { reason: string; reply?: string } | null;
  /** The endpoint's `finish_reason` (`stop`, `length`, `tool_calls`, …). */
  finishReason: string | null;
}

/** A hand-off's reason is read by a person in an alert: a sentence or a few, not a page. */
const MAX_REASON = 1000;
const ASKED = "The model asked for a person.";

/** The number of characters as a message's size is counted (code points, as the contract's maxLength). */
export const charCount = (text: string) => [...text].length;

/** How an answer is judged: the longest message, the token cap (to say why one is empty), and what takes the key out of the words it quotes. */
export interface Limits {
  maxChars: number;
  maxTokens: number;
  redact?: (text: string) => string;
}

export function interpret(answer: ModelAnswer, { maxChars, maxTokens, redact = (text) => text }: Limits): NonNullable<BotOutput> {
  const read = textOf(answer.content, redact);
  // A hand-off tool call stands on its own: an unreadable content only loses the reply.
  if ("failed" in read && !answer.handOff) return { failed: read.failed };
  let text = "text" in read ? read.text.trim() : "";
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
    const cut =
      answer.finishReason === "length"
        ? ` It stopped at its cap of ${maxTokens} tokens before writing any: raise --model-max-tokens (a model that reasons first spends tokens on that).`
        : "";
    return {
      failed: {
        outcome: "bot_empty_answer",
        error: `The model gave an empty answer (finish reason: ${answer.finishReason ?? "none"}).${cut} The next message tries again.`,
      },
    };
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

type Read = { text: string } | { failed: { outcome: "bot_empty_answer" | "bot_unavailable"; error: string } };

/**
 * The content's text. Content parts (OpenAI's multi-part form) give their text parts, joined as
 * they came with nothing between (a part may end mid-sentence); other parts (an image, a refusal)
 * are left out, since a message carries text only. Parts with no text are an empty answer; a
 * content of another shape is one the server cannot read, named with its first characters.
 */
function textOf(content: unknown, redact: (text: string) => string): Read {
  if (content === null || content === undefined) return { text: "" };
  if (typeof content === "string") return { text: content };
  if (Array.isArray(content)) {
    const texts = content.filter(isTextPart).map((part) => part.text);
    if (texts.length > 0 || content.length === 0) return { text: texts.join("") };
    const types = [...new Set(content.map((part) => partType(part, redact)))].join(", ");
    return {
      failed: {
        outcome: "bot_empty_answer",
        error: `The model's answer holds no text: its content is ${content.length} part${content.length === 1 ? "" : "s"}, of type${content.length === 1 ? "" : "s"} ${types}, and a message carries text only. The next message tries again.`,
      },
    };
  }
  return {
    failed: {
      outcome: "bot_unavailable",
      error: `The model's answer has a content the server cannot read: ${kindOf(content)} (${clipped(redact(JSON.stringify(content) ?? String(content)))}), where text or content parts ([{"type": "text", "text": "…"}]) were expected. The next message tries again.`,
    },
  };
}

const isTextPart = (part: unknown): part is { type: "text"; text: string } =>
  typeof part === "object" &&
  part !== null &&
  (part as { type?: unknown }).type === "text" &&
  typeof (part as { text?: unknown }).text === "string";

/** A part's type as it said, or what it is when it says none. */
function partType(part: unknown, redact: (text: string) => string): string {
  const type = typeof part === "object" && part !== null ? (part as { type?: unknown }).type : undefined;
  return typeof type === "string" ? clipped(redact(type), 40) : kindOf(part);
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  const kind = typeof value;
  return kind === "object" ? "an object" : `a ${kind}`;
}

function clipped(text: string, length = 80): string {
  const chars = [...text];
  return chars.length > length ? `${chars.slice(0, length).join("")}…` : text;
}
