/**
 * What node cannot parse, and what it would answer itself or leave unanswered (a proxy's CONNECT,
 * bytes that are not HTTP, headers past its limit), answered by the core on the bare connection in
 * the shape of the route the request line names, then the connection closed.
 */
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { ApiResponse } from "../contract/exchange.js";
import {
  EMPTY,
  HEAD_TOO_LARGE,
  NOT_A_TUNNEL,
  NOT_HTTP,
  bodyReaders,
  broken,
  extensionsTooLarge,
  firstLines,
  notHttp,
  refused,
  tooSlow,
  type Address,
  type Refusal,
  type RequestLine,
  type Served,
} from "./node-requests.js";
import { answersBefore, lastRequest, linger, responsesOf } from "./node-connections.js";

const NO_HEADERS = { get: () => null };

/** A node server's "connect" handler: a proxy's tunnel, refused on the connection node hands over. */
export function tunnelHandler(intake: Served, address: Address) {
  return function refuseTunnel(req: IncomingMessage, socket: Duplex) {
    const target = req.url ?? "";
    socket.on("error", () => socket.destroy());
    void answerRaw(
      intake,
      `${address.scheme}://${address.origin}`,
      socket as Socket,
      req.method ?? "CONNECT",
      target.startsWith("/") ? target : "/",
      NOT_A_TUNNEL,
    );
  };
}

/** A node server's "clientError" handler. */
export function clientErrorHandler(intake: Served, address: Address) {
  return function refuseMalformedRequest(error: Error, socket: Duplex) {
    void refuseMalformed(intake, `${address.scheme}://${address.origin}`, error, socket as Socket);
  };
}

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
async function refuseMalformed(intake: Served, origin: string, error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) {
  // Node reports every chunk that arrives after the first error again: one refusal a connection.
  if (refused.has(socket)) return;
  refused.add(socket);
  const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
  // Past a parse error or the request timeout there is no one to answer: a reset, or a TLS
  // handshake that failed or did not finish in time (https reports those here too).
  if (!socket.writable || !(timedOut || error.code?.startsWith("HPE_"))) return socket.destroy();
  const request = lastRequest.get(socket);
  if (request && !request.complete) {
    const why = timedOut ? tooSlow() : error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW" ? extensionsTooLarge() : notHttp();
    broken.set(socket, why);
    const read = bodyReaders.get(socket);
    if (read) return read(why);
    // Not being read: the core answers without the body (respond closes the connection after),
    // or has answered already, and there is nothing more to say.
    if (![...(responsesOf.get(socket) ?? [])].some((res) => res.req === request)) {
      await answersBefore(socket);
      linger(socket);
    }
    return;
  }
  if (timedOut) {
    // Too slow to finish its request line and headers: nothing of it is known to journal. It
    // comes after the answers to the requests before it on the connection.
    await answersBefore(socket);
    if (!socket.writable) return socket.destroy();
    socket.write("HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    return linger(socket);
  }
  const line = requestLine(error.rawPacket) ?? (request ? undefined : firstLines.get(socket));
  await answerRaw(
    intake,
    origin,
    socket,
    line?.method ?? "GET",
    line?.path ?? "/",
    error.code === "HPE_HEADER_OVERFLOW" ? HEAD_TOO_LARGE : NOT_HTTP,
  );
}

/**
 * Answers a refused request on a connection node no longer parses: the core's answer (its answer
 * to its own failure, should it fail), after the answers to the requests before it; then the
 * connection closes.
 */
async function answerRaw(intake: Served, origin: string, socket: Socket, method: string, path: string, refusal: Refusal) {
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
  socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n${head}\r\n${body}`);
  // Closed both ways once written (a client that keeps its side open does not hold it for long).
  linger(socket);
}
