/**
 * The node adapter's requests: each handed to the core, its body read only as far as the core
 * asks, its answer written (a stream as it comes), in the order of the requests on its connection.
 * What the adapter itself refuses (a target that is not a path, headers past the limit, a body
 * that stalls) goes to the core too, which answers in the route's shape.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { once } from "node:events";
import type { Socket } from "node:net";
import { debuglog } from "node:util";
import type { ApiRequest, ApiResponse } from "../contract/exchange.js";
import { HttpError, badRequest } from "../shared/errors.js";
import { isLoopbackAddress } from "../shared/loopback.js";
import { answersBefore, closesWith, takesRequests, track } from "./node-connections.js";

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
export const HEAD_TOO_LARGE: Refusal = {
  code: "PAYLOAD_TOO_LARGE",
  message: "The request's URL and headers are larger than the server accepts (16 KiB).",
};
export const NOT_HTTP: Refusal = { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." };
export const EXTENSIONS_TOO_LARGE: Refusal = {
  code: "PAYLOAD_TOO_LARGE",
  message: "The request body's chunk extensions are larger than the server accepts (16 KiB).",
};
export const NO_HOST: Refusal = { code: "VALIDATION_ERROR", message: "An HTTP/1.1 request must have a Host header." };
export const EXPECTATION_FAILED: Refusal = {
  status: 417,
  code: "VALIDATION_ERROR",
  message: "The server meets no Expect but 100-continue.",
};
export const NOT_A_TUNNEL: Refusal = { code: "VALIDATION_ERROR", message: "CONNECT is not served: this is the API, not a proxy." };

/** Why a body read failed, answered by the core in the route's shape. */
export const notHttp = () => badRequest(NOT_HTTP.code, NOT_HTTP.message);
export const extensionsTooLarge = () => badRequest(EXTENSIONS_TOO_LARGE.code, EXTENSIONS_TOO_LARGE.message);
export const abandoned = () => badRequest("VALIDATION_ERROR", "The request body did not arrive whole: the client closed the connection.");
export const stalled = (ms: number) =>
  new HttpError(408, "VALIDATION_ERROR", `The request body stopped arriving: nothing came for ${ms / 1000} s.`);
export const tooSlow = () => new HttpError(408, "VALIDATION_ERROR", "The request took longer than the server allows to arrive.");

export const EMPTY = Buffer.alloc(0);

/** Connections already being refused. */
export const refused = new WeakSet<Socket>();

/** Connections whose request body node could not parse (or that took too long), and the error it is answered with; then the connection closes. */
export const broken = new WeakMap<Socket, HttpError>();

/** How to fail the body read under way on a connection, if one is: node's parse errors and timeouts arrive on the connection, not the request. */
export const bodyReaders = new WeakMap<Socket, (error: HttpError) => void>();

/** The request line a connection's first bytes open with. */
export const firstLines = new WeakMap<Socket, RequestLine>();

export interface RequestLine {
  method: string;
  path: string;
}

export interface ListenerOptions {
  /** How long a request body may stop arriving before it is answered 408 and its connection closed. */
  bodyTimeoutMs: number;
  /** Where each stream being sent puts how to end it (a stop ends them), while it is open. */
  streams: Set<() => Promise<void>>;
}

/**
 * A node server's "request" handler (and, with a refusal, its "checkExpectation" one): the request
 * to the core, addressed to `origin()`, and its answer back.
 */
export function requestHandler(intake: Served, address: Address, options: ListenerOptions, refusal?: Refusal) {
  return function handleRequest(req: IncomingMessage, res: ServerResponse) {
    // After an answer that closes the connection: the client was told, and its request is not read.
    if (!takesRequests(req.socket)) return;
    track(req, res);
    void respond(intake, `${address.scheme}://${address.origin}`, req, res, options, refusal);
  };
}

/** Where a node server listens: every request is addressed to it, whatever its Host header says. */
export interface Address {
  scheme: "https" | "http";
  /** `host:port`, filled in once listening. */
  origin: string;
}

