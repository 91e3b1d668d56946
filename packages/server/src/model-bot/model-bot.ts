/**
 * The model-backed bot: a model on any OpenAI-compatible chat-completions endpoint (OpenAI,
 * Ollama, LM Studio, vLLM, llama.cpp's server, hosted gateways) answers as the campaign says.
 *
 * ```ts
 * import { createIntake } from "@intake/server";
 * import { createModelBot } from "@intake/server/node";
 * const intake = createIntake({ bot: createModelBot({ model: "llama3.2", baseUrl: "http://127.0.0.1:11434/v1" }) });
 * ```
 *
 * For each message: a campaign's hand-off phrase hands off before anything is asked (as the
 * deterministic bot does); otherwise the model is asked (prompt.ts), by the endpoint, or, in
 * replay mode, by the recording alone; its answer becomes a reply, a hand-off or a failure said in
 * words (answer.ts, failures.ts). Nothing throws but a recording that cannot be written.
 */
import { handOffByPhrase, type Bot, type BotInput, type BotOutput } from "../engine/bot.js";
import { interpret } from "./answer.js";
import type { RecordingFile } from "../adapters/recording-file.js";
import { openEndpoint, HAND_OFF_TOOL } from "./endpoint.js";
import { EndpointError, failureOf, unconfigured } from "./failures.js";
import { NotInstalledError } from "../shared/optional-peer.js";
import { infoOf, keyless, settle, shownUrl, type ModelBotOptions, type Settings } from "./options.js";
import { buildPrompt, HAND_OFF_TOOL_NAME, type ChatMessage } from "./prompt.js";
import { questionKey, Recording, type Question } from "./recording.js";
import { fixedSecrets, redactSecrets } from "../shared/redact-secrets.js";

export type { ModelBotOptions };

/** The interface's largest message, in characters: a longer answer is not sent. */
export const MAX_MESSAGE_CHARS = 4096;

/**
 * Makes the bot; throws an Error saying what is wrong with the options (a replay file that cannot
 * be read, say). Record and replay keep their answers in a file, which `openRecording` opens: the
 * node entry (`@intake/server/node`) gives it; without it (a Worker), the bot asks its endpoint only.
 */
export function createModelBot(options: ModelBotOptions, openRecording?: (path: string) => RecordingFile): Bot {
  const settings = settle(options);
  if (settings.file && !openRecording)
    throw new Error("Record and replay keep answers in a file: create the bot with createModelBot from @intake/server/node.");
  const recording = settings.file
    ? new Recording(openRecording!(settings.file), settings.mode === "replay" ? "replay" : "record")
    : undefined;
  const key = settings.apiKey ?? (keyless(settings.baseUrl) ? "no-key" : null);
  // The endpoint's words may hold the key (a gateway that quotes what it was sent): taken out
  // before they are cut short, where a key cut in two could no longer be found.
  const secrets = settings.apiKey ? [settings.apiKey] : [];
  const own = fixedSecrets(secrets);
  const redact = (text: string) => redactSecrets(text, own);
  const endpoint = key === null ? undefined : openEndpoint({ ...settings, apiKey: key, fetch: options.fetch, redact });
  const limits = { maxChars: MAX_MESSAGE_CHARS, maxTokens: settings.maxTokens, redact };
  const called = { baseUrl: shownUrl(settings.baseUrl), model: settings.model, timeoutMs: settings.timeoutMs };

  const answer = async (input: BotInput): Promise<BotOutput> => {
    const byPhrase = handOffByPhrase(input.message, input.campaign);
    if (byPhrase) return byPhrase;
    const prompt = (handOffBy: "tool" | "text") =>
      buildPrompt({ ...input, historyLimit: settings.historyLimit, handOffBy, maxChars: MAX_MESSAGE_CHARS });
    const question: Question = { model: settings.model, messages: prompt("tool"), tools: [HAND_OFF_TOOL] };
    const asked = await questionKey(question);
    if (settings.mode === "replay") {
      const entry = recording!.find(asked);
      if (!entry) return { failed: { outcome: "bot_not_recorded", error: notRecorded(settings, recording!, question.messages, asked) } };
      return { ...interpret(entry.answer, limits), replayed: true };
    }
    if (!endpoint) return { failed: unconfigured(called.baseUrl) };
    let got;
    try {
      got = await endpoint.ask({ withTools: question.messages, withoutTools: prompt("text") }, input.signal);
    } catch (error) {
      if (error instanceof EndpointError) return { failed: failureOf(error.failure, called) };
      if (error instanceof NotInstalledError)
        return { failed: { outcome: "bot_unconfigured", error: `${error.message} Nothing was asked.` } };
      throw error;
    }
    if (recording) {
      await recording.save({
        key: asked,
        model: settings.model,
        tools: [HAND_OFF_TOOL_NAME],
        messages: question.messages,
        answer: got.answer,
        via: got.via,
        recordedAt: new Date().toISOString(),
      });
    }
    return interpret(got.answer, limits);
  };
  // The server redacts the key, with its own secrets, from every bot's words and every webhook receiver's.
  return Object.assign(answer, { info: infoOf(settings), secrets });
}

/** What was asked with no recording: the model, the last message, the key, and what to do. */
function notRecorded(settings: Settings, recording: Recording, messages: ChatMessage[], key: string): string {
  const last = messages.at(-1);
  const said = last ? `${last.role === "user" ? "the contact's" : "the business's"} last message "${clip(last.content)}"` : "no message";
  return (
    `No recording in ${recording.path} answers what was asked (model ${settings.model}, ${said}, key ${key}; the file holds ${recording.size}). ` +
    `A recording answers the same campaign, contact and conversation only: record this one with --model-record ${recording.path} against an endpoint.`
  );
}

function clip(text: string): string {
  const chars = [...text];
  return chars.length > 80 ? `${chars.slice(0, 80).join("")}…` : text;
}
