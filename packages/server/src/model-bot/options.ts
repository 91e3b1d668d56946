/** The model-backed bot's options, their defaults (some from the environment), and their checks. */
import type { BotInfo } from "../engine/bot.js";
import { isLoopbackHost } from "../shared/loopback.js";

export interface ModelBotOptions {
  /** The model to ask, as the endpoint names it (`gpt-4o-mini`, `llama3.2`, …). Required. */
  model: string;
  /** The endpoint's base URL, where its `/chat/completions` is. Default: OPENAI_BASE_URL, else https://api.openai.com/v1. */
  baseUrl?: string | undefined;
  /**
   * Default: OPENAI_API_KEY; null for none. With none, an endpoint on this machine (a loopback
   * address: Ollama, LM Studio, llama.cpp) is asked all the same; any other is not asked, and each
   * message's outcome is `bot_unconfigured`.
   */
  apiKey?: string | null | undefined;
  /** How long one message's call may take, in ms (fallbacks included). Default 30 000. */
  timeoutMs?: number | undefined;
  /** The cap on the answer's tokens (`max_tokens`). Default 400. */
  maxTokens?: number | undefined;
  /** How many of the conversation's latest messages the model sees. Default 20. */
  historyLimit?: number | undefined;
  /** Record mode: every answer from the endpoint is kept in this file (created, or added to). */
  record?: string | undefined;
  /** Replay mode: every answer comes from this file, made in record mode; no endpoint, no key. */
  replay?: string | undefined;
  /** For the endpoint's requests. Default: globalThis.fetch. */
  fetch?: ((input: string | URL | Request, init?: RequestInit) => Promise<Response>) | undefined;
}

export const MODEL_BOT_DEFAULTS = {
  baseUrl: "https://api.openai.com/v1",
  timeoutMs: 30_000,
  // A few sentences of chat (a message is at most 4096 characters, about 1000 tokens of English).
  maxTokens: 400,
  historyLimit: 20,
};

export interface Settings {
  model: string;
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  maxTokens: number;
  historyLimit: number;
  mode: "live" | "record" | "replay";
  file: string | null;
}

/** Node's environment (OPENAI_BASE_URL, OPENAI_API_KEY); a Worker has none to read. */
const environment = (): Record<string, string | undefined> =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};

/** The options with their defaults; throws an Error naming the option that is wrong. */
export function settle(options: ModelBotOptions, env: Record<string, string | undefined> = environment()): Settings {
  if (typeof options.model !== "string" || !options.model.trim())
    throw new Error("The model bot needs a model: the name the endpoint knows it by (e.g. gpt-4o-mini, llama3.2).");
  if (options.record && options.replay)
    throw new Error("Record and replay are two modes: give a file to record to, or one to replay, not both.");
  const baseUrl = options.baseUrl ?? (env.OPENAI_BASE_URL || MODEL_BOT_DEFAULTS.baseUrl);
  const url = parsed(baseUrl);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    throw new Error(`The model endpoint's base URL must be an http(s) URL (got ${baseUrl}).`);
  const whole = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1) throw new Error(`The model bot's ${name} must be a whole number, 1 or more (got ${value}).`);
    return value;
  };
  return {
    model: options.model.trim(),
    baseUrl: baseUrl.replace(/\/+$/, ""),
    apiKey: (options.apiKey === undefined ? env.OPENAI_API_KEY : options.apiKey) || null,
    timeoutMs: whole("timeoutMs", options.timeoutMs, MODEL_BOT_DEFAULTS.timeoutMs),
    maxTokens: whole("maxTokens", options.maxTokens, MODEL_BOT_DEFAULTS.maxTokens),
    historyLimit: whole("historyLimit", options.historyLimit, MODEL_BOT_DEFAULTS.historyLimit),
    mode: options.replay ? "replay" : options.record ? "record" : "live",
    file: options.replay ?? options.record ?? null,
  };
}

/** The URL, or undefined for text that is not one (URL.canParse, which Workers' types lack). */
function parsed(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** An endpoint on this machine takes no key (the client sends a placeholder, which such servers ignore). */
export const keyless = (baseUrl: string) => isLoopbackHost(new URL(baseUrl).hostname);

/** The base URL as shown: without credentials a URL may carry. */
export function shownUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.username = "";
  url.password = "";
  return url.href.replace(/\/+$/, "");
}

export function infoOf(settings: Settings): BotInfo {
  return {
    name: "model",
    model: settings.model,
    // A replay asks no endpoint.
    baseUrl: settings.mode === "replay" ? null : shownUrl(settings.baseUrl),
    mode: settings.mode,
    recording: settings.file,
    timeoutMs: settings.mode === "replay" ? null : settings.timeoutMs,
    maxTokens: settings.maxTokens,
    historyLimit: settings.historyLimit,
  };
}

/** Why every message will be `bot_unconfigured` (no key, an endpoint elsewhere), for a warning at start; undefined when it can be asked. */
export function missingKey(options: ModelBotOptions, env: Record<string, string | undefined> = environment()): string | undefined {
  const settings = settle(options, env);
  if (settings.mode === "replay" || settings.apiKey !== null || keyless(settings.baseUrl)) return undefined;
  return `no API key for ${shownUrl(settings.baseUrl)}: every message's outcome will be bot_unconfigured. Give --model-key, or set OPENAI_API_KEY.`;
}
