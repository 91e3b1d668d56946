/**
 * A scripted stand-in for an OpenAI-compatible chat-completions endpoint, on 127.0.0.1: it
 * answers each of the rehearsal's questions with a reply written by hand, and asks for a person
 * (through the hand-off tool the bot offers) when the lead wants something only a person can
 * give. It is what the committed recording was made from, because no real model can run where
 * this repository is tested; `npm run record` with Ollama records the same rehearsal from a real
 * model instead. It is not a model: any question it has no line for gets a polite generic answer.

 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** The part of a chat-completions request the stand-in reads. */
export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content?: string | null }>;
  tools?: Array<{ type: string; function: { name: string; parameters?: { properties?: Record<string, unknown> } } }>;
}

/** A line of the script: when the lead's last message matches, a reply, or a hand-off with one. */
interface Line {
  when: RegExp;
  reply: string;
  handOff?: string;
}

const SCRIPT: Line[] = [
  {
    when: /evening|after work|what time/i,
    reply:
      "Evening classes start at 6:00 and 7:30 pm on weekdays: HIIT on Mondays and Wednesdays, spin on Tuesdays and Thursdays, yoga on Fridays. Shall I book your first trial class for one of them?",
  },
  {
    when: /bring|wear|need/i,
    reply: "Just comfortable clothes, trainers and a water bottle. We lend mats and towels, and the lockers take a padlock or a coin.",
  },
  {
    when: /company|corporate|team|colleagues/i,
    handOff: "The lead asks about a corporate plan for their team: pricing for groups is set by a person.",
    reply:
      "A corporate plan is something our membership team sets up with you: I've asked them to get in touch, and they'll reply here shortly.",
  },
];

const FALLBACK = "Thanks for your message! I can help with class times, what to bring and booking your free trial week.";

/** The stand-in's answer to a request, as the endpoint's JSON. */
export function answer(request: ChatRequest): object {
  const asked = [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const line = SCRIPT.find((l) => l.when.test(asked));
  const tool = request.tools?.find((t) => t.type === "function");
  const message =
    line?.handOff && tool
      ? {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_stand_in_1",
              type: "function",
              function: { name: tool.function.name, arguments: JSON.stringify(handOffArguments(tool, line)) },
            },
          ],
        }
      : { role: "assistant", content: line?.reply ?? FALLBACK };
  return {
    id: "chatcmpl-stand-in",
    object: "chat.completion",
    created: 0,
    model: request.model,
    choices: [{ index: 0, message, finish_reason: "tool_calls" in message ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** The hand-off tool's arguments, by the names its schema gives them (a reason, and a reply to the lead). */
function handOffArguments(tool: NonNullable<ChatRequest["tools"]>[number], line: Line): Record<string, string> {
  const names = Object.keys(tool.function.parameters?.properties ?? { reason: {}, reply: {} });
  const args: Record<string, string> = {};
  for (const name of names) {
    if (/reason|why/i.test(name)) args[name] = line.handOff!;
    else if (/reply|message|answer|text/i.test(name)) args[name] = line.reply;
  }
  return args;
}

export interface StandInModel {
  /** The base URL to give the bot: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** The requests it was sent, in order. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

async function body(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

/** Starts the stand-in on 127.0.0.1 (a free port unless told). */
export async function startStandInModel(port = 0): Promise<StandInModel> {
  const requests: ChatRequest[] = [];
  const server = createServer(async (request, response) => {
    const send = (status: number, value: object) =>
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    const path = new URL(request.url ?? "/", "http://stand-in").pathname;
    if (request.method === "GET" && path === "/v1/models")
      return send(200, { object: "list", data: [{ id: "stand-in", object: "model", owned_by: "intake-example" }] });
    if (request.method !== "POST" || path !== "/v1/chat/completions")
      return send(404, {
        error: { message: `The stand-in answers POST /v1/chat/completions only, not ${request.method} ${path}.`, type: "not_found" },
      });
    let parsed: ChatRequest;
    try {
      parsed = JSON.parse(await body(request)) as ChatRequest;
    } catch {
      return send(400, { error: { message: "The request body is not JSON.", type: "invalid_request_error" } });
    }
    requests.push(parsed);
    return send(200, answer(parsed));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