async function respond(
  intake: Served,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
  { bodyTimeoutMs, streams }: ListenerOptions,
  given?: Refusal,
) {
  const target = req.url ?? "/";
  const socket = req.socket;
  try {
    // Only a path is a target here ("*" and absolute forms are for proxies); prefixing it with
    // this server's own origin means the Host header cannot steer routing.
    const isPath = target.startsWith("/");
    const raw = req.rawHeaders;
    const refusal =
      given ??
      (!isPath
        ? NOT_A_PATH
        : headSize(req) > HEAD_BYTES
          ? HEAD_TOO_LARGE
          : req.httpVersion === "1.1" && headerOf(raw, "host") === null
            ? NO_HOST
            : undefined);
    // Read only if the core asks, and only as far as the limit it gives: a request refused before
    // its body matters is not buffered.
    let read: Promise<{ body: Buffer; overflow: boolean }> | undefined;
    const response = await intake.handle({
      method: req.method ?? "GET",
      url: new URL(`${origin}${isPath ? target : "/"}`),
      headers: { get: (name) => headerOf(raw, name), entries: () => headerEntries(raw) },
      bytes: async (maxBytes) => (await (read ??= readBody(req, maxBytes, bodyTimeoutMs))).body,
      refusal,
      local: isLoopbackAddress(socket.remoteAddress),
    });
    if (socket.destroyed) {
      // The client left (an upload it gave up on, say): no one to answer, and nothing gone wrong here.
      return debug("%s %s: the connection closed before the answer", req.method, target.split("?")[0]);
    }
    // A body not read whole: cut at the limit, stalled, or framed in a way node could not parse.
    const cut =
      (read !== undefined &&
        (await read.then(
          (body) => body.overflow,
          () => true,
        ))) ||
      broken.has(socket);
    if (response.drop) {
      // A fault rule that drops the connection, once the answers to the requests before this one on it are out.
      await answersBefore(socket, res);
      return void socket.destroy();
    }
    // A body not read whole is not read further, and a client that sent a proxy's target or
    // headers past the limit is not speaking to us as the API expects: no connection is reused.
    // Nor in a stop, which closes each connection after its last answer.
    if (closesWith(socket, res, cut, refusal !== undefined)) response.headers.connection = "close";
    if (response.stream) return await sendStream(res, response.status, response.headers, response.stream, streams);
    // A known length spares the chunked framing: one write of head and body, not three.
    if (response.body !== null) response.headers["content-length"] = String(Buffer.byteLength(response.body));
    res.writeHead(response.status, response.headers);
    res.end(response.body ?? undefined);
    // The rest of a body cut short is read and dropped as the connection closes (see linger()).
    if (cut) req.resume();
  } catch (error) {
    if (res.headersSent) res.end();
    else {
      const failed = intake.failed(req.method ?? "GET", target.split("?")[0] ?? "/");
      res.writeHead(failed.status, failed.headers);
      res.end(failed.body ?? undefined);
    }
    intake.reportError(new Error(`The node adapter could not answer ${req.method} ${target.split("?")[0]}.`, { cause: error }));
  }
}

/**
 * A body that stays open (the live events), written as it comes: each chunk once the connection
 * has taken the last, so a client that reads slowly leaves its chunks in the stream, which bounds
 * them. It ends when the stream does (the server stops) and is cancelled when the client leaves;
 * a stream that fails (its reader fell too far behind) closes the connection.
 */
