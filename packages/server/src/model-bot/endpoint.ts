/**
 * The call to an OpenAI-compatible chat-completions endpoint, through the official `openai`
 * client, loaded at the first call (openai-client.ts: an optional peer dependency).
 *
 * One attempt per message (`maxRetries: 0`): the engine answers one contact's messages in order,
 * so a retry here would hold the contact's next messages up for as long as it waited, and a 429's
 * wait is better told to the funnel builder (the outcome) than spent silently; the next message
 * tries again. One deadline covers the whole call, the fallbacks below included.
 *
 * Endpoints differ in what they take. Two refusals are answered by asking again, once, and
 * remembered for the bot's life: tools refused (a 400 or 422 that says so: Ollama's models without
 * tool support, vLLM without --enable-auto-tool-choice, llama.cpp without --jinja) asks without
 * them, the model told to answer `HANDOFF: <reason>` instead; `max_tokens` refused (OpenAI's
 * reasoning models) asks with `max_completion_tokens`.
 */
import type * as OpenAIModule from "openai";
import type OpenAI from "openai";
import type { ModelAnswer } from "./answer.js";
import { cappedFetch, MAX_ANSWER_BYTES, tooLargeIn, type Fetch } from "./capped-fetch.js";
import { EndpointError, type EndpointFailure } from "./failures.js";
import { loadOpenAI } from "./openai-client.js";
import { HAND_OFF_TOOL_NAME, type ChatMessage } from "./prompt.js";

export interface EndpointOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxTokens: number;
  fetch?: Fetch | undefined;
  /** Takes the key out of the endpoint's words. */
  redact?: (text: string) => string;
}

/** What to ask: the messages for an endpoint with tools, and for one without (the hand-off as a first line). */
export interface Asked {
  withTools: ChatMessage[];
  withoutTools: ChatMessage[];
}

export interface Answered {
  answer: ModelAnswer;
  via: "tools" | "text";
}

/** The hand-off tool the model is offered. */
export const HAND_OFF_TOOL = {
  type: "function",
  function: {
    name: HAND_OFF_TOOL_NAME,
    description:
      "Hand the conversation to a member of the team: when the contact asks for a person, or you cannot help. The bot then stops answering this contact until a person resumes it.",
    parameters: {
      type: "object",
      properties: {
        reason: { type: "string", description: "Why, in a sentence, for the team member who takes over." },
        reply: { type: "string", description: "A short message telling the contact a person will take over." },
      },
      required: ["reason"],
    },
  },
} as const;

export interface Endpoint {
  ask(asked: Asked, signal?: AbortSignal): Promise<Answered>;
}

export function openEndpoint(options: EndpointOptions): Endpoint {
  let client: Promise<{ openai: OpenAI; errors: Errors }> | undefined;
  const given = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const fetch = cappedFetch(given, MAX_ANSWER_BYTES);
  const connect = () =>
    (client ??= loadOpenAI("The model bot").then((module) => ({
      openai: new module.OpenAI({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 0, timeout: options.timeoutMs, fetch }),
      errors: module,
    })));
  const redact = options.redact ?? ((text: string) => text);
  let toolsRefused = false;
  let tokensField: "max_tokens" | "max_completion_tokens" = "max_tokens";

  return {
    async ask(asked, signal) {
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const { openai, errors } = await connect();
      for (let adapted = 0; ; adapted++) {
        const tools = !toolsRefused;
        const body = {
          model: options.model,
          messages: tools ? asked.withTools : asked.withoutTools,
          ...(tools ? { tools: [HAND_OFF_TOOL] } : {}),
          [tokensField]: options.maxTokens,
        } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
        try {
          const { data, response } = await openai.chat.completions
            .create(body, { signal: stop, timeout: options.timeoutMs })
            .withResponse();
          return { answer: readAnswer(completionOf(data, response, redact)), via: tools ? "tools" : "text" };
        } catch (error) {
          if (error instanceof EndpointError) throw error;
          const tooLarge = tooLargeIn(error);
          if (tooLarge) throw new EndpointError({ kind: "too_large", cap: tooLarge.cap });
          const failure = failureOf(error, errors, deadline, signal, redact);
          if (adapted < 2 && failure.kind === "status" && (failure.status === 400 || failure.status === 422)) {
            if (tools && /\btools?\b|function.?call|tool.?choice/i.test(failure.message)) {
              toolsRefused = true;
              continue;
            }
            if (tokensField === "max_tokens" && /max_completion_tokens/.test(failure.message)) {
              tokensField = "max_completion_tokens";
              continue;
            }
          }
          throw new EndpointError(failure);
        }
      }
    },
  };
}

