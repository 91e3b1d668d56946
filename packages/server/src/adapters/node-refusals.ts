/**
 * What the node adapter refuses before the core can read the request (a target that is not a
 * path, headers past the limit, bytes that are not HTTP, a body that stalls), and how it answers
 * a request node itself could not parse: always through the core, which knows each route's shape.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { ApiRequest, ApiResponse } from "../http/exchange.js";
import { HttpError, badRequest } from "../shared/errors.js";
import { answersBefore, bodyReaders, broken, firstLines, lastRequest, refused, responsesOf, type RequestLine } from "./node-connections.js";

/** What the adapter needs of the service (an Intake has it). */
export interface Served {
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** For a request the core could not answer: the adapter's refusal, or else a 500, in its route's shape. */
  failed(method: string, pathname: string, refusal?: Refusal): ApiResponse;
  /** Where the adapter reports its own failures. */
  reportError(error: unknown): void;
}

/**
 * The API's limit on a request's URL and headers. Node parses up to four times as much, so that
 * the core, which knows each route's error shape, refuses what lies between; past node's own
 * limit the request line may be lost (over TLS it can sit in an earlier record than the overflow).
 */
export const HEAD_BYTES = 16 * 1024;
export const NODE_HEAD_BYTES = 4 * HEAD_BYTES;

export type Refusal = NonNullable<ApiRequest["refusal"]>;
export const NOT_A_PATH: Refusal = { code: "VALIDATION_ERROR", message: "The request target must be a path such as /v1/contacts." };
export const HEAD_TOO_LARGE: Refusal = { code: "PAYLOAD_TOO_LARGE", message: "The request's URL and headers are larger than the server accepts (16 KiB)." };
const NOT_HTTP: Refusal = { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." };
export const NO_HOST: Refusal = { code: "VALIDATION_ERROR", message: "An HTTP/1.1 request must have a Host header." };
export const EXPECTATION_FAILED: Refusal = { status: 417, code: "VALIDATION_ERROR", message: "The server meets no Expect but 100-continue." };
export const NOT_A_TUNNEL: Refusal = { code: "VALIDATION_ERROR", message: "CONNECT is not served: this is the API, not a proxy." };

/** Why a body read failed, answered by the core in the route's shape. */
export const notHttp = () => badRequest(NOT_HTTP.code, NOT_HTTP.message);
export const abandoned = () => badRequest("VALIDATION_ERROR", "The request body did not arrive whole: the client closed the connection.");
export const stalled = (ms: number) => new HttpError(408, "VALIDATION_ERROR", `The request body stopped arriving: nothing came for ${ms / 1000} s.`);
export const tooSlow = () => new HttpError(408, "VALIDATION_ERROR", "The request took longer than the server allows to arrive.");

export const EMPTY = Buffer.alloc(0);
const NO_HEADERS = { get: () => null };

/** The method and path at the start of some bytes, if they open with a request line (the query, perhaps cut short, left out). */
function requestLine(bytes: Buffer | undefined): RequestLine | undefined {
  const line = /^([A-Z]{1,20}) (\/[^\s?#]*)/.exec(bytes?.subarray(0, 1024).toString("latin1") ?? "");
  return line ? { method: line[1] ?? "GET", path: line[2] ?? "/" } : undefined;
}

export function noteFirstLine(socket: Socket, first: Buffer) {
  const line = requestLine(first);
  if (line) firstLines.set(socket, line);
}

/**
 * Requests node cannot parse (URL and headers past its limit, garbage) are answered by the core,
 * in the shape of the route their request line names where it is known (in the bytes node
 * reports, or as the connection's first line when no request came before), with a request id,
 * and journaled; then the connection closes. A parse error (or the request timeout) in the body
 * of a request node already handed over fails that body's read: the core answers the request.
 */
export async function refuseMalformed(intake: Served, origin: string, error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) {
  // Node reports every chunk that arrives after the first error again: one refusal a connection.
  if (refused.has(socket)) return;
  refused.add(socket);
  const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
  // Past a parse error or the request timeout there is no one to answer: a reset, or a TLS
  // handshake that failed or did not finish in time (https reports those here too).
  if (!socket.writable || !(timedOut || error.code?.startsWith("HPE_"))) return socket.destroy();
  const request = lastRequest.get(socket);
  if (request && !request.complete) {
    broken.add(socket);
    const read = bodyReaders.get(socket);
    if (read) return read(timedOut ? tooSlow() : notHttp());
    // Not being read: the core answers without the body (respond closes the connection after),
    // or has answered already, and there is nothing more to say.
    if (![...(responsesOf.get(socket) ?? [])].some((res) => res.req === request)) {
      await answersBefore(socket);
      socket.destroy();
    }
    return;
  }
  if (timedOut) {
    // Too slow to finish its request line and headers: nothing of it is known to journal. A response under way is cut.
    if (responsesOf.get(socket)?.size) return socket.destroy();
    return void socket.end("HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n", () => socket.destroy());
  }
  const line = requestLine(error.rawPacket) ?? (request ? undefined : firstLines.get(socket));
  await answerRaw(intake, origin, socket, line?.method ?? "GET", line?.path ?? "/", error.code === "HPE_HEADER_OVERFLOW" ? HEAD_TOO_LARGE : NOT_HTTP);
}

/**
 * Answers a refused request on a connection node no longer parses: the core's answer (its answer
 * to its own failure, should it fail), after the answers to the requests before it; then the
 * connection closes.
 */
export async function answerRaw(intake: Served, origin: string, socket: Socket, method: string, path: string, refusal: Refusal) {
  let response: ApiResponse;
  try {
    response = await intake.handle({ method, url: new URL(`${origin}${path}`), headers: NO_HEADERS, bytes: async () => EMPTY, refusal });
  } catch (cause) {
    intake.reportError(new Error("The node adapter could not answer a request it could not parse.", { cause }));
    response = intake.failed(method, path, refusal);
  }
  const { status, headers } = response;
  const body = response.body ?? "";
  await answersBefore(socket);
  if (!socket.writable) return socket.destroy();
  const head = Object.entries({ ...headers, "content-length": String(Buffer.byteLength(body)), connection: "close" })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  // Closed both ways once written: a client that keeps its side open does not hold the socket.
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n${head}\r\n${body}`, () => socket.destroy());
}