async function sendStream(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  stream: ReadableStream<Uint8Array>,
  streams: Set<() => Promise<void>>,
) {
  const reader = stream.getReader();
  const gone = new Promise<void>((resolve) => res.once("close", resolve));
  let ending: () => void = () => {};
  const ended = new Promise<void>((resolve) => (ending = resolve));
  const end = () => {
    ending();
    void reader.cancel().catch(() => {});
    if (!res.writableEnded) res.end();
    return gone;
  };
  streams.add(end);
  void gone.then(() => {
    streams.delete(end);
    return reader.cancel().catch(() => {});
  });
  const failed = reader.closed.then(
    () => undefined,
    () => res.destroy(),
  );
  res.writeHead(status, headers);
  // Sent at once: the client sees the stream open before the first event.
  res.flushHeaders();
  for (;;) {
    let next;
    try {
      next = await reader.read();
    } catch {
      return void res.destroy();
    }
    if (res.destroyed) return;
    if (next.done || res.writableEnded) {
      // Ended already when a stop ended it.
      if (!res.writableEnded) res.end();
      return;
    }
    // The events of one turn (a burst) go out as one write, not one TLS record each.
    if (res.writableCorked === 0) {
      res.cork();
      setImmediate(() => res.uncork());
    }
    if (!res.write(next.value)) await Promise.race([once(res, "drain").catch(() => {}), gone, failed, ended]);
  }
}

/** Notes for a developer, printed with NODE_DEBUG=intake; none by default. */
const debug = debuglog("intake");

/** The bytes of a request's line and headers, as node counted them (headers are latin1: a character a byte). */
function headSize(req: IncomingMessage): number {
  let size = (req.method?.length ?? 0) + (req.url?.length ?? 0) + 11;
  for (const part of req.rawHeaders) size += part.length + 2;
  return size;
}

/**
 * A request header as Headers.get gives it: every occurrence, joined with ", " (req.headers
 * would keep only the first Authorization, hiding a second key). A scan of the raw list: a
 * request has a handful of headers, and this allocates nothing.
 */
function headerOf(raw: string[], wanted: string): string | null {
  const name = wanted.toLowerCase();
  let found: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const candidate = raw[i]!;
    if (candidate.length !== name.length || candidate.toLowerCase() !== name) continue;
    found = found === null ? raw[i + 1]! : `${found}, ${raw[i + 1]!}`;
  }
  return found;
}

/** Every header as Headers lists them: names in lower case, repeated ones joined with ", ". */
function headerEntries(raw: string[]): Array<[string, string]> {
  const joined = new Map<string, string>();
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const before = joined.get(name);
    joined.set(name, before === undefined ? raw[i + 1]! : `${before}, ${raw[i + 1]!}`);
  }
  return [...joined];
}

/**
 * The body, read up to one byte past the limit so the core can say it is too large. A read that
 * cannot finish (the client left, the body stopped arriving, node could not parse its framing)
 * fails with the error the core answers.
 */
function readBody(req: IncomingMessage, maxBodyBytes: number, idleMs: number): Promise<{ body: Buffer; overflow: boolean }> {
  if (req.method === "GET" || req.method === "HEAD") return Promise.resolve({ body: EMPTY, overflow: false });
  const socket = req.socket;
  const why = broken.get(socket);
  if (why) return Promise.reject(why);
  // Gone before the core asked for its body: a destroyed stream emits nothing more to wait for.
  if (req.destroyed) return Promise.reject(abandoned());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      req.off("data", onData).off("timeout", onIdle);
      // The connection's idle time is counted only while its body is awaited: a slow answer is not the client's delay.
      req.setTimeout(0);
      bodyReaders.delete(socket);
    };
    const fail = (error: HttpError) => {
      finish();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size > maxBodyBytes) {
        finish();
        req.pause();
        resolve({ body: Buffer.concat(chunks).subarray(0, maxBodyBytes + 1), overflow: true });
      }
    };
    const onIdle = () => fail(stalled(idleMs));
    bodyReaders.set(socket, fail);
    req.on("data", onData);
    req.setTimeout(idleMs, onIdle);
    req.once("end", () => {
      finish();
      resolve({ body: chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), overflow: false });
    });
    // Node's one error on a request: the connection closed before the body was whole.
    req.once("error", () => fail(abandoned()));
  });
}
