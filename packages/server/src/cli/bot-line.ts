/** The line the CLI prints at start saying which bot answers received messages. */
import type { BotInfo } from "../engine/bot.js";

export function botLine(info: BotInfo, botFile?: string): string {
  if (info.name === "deterministic")
    return "Bot: the deterministic one (FAQ answers, hand-off phrases, the goal); --model NAME for a model";
  if (info.name === "custom") return `Bot: yours${botFile ? `, from ${botFile}` : ""}`;
  const model = `Bot: model ${info.model}`;
  if (info.mode === "replay")
    return `${model}, replaying ${info.recording} (no endpoint is asked; what it does not hold is bot_not_recorded)`;
  const limits = `timeout ${info.timeoutMs} ms, at most ${info.maxTokens} tokens, the last ${info.historyLimit} messages`;
  if (info.mode === "record") return `${model} at ${info.baseUrl}, recording every answer to ${info.recording} (${limits})`;
  return `${model} at ${info.baseUrl} (${limits})`;
}
