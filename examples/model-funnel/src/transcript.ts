/**
 * A conversation as a transcript a person reads: who said what, in order; under each message the
 * bot was asked about, which bot answered, what came of it and how long it took; the hand-off
 * alert where there is one.
 */
import type { AdminComponents } from "@intake/server/admin-client";

type Schemas = AdminComponents["schemas"];

const SPEAKER: Record<Schemas["Message"]["source"], string> = {
  api_receive: "lead",
  simulated: "lead",
  api_send: "your system",
  bot: "bot",
  human: "a person",
  opening: "opening template",
  follow_up: "follow-up template",
};

/** Latency as a person reads it. */
export function took(ms: number): string {
  if (ms < 1) return "< 1 ms";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const OUTCOME: Record<string, string> = { replied: "replied", handed_off: "handed off to a person", no_answer: "chose not to answer" };

const BOT = { deterministic: "the deterministic bot", model: "model", custom: "your bot function" } as const;

/** The line under a received message: "[model llama3.2: replied in 812 ms, replayed]". */
function botLine(message: Schemas["Message"]): string | null {
  if (!message.botOutcome) return null;
  const run = message.bot;
  if (!run) return `  [bot not asked: ${message.botOutcome.replaceAll("_", " ")}]`;
  const who = run.name === "model" ? `model ${run.model ?? ""}`.trim() : BOT[run.name];
  const outcome = OUTCOME[message.botOutcome] ?? `gave no answer (${message.botOutcome})`;
  const extra = [run.replayed ? "replayed" : null, run.error].filter(Boolean).join("; ");
  return `  [${who}: ${outcome} in ${took(run.latencyMs)}${extra ? `; ${extra}` : ""}]`;
}

/** The transcript of a contact's conversation, one line a message (and one under each the bot was asked about). */
export function transcript(
  business: string,
  { contact, messages, alerts }: Pick<Schemas["ContactDetail"], "contact" | "messages" | "alerts">,
): string[] {
  const lead = [contact.firstName, contact.lastName].filter(Boolean).join(" ") || contact.id;
  const lines: string[] = [];
  for (const message of messages) {
    const speaker = message.direction === "inbound" ? `${lead} (${SPEAKER[message.source]})` : `${business} (${SPEAKER[message.source]})`;
    lines.push(`${speaker}: ${message.body}`);
    const bot = botLine(message);
    if (bot) lines.push(bot);
  }
  for (const alert of alerts) lines.push(`Alert to the team: ${alert.reason}`);
  return lines;
}
