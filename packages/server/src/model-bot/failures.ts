/**
 * Why the endpoint gave no answer, as the bot's outcome and a sentence for the funnel builder:
 * what happened, and what to do. Nothing here throws or retries: the next message tries again.
 */
import type { BotFailure } from "../engine/bot.js";
import { sizeOf } from "./capped-fetch.js";

/** The endpoint's call ended without an answer (endpoint.ts makes the client's errors into these). */
export type EndpointFailure =
  | { kind: "timeout" }
  /** The endpoint answered with an error status; `message` is its own words. */
  | { kind: "status"; status: number; message: string; retryAfter: string | null }
  /** It could not be reached; `code` is the system's (ECONNREFUSED, ENOTFOUND, …). */
  | { kind: "connection"; code: string | null; message: string }
  /** It answered something that is not a chat completion (a web page, say); `start` is its first words. */
  | { kind: "not_completion"; status: number; contentType: string | null; start: string }
  /** Its answer's body went past the cap (capped-fetch.ts): the server stopped reading it there. */
  | { kind: "too_large"; cap: number }
  /** The server stopped while it waited. */
  | { kind: "aborted" };

export class EndpointError extends Error {
  constructor(readonly failure: EndpointFailure) {
    super(failure.kind === "status" ? `${failure.status} ${failure.message}` : failure.kind);
    this.name = "EndpointError";
  }
}

export interface Called {
  baseUrl: string;
  model: string;
  timeoutMs: number;
}

export interface Failed {
  outcome: BotFailure;
  error: string;
}

const AGAIN = "The next message tries again.";

export function failureOf(failure: EndpointFailure, { baseUrl, model, timeoutMs }: Called): Failed {
  switch (failure.kind) {
    case "timeout":
      return {
        outcome: "bot_timeout",
        error: `The model endpoint ${baseUrl} did not answer within ${timeoutMs} ms. A local model may still be loading (its first answer takes longest); raise --model-timeout if answers take this long. ${AGAIN}`,
      };
    case "aborted":
      return {
        outcome: "bot_unavailable",
        error: `The server stopped before the model endpoint ${baseUrl} answered. A restarted server asks again.`,
      };
    case "connection":
      return {
        outcome: "bot_unavailable",
        error: `Could not reach the model endpoint ${baseUrl}${failure.code ? ` (${failure.code})` : ""}: is it running, and is --model-base-url (or OPENAI_BASE_URL) its address? (Ollama: ollama serve.) ${AGAIN}`,
      };
    case "status":
      return statusFailure(failure, baseUrl, model);
    case "too_large":
      return {
        outcome: "bot_oversized_answer",
        error: `The model endpoint ${baseUrl} sent an answer over ${sizeOf(failure.cap)}; the server stopped reading it there. Ask for short answers in the bot instructions, or lower --model-max-tokens. ${AGAIN}`,
      };
    case "not_completion": {
      const came = `${failure.status} ${failure.contentType ?? "with no content type"}${failure.start ? `, beginning "${failure.start}"` : ", with an empty body"}`;
      return {
        outcome: "bot_unavailable",
        error: `The model endpoint ${baseUrl} answered with something other than a chat completion (${came}). Check that --model-base-url (or OPENAI_BASE_URL) is the API's address, where its /chat/completions is (often ending in /v1), not a web page such as a login page or the model server's web UI. ${AGAIN}`,
      };
    }
  }
}

function statusFailure(
  { status, message, retryAfter }: Extract<EndpointFailure, { kind: "status" }>,
  baseUrl: string,
  model: string,
): Failed {
  const said = `${status}${message ? `: ${message}` : ""}`;
  if (status === 401) {
    return {
      outcome: "bot_refused",
      error: `The model endpoint ${baseUrl} refused the API key (${said}). Check --model-key or OPENAI_API_KEY.`,
    };
  }
  if (status === 403) {
    return {
      outcome: "bot_refused",
      error: `The model endpoint ${baseUrl} refused the request (${said}): the key may have no access to the model ${model}. Check the key's permissions.`,
    };
  }
  if (status === 429) {
    const wait = retryAfter ? ` It asks to wait ${retryAfter} s.` : "";
    return {
      outcome: "bot_rate_limited",
      error: `The model endpoint ${baseUrl} is limiting requests (${said}).${wait} ${AGAIN} Slow down, or raise the key's limits.`,
    };
  }
  if (status >= 500) return { outcome: "bot_unavailable", error: `The model endpoint ${baseUrl} failed (${said}). ${AGAIN}` };
  const hint =
    status === 404
      ? ` Check --model (${model}) is a model the endpoint has (Ollama: ollama pull ${model}) and the base URL ends where its /chat/completions starts (often /v1).`
      : "";
  return { outcome: "bot_unavailable", error: `The model endpoint ${baseUrl} refused the request (${said}).${hint} ${AGAIN}` };
}

/** No key, and an endpoint that needs one: nothing is called. */
export function unconfigured(baseUrl: string): Failed {
  return {
    outcome: "bot_unconfigured",
    error: `No API key for the model endpoint ${baseUrl}: give --model-key, or set OPENAI_API_KEY (an endpoint on this machine, such as Ollama or LM Studio, needs none). Nothing was asked.`,
  };
}
