/**
 * An OpenAI-compatible chat-completions endpoint on 127.0.0.1, for the model bot's tests: it keeps
 * every request it gets (path, authorization, JSON body) and answers each as the test says: a
 * completion, a tool call, an error status, or never (until it is closed).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    messages: Array<{ role: string; content: string }>;
    tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>;
    max_tokens?: number;
    max_completion_tokens?: number;
    [field: string]: unknown;
  };
}

/**
 * How to answer one request: a status and JSON body (200 and a completion by default), a text as
 * it is, a completion streamed in chunks as the reader takes them (`streamed`), or no answer at all.
 */
export type ModelAnswer =
  { status?: number; body?: unknown; text?: string; headers?: Record<string, string>; streamBytes?: number } | "hang";

/** What became of a streamed answer: how much was written, and whether the reader took it all or closed the connection first. */
export interface Streamed {
  total: number;
  sent: number;
  end: "sending" | "finished" | "closed";
}

export interface FakeModel {
  /** The base URL, ending in /v1. */
  baseUrl: string;
  requests: ModelRequest[];
  /** The streamed answers, in the order they began. */
  streams: Streamed[];
  /** How the next requests are answered: by their request and their number (0 for the first); a promise holds the answer until it settles. */
  answer(how: (request: ModelRequest, index: number) => ModelAnswer | Promise<ModelAnswer>): void;
  close(): Promise<void>;
}

/** A completion whose message says `content`: text, or content parts (`[{ type: "text", text }]`), or anything an endpoint might send. */
export function said(content: unknown, finishReason = "stop"): ModelAnswer {
  return { body: completion({ role: "assistant", content }, finishReason) };
}

/** A completion whose message calls the hand-off tool with these arguments. */
export function handsOff(args: { reason: string; reply?: string } | string, content: string | null = null): ModelAnswer {
  const call = {
    id: "call_1",
    type: "function",
    function: { name: "hand_off_to_person", arguments: typeof args === "string" ? args : JSON.stringify(args) },
  };
  return { body: completion({ role: "assistant", content, tool_calls: [call] }, "tool_calls") };
}

/**
 * A completion whose content is `bytes` of "x", with no Content-Length, written 64 KiB at a time
 * as fast as the reader takes it: a reader that stops reading closes the connection before the end.
 */
export function streamed(bytes: number, status = 200): ModelAnswer {
  return { status, streamBytes: bytes };
}

/** An error as OpenAI's API words it. */
export function refuses(status: number, message: string, headers?: Record<string, string>): ModelAnswer {
  return { status, body: { error: { message, type: "invalid_request_error", code: null } }, headers };
}

/** A web page where the API was expected: a login page or a model server's web UI answers 200 with HTML. */
export function webPage(html: string): ModelAnswer {
  return { text: html, headers: { "content-type": "text/html; charset=utf-8" } };
}

function completion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_767_225_600,
    model: "fake-model",
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** Writes a completion of `bytes` of content, waiting for the reader at each chunk; says how it ended. */
async function stream(res: ServerResponse, status: number, bytes: number, streams: Streamed[]): Promise<void> {
  const state: Streamed = { total: bytes, sent: 0, end: "sending" };
  streams.push(state);
  res.on("close", () => {
    if (state.end === "sending") state.end = res.writableFinished ? "finished" : "closed";
  });
  res.writeHead(status, { "content-type": "application/json" });
  const [head, tail] = JSON.stringify(completion({ role: "assistant", content: "<content>" }, "stop")).split("<content>");
  const chunk = Buffer.alloc(64 * 1024, "x");
  res.write(head);
  while (state.sent < bytes && !res.destroyed) {
    const part = bytes - state.sent >= chunk.length ? chunk : chunk.subarray(0, bytes - state.sent);
    state.sent += part.length;
    if (!res.write(part)) await drainedOrClosed(res);
  }
  if (!res.destroyed) res.end(tail);
}

/** Until the reader took what was written, or left; the listener of the other is taken off, so none pile up over a long body. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: ModelRequest[] = [];
  const streams: Streamed[] = [];
  let how: (request: ModelRequest, index: number) => ModelAnswer | Promise<ModelAnswer> = () => said("Hello from the model.");
  const server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const request: ModelRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body: text ? JSON.parse(text) : {},
    };
    requests.push(request);
    const answer = await how(request, requests.length - 1);
    if (answer === "hang") return;
    if (answer.streamBytes !== undefined) return stream(res, answer.status ?? 200, answer.streamBytes, streams);
    const body = answer.text ?? JSON.stringify(answer.body ?? {});
    res
      .writeHead(answer.status ?? 200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...answer.headers })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    streams,
    answer: (next) => void (how = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A base URL where nothing listens: a port that was free a moment ago, on loopback. */
export async function refusedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
