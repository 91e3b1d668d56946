/**
 * What the model is asked: a system prompt made from the campaign (its language, bot
 * instructions, company info, FAQs, resources and goal) and the contact's names, then the
 * conversation so far, oldest first: the contact's messages as the user's turns, the business's
 * (the bot's answers, the opening message, follow-ups, a person's replies) as the assistant's.
 *
 * Pure, and free of anything that changes between two runs of the same conversation (no time, no
 * ids): what is asked is also the key a recording is found by (recording.ts).
 */
import type { components } from "../generated/admin.js";

type Schemas = components["schemas"];

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** How the model asks for a person: by calling the hand-off tool, or by a first line `HANDOFF: <reason>` (an endpoint without tools). */
export type HandOffBy = "tool" | "text";

export interface PromptInput {
  campaign: Schemas["Campaign"];
  contact: Schemas["Contact"];
  account: { name: string };
  /** The conversation, oldest first, the message to answer last. */
  conversation: ReadonlyArray<Schemas["Message"]>;
  /** How many of the conversation's latest messages the model sees. */
  historyLimit: number;
  handOffBy: HandOffBy;
  /** The longest answer a message may carry, in characters. */
  maxChars: number;
}

export const HAND_OFF_TOOL_NAME = "hand_off_to_person";
/** The first line of an answer that asks for a person, when the endpoint takes no tools. */
export const HAND_OFF_LINE = "HANDOFF:";

/** The chat messages for one question: the system prompt, then the conversation's latest turns. */
export function buildPrompt(input: PromptInput): ChatMessage[] {
  return [{ role: "system", content: systemPrompt(input) }, ...history(input.conversation, input.historyLimit)];
}

function systemPrompt({ campaign, contact, account, handOffBy, maxChars }: PromptInput): string {
  const sections = [
    `You are the assistant of ${account.name}, writing to a contact in a text conversation (campaign "${campaign.name}").`,
    `Write in ${languageName(campaign.language)}. Keep answers short and friendly, in plain text: a few sentences, never more than ${maxChars} characters.`,
  ];
  const section = (title: string, text: string) => {
    if (text.trim()) sections.push(`${title}\n${text.trim()}`);
  };
  section("Instructions:", campaign.botInstructions);
  section("About the company:", campaign.companyInfo);
  section(
    "Frequently asked questions (answer with these when they fit):",
    campaign.faqs.map((faq) => `Q: ${faq.question}\nA: ${faq.answer}`).join("\n"),
  );
  section("Resources you may share:", campaign.resources.map(resourceLine).join("\n"));
  if (campaign.goal.trim()) sections.push(`The goal of this conversation: ${campaign.goal.trim()}\nSteer toward it, without being pushy.`);
  const name = [contact.firstName, contact.lastName].filter((part) => part?.trim()).join(" ");
  sections.push(name ? `The contact's name: ${name}.` : "The contact's name is not known.");
  sections.push(
    handOffBy === "tool"
      ? `If the contact asks for a person, or you cannot help, call ${HAND_OFF_TOOL_NAME} with the reason, and a short reply telling the contact a person will take over.`
      : `If the contact asks for a person, or you cannot help, answer with a first line "${HAND_OFF_LINE} <the reason>", then a short reply telling the contact a person will take over.`,
  );
  return sections.join("\n\n");
}

function resourceLine(resource: Schemas["Resource"]): string {
  const head = resource.url ? `${resource.title} (${resource.url})` : resource.title;
  return resource.content?.trim() ? `- ${head}: ${resource.content.trim()}` : `- ${head}`;
}

/** "es" -> "Spanish (es)"; a language that is no code stays as written. */
export function languageName(language: string): string {
  try {
    const name = new Intl.DisplayNames(["en"], { type: "language" }).of(language);
    return name && name.toLowerCase() !== language.toLowerCase() ? `${name} (${language})` : language;
  } catch {
    return language;
  }
}

/** Who said what to whom, when it is not the bot itself (the model should know a person spoke). */
const MARKS: Partial<Record<Schemas["Message"]["source"], string>> = {
  human: "[A member of the team wrote this] ",
  api_send: "[The business's own system sent this] ",
};

/**
 * The conversation's latest `limit` messages as chat turns. Messages that never reached the
 * contact (not sent: no credits, the campaign left Live) are left out; a file is named by its
 * type, never sent (a data URL may hold megabytes).
 */
function history(conversation: ReadonlyArray<Schemas["Message"]>, limit: number): ChatMessage[] {
  const said = conversation.filter((m) => m.direction === "inbound" || m.status !== "not_sent");
  return said.slice(-limit).map((m) => {
    const file = m.mediaUrl ? ` [attached: ${m.mediaContentType ?? "a file"}]` : "";
    if (m.direction === "inbound") {
      const text = m.messageType === "reaction" ? `[reacted with ${m.body}]` : m.body;
      return { role: "user", content: `${text}${file}` };
    }
    return { role: "assistant", content: `${MARKS[m.source] ?? ""}${m.body}${file}` };
  });
}