/**
 * The body as a completion. A base URL that is a web page (a login page, a model server's web UI)
 * answers 200 with HTML, which the client hands over as text: that is no answer, empty or not.
 */
function completionOf(data: unknown, response: Response, redact: (text: string) => string): OpenAI.Chat.ChatCompletion {
  if (typeof data === "object" && data !== null && Array.isArray((data as { choices?: unknown }).choices))
    return data as OpenAI.Chat.ChatCompletion;
  throw new EndpointError({
    kind: "not_completion",
    status: response.status,
    contentType: response.headers.get("content-type"),
    start: startOf(data, redact),
  });
}

/** The first words of a body, as a person would read them: an HTML page's text, without its tags, scripts and styles; redacted before it is cut. */
function startOf(data: unknown, redact: (text: string) => string, length = 120): string {
  const text = typeof data === "string" ? data : (JSON.stringify(data) ?? "");
  const words = redact(
    text
      .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
  return words.length > length ? `${words.slice(0, length)}…` : words;
}

/** The first choice's text and hand-off call. */
function readAnswer(completion: OpenAI.Chat.ChatCompletion): ModelAnswer {
  const choice = completion.choices?.[0];
  const call = choice?.message?.tool_calls?.find((c) => c.type === "function" && c.function.name === HAND_OFF_TOOL_NAME);
  return {
    // As it came: content parts (an array) are read by interpret, as a recording's are on replay.
    content: (choice?.message?.content as unknown) ?? null,
    handOff: call && call.type === "function" ? handOffArguments(call.function.arguments) : null,
    finishReason: choice?.finish_reason ?? null,
  };
}

function handOffArguments(text: string): { reason: string; reply?: string } {
  try {
    const { reason, reply } = JSON.parse(text) as { reason?: unknown; reply?: unknown };
    return { reason: typeof reason === "string" ? reason : "", ...(typeof reply === "string" && reply.trim() ? { reply } : {}) };
  } catch {
    // Arguments that are not JSON still ask for a person.
    return { reason: "" };
  }
}

/** The client's error classes. */
type Errors = Pick<typeof OpenAIModule, "APIError" | "APIConnectionError" | "APIConnectionTimeoutError">;

/** The client's error, as what happened: the deadline passed, the server stopped, an error status, no connection. Anything else is a fault, thrown on. */
function failureOf(
  error: unknown,
  errors: Errors,
  deadline: AbortSignal,
  signal: AbortSignal | undefined,
  redact: (text: string) => string,
): EndpointFailure {
  if (signal?.aborted) return { kind: "aborted" };
  if (deadline.aborted || error instanceof errors.APIConnectionTimeoutError) return { kind: "timeout" };
  if (error instanceof errors.APIConnectionError) return { kind: "connection", code: systemCode(error.cause), message: error.message };
  if (error instanceof errors.APIError && typeof error.status === "number") {
    const body = error.error as { message?: unknown } | string | undefined;
    const said = typeof body === "string" ? body : typeof body?.message === "string" ? body.message : error.message.replace(/^\d{3} /, "");
    return { kind: "status", status: error.status, message: redact(said), retryAfter: error.headers?.get("retry-after") ?? null };
  }
  throw error;
}

/** The first system error code (ECONNREFUSED, …) in an error's causes. */
function systemCode(error: unknown): string | null {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  }
  return null;
}
