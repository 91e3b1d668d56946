/**
 * The node adapter: serves an Intake over HTTPS on node:https. One port takes both TLS and plain
 * HTTP: the first byte tells them apart, TLS goes to the HTTPS server, and plain HTTP reaches the
 * core as an http:// request, which refuses it with HTTPS_REQUIRED in the route's error shape.
 */
import { STATUS_CODES, createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { once } from "node:events";
import { rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { debuglog } from "node:util";
import type { ApiRequest, ApiResponse } from "../http/exchange.js";
import { HttpError, badRequest } from "../shared/errors.js";
import { createDashboard, DASHBOARD_BASE, isDashboardPath } from "../http/dashboard.js";
import { dashboardFiles } from "./dashboard-files.js";
import { loadCertificate, type Certificate, type CertificateOptions } from "./tls.js";

/** What the adapter needs of the service (an Intake has it): its core, and where to report the adapter's own failures. */
export interface Served {
  handle(request: ApiRequest): Promise<ApiResponse>;
  reportError(error: unknown): void;
}

export interface ServeOptions extends CertificateOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. Default 0. */
  port?: number;
  /**
   * How long a client has to send a request's line and headers, to finish its TLS handshake (and
   * to send its first byte after connecting) before the connection is closed, and how long a
   * request body may stop arriving before it is answered 408. Default 60 000, node's own.
   */
  headersTimeoutMs?: number;
  /** How long a whole request (line, headers and body) may take; at least headersTimeoutMs. Default 300 000, node's own. */
  requestTimeoutMs?: number;
  /** Connections open at once (1 or more); those past it are closed as they come. Default 1000. */
  maxConnections?: number;
  /** Serve the dashboard at /__dashboard/ from the built files (default), from this folder, or not (false). */
  dashboard?: boolean | string;
  /** Believe X-Forwarded-Proto for the dashboard's HTTPS check (as createIntake's option does for the API). Default false. */
  trustForwardedProto?: boolean;
}

export interface RunningServer {
  /** `https://host:port` */
  origin: string;
  baseUrl: string;
  adminUrl: string;
  port: number;
  /** The PEM of the certificate served, and the file it is in. */
  certificate: string;
  certificatePath: string;
  /** Why the certificate kept beside the data file was replaced by a new one, when it was: clients must trust the new one. */
  certificateRenewed?: string;
  /** `https://host:port/__dashboard/`: log in with the admin token (in the fragment, `#token=…`, or on its login page). */
  dashboardUrl: string;
  close(): Promise<void>;
}

export async function serve(intake: Served, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const maxConnections = options.maxConnections ?? 1000;
  // 0 would refuse every connection: a server that serves no one is a mistake to say at once.
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new Error(`maxConnections takes a whole number, 1 or more (got ${maxConnections}).`);
  const tls = await loadCertificate({ ...options, hosts: [host, ...(options.hosts ?? [])] });
  const served = withDashboard(intake, options);
  // Filled in once listening: requests are addressed to this server, whatever their Host header says.
  let origin = "";
  const headersTimeout = options.headersTimeoutMs ?? 60_000;
  const limits = {
    maxHeaderSize: NODE_HEAD_BYTES,
    headersTimeout,
    requestTimeout: Math.max(options.requestTimeoutMs ?? 300_000, headersTimeout),
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, headersTimeout / 4)),
    // Node would answer a request without Host itself, with an empty 400: the core refuses it instead.
    requireHostHeader: false,
  };
  const https = createHttpsServer({ cert: tls.cert, key: tls.key, handshakeTimeout: headersTimeout, ...limits });
  const http = createHttpServer(limits);
  const streams = new Set<() => Promise<void>>();
  for (const [server, scheme] of [[https, "https"], [http, "http"]] as const) {
    const handlers = nodeHandlers(served, () => `${scheme}://${origin}`, { bodyTimeoutMs: headersTimeout, streams });
    server.on("request", handlers.request);
    server.on("checkExpectation", handlers.checkExpectation);
    server.on("connect", handlers.connect);
    server.on("clientError", handlers.clientError);
  }
  // Node reports a head too large without its request line once it spans several reads: the
  // line that opened the connection is kept, for the route's error shape.
  https.on("secureConnection", (socket: Socket) => socket.once("data", (first: Buffer) => noteFirstLine(socket, first)));
  const sockets = new Set<Socket>();

  const listener = createNetServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // A connection that sends nothing is not held: node's own timeouts start with the first byte.
    socket.setTimeout(headersTimeout, () => socket.destroy());
    socket.once("data", (first) => {
      socket.setTimeout(0);
      if (first[0] !== 0x16) noteFirstLine(socket, first);
      socket.pause();
      socket.unshift(first);
      // 0x16: a TLS handshake record. Anything else is taken for plain HTTP.
      (first[0] === 0x16 ? https : http).emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
    socket.on("error", () => socket.destroy());
  });
  // Each connection holds memory and a file descriptor: past the cap, node closes new ones at once.
  listener.maxConnections = maxConnections;

  try {
    await new Promise<void>((resolve, reject) => {
      listener.once("error", (error: NodeJS.ErrnoException) => {
        reject(
          error.code === "EADDRINUSE"
            ? new Error(`Port ${options.port} on ${host} is in use: stop what holds it, or use port 0 (--port 0, or port: 0 in code) for any free port.`)
            : error,
        );
      });
      listener.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    await removeTemporary(tls);
    throw error;
  }
  // Node checks the header and request timeouts from its 'listening' event, which servers handed
  // their connections one by one never see.
  for (const server of [https, http]) server.emit("listening");
  const port = (listener.address() as { port: number }).port;
  origin = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const url = `https://${origin}`;

  return {
    origin: url,
    baseUrl: `${url}/v1`,
    adminUrl: `${url}/__admin`,
    dashboardUrl: `${url}${DASHBOARD_BASE}/`,
    port,
    certificate: tls.cert,
    certificatePath: tls.certPath,
    ...(tls.renewed ? { certificateRenewed: tls.renewed } : {}),
    async close() {
      const closed = new Promise((resolve) => listener.close(resolve));
      // Streams still open end as a stream ends (their body closed), before the connections are cut.
      await Promise.race([Promise.all([...streams].map((end) => end())), sleep(CLOSE_GRACE_MS, undefined, { ref: false })]);
      // Also stops their timeout checks.
      https.close();
      http.close();
      // Answers already made go out before their connections are cut; requests still being
      // handled are cut.
      await Promise.all([...sockets].map(async (socket) => {
        // A client that reads nothing does not hold the stop: its answers get a moment.
        await Promise.race([answersWritten(socket), sleep(CLOSE_GRACE_MS, undefined, { ref: false })]);
        socket.destroy();
      }));
      await closed;
      await removeTemporary(tls);
    },
  };
}

/** The service, with /__dashboard answered from the dashboard's files (refused requests go to the core, which answers them all). */
function withDashboard(intake: Served, options: ServeOptions): Served {
  if (options.dashboard === false) return intake;
  const dashboard = createDashboard(dashboardFiles(typeof options.dashboard === "string" ? options.dashboard : undefined), {
    trustForwardedProto: options.trustForwardedProto ?? false,
  });
  return {
    handle: (request) => (!request.refusal && isDashboardPath(request.url.pathname) ? dashboard(request) : intake.handle(request)),
    reportError: (error) => intake.reportError(error),
  };
}

/** A certificate generated for this run, and its folder if the run made one of its own. */
async function removeTemporary(tls: Certificate) {
  if (tls.temporary) await rm(tls.certPath, { force: true });
  if (tls.temporaryFolder) await rm(tls.temporaryFolder, { recursive: true, force: true });
}

/**
 * The core as a node:http request listener: each request reaches it addressed to `origin()`
 * (whatever its Host header says). `serve` uses it for both schemes; the benchmarks put it behind
 * a plain node:http server to compare the core with other servers without TLS.
 */
export function requestListener(intake: Served, origin: () => string, options: ListenerOptions = {}) {
  return nodeHandlers(intake, origin, options).request;
}

export interface ListenerOptions {
  /** How long a request body may stop arriving before it is answered 408 and its connection closed. Default 60 000. */
  bodyTimeoutMs?: number;
  /** Where each stream being sent puts how to end it (a stop ends them), while it is open. */
  streams?: Set<() => Promise<void>>;
}

/**
 * The core behind each of node's HTTP server events: requests, and what node would otherwise
 * answer itself (outside the API's error shapes, without a request id) or leave unanswered.
 */
function nodeHandlers(intake: Served, origin: () => string, { bodyTimeoutMs = 60_000, streams = new Set() }: ListenerOptions) {
  const answer = (req: IncomingMessage, res: ServerResponse, refusal?: Refusal) => {
    track(req, res);
    void respond(intake, origin(), req, res, { bodyTimeoutMs, streams }, refusal);
  };
  return {
    request: (req: IncomingMessage, res: ServerResponse) => answer(req, res),
    // Any Expect but 100-continue (which node answers, then hands the request on).
    checkExpectation: (req: IncomingMessage, res: ServerResponse) => answer(req, res, EXPECTATION_FAILED),
    // A proxy's tunnel: node hands over the bare connection, to be answered on it.
    connect: (req: IncomingMessage, socket: Duplex) => {
      const target = req.url ?? "";
      socket.on("error", () => socket.destroy());
      void answerRaw(intake, origin(), socket as Socket, req.method ?? "CONNECT", target.startsWith("/") ? target : "/", NOT_A_TUNNEL);
    },
    clientError: (error: Error, socket: Duplex) => void refuseMalformed(intake, origin(), error, socket as Socket),
  };
}

async function respond(intake: Served, origin: string, req: IncomingMessage, res: ServerResponse, { bodyTimeoutMs, streams }: Required<ListenerOptions>, given?: Refusal) {
  const target = req.url ?? "/";
  const socket = req.socket;
  try {
    // Only a path is a target here ("*" and absolute forms are for proxies); prefixing it with
    // this server's own origin means the Host header cannot steer routing.
    const isPath = target.startsWith("/");
    const raw = req.rawHeaders;
    const refusal =
      given ??
      (!isPath ? NOT_A_PATH : headSize(req) > HEAD_BYTES ? HEAD_TOO_LARGE : req.httpVersion === "1.1" && headerOf(raw, "host") === null ? NO_HOST : undefined);
    // Read only if the core asks, and only as far as the limit it gives: a request refused before
    // its body matters is not buffered.
    let read: Promise<{ body: Buffer; overflow: boolean }> | undefined;
    const response = await intake.handle({
      method: req.method ?? "GET",
      url: new URL(`${origin}${isPath ? target : "/"}`),
      headers: { get: (name) => headerOf(raw, name) },
      bytes: async (maxBytes) => (await (read ??= readBody(req, maxBytes, bodyTimeoutMs))).body,
      refusal,
    });
    if (socket.destroyed) {
      // The client left (an upload it gave up on, say): no one to answer, and nothing gone wrong here.
      return debug("%s %s: the connection closed before the answer", req.method, target.split("?")[0]);
    }
    // A body not read whole: cut at the limit, stalled, or framed in a way node could not parse.
    const cut = (read !== undefined && (await read.then((body) => body.overflow, () => true))) || broken.has(socket);
    if (response.drop) {
      // A fault rule that drops the connection, once the answers to the requests before this one on it are out.
      await answersBefore(socket, res);
      return void socket.destroy();
    }
    // A body not read whole is not read further, and a client that sent a proxy's target or
    // headers past the limit is not speaking to us as the API expects: no connection is reused.
    if (cut || refusal) response.headers.connection = "close";
    if (response.stream) return await sendStream(res, response.status, response.headers, response.stream, streams);
    // A known length spares the chunked framing: one write of head and body, not three.
    if (response.body !== null) response.headers["content-length"] = String(Buffer.byteLength(response.body));
    res.writeHead(response.status, response.headers);
    res.end(response.body ?? undefined);
    if (cut) req.destroy();
  } catch (error) {
    if (!res.headersSent) send(res, 500, errorFor(target, "INTERNAL_ERROR", "Internal error. Retry later."));
    else res.end();
    intake.reportError(new Error(`The node adapter could not answer ${req.method} ${target.split("?")[0]}.`, { cause: error }));
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * A body that stays open (the live events), written as it comes: each chunk once the connection
 * has taken the last, so a client that reads slowly leaves its chunks in the stream, which bounds
 * them. It ends when the stream does (the server stops) and is cancelled when the client leaves;
 * a stream that fails (its reader fell too far behind) closes the connection.
 */
async function sendStream(res: ServerResponse, status: number, headers: Record<string, string>, stream: ReadableStream<Uint8Array>, streams: Set<() => Promise<void>>) {
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

/** How long a stop waits for answers already made to be written. */
const CLOSE_GRACE_MS = 2000;

/**
 * The responses each connection has open, in the order of their requests. Node writes a
 * connection's answers in that order; a dropped or refused request must wait for those before it.
 */
const responsesOf = new WeakMap<Socket, Set<ServerResponse>>();

/** The last request node handed over on each connection: a parse error while it is incomplete is in its body. */
const lastRequest = new WeakMap<Socket, IncomingMessage>();

function track(req: IncomingMessage, res: ServerResponse) {
  const socket = req.socket;
  lastRequest.set(socket, req);
  let responses = responsesOf.get(socket);
  if (!responses) responsesOf.set(socket, (responses = new Set()));
  responses.add(res);
  res.once("close", () => responses.delete(res));
}

/** Until the answers to the requests before `own` on this connection (all of them, without it) are written, or the connection is gone. */
async function answersBefore(socket: Socket, own?: ServerResponse): Promise<void> {
  const responses = responsesOf.get(socket);
  for (const res of [...(responses ?? [])]) {
    if (res === own) return;
    if (responses!.has(res)) await once(res, "close");
  }
}

/** Until the answers already made on this connection are written: those still being handled are not waited for. */
async function answersWritten(socket: Socket): Promise<void> {
  for (const res of [...(responsesOf.get(socket) ?? [])]) {
    if (res.writableEnded && !res.writableFinished) await once(res, "close");
  }
}

/**
 * The API's limit on a request's URL and headers. Node parses up to four times as much, so that
 * the core, which knows each route's error shape, refuses what lies between; past node's own
 * limit the request line may be lost (over TLS it can sit in an earlier record than the overflow).
 */
const HEAD_BYTES = 16 * 1024;
const NODE_HEAD_BYTES = 4 * HEAD_BYTES;

type Refusal = NonNullable<ApiRequest["refusal"]>;
const NOT_A_PATH: Refusal = { code: "VALIDATION_ERROR", message: "The request target must be a path such as /v1/contacts." };
const HEAD_TOO_LARGE: Refusal = { code: "PAYLOAD_TOO_LARGE", message: "The request's URL and headers are larger than the server accepts (16 KiB)." };
const NOT_HTTP: Refusal = { code: "VALIDATION_ERROR", message: "The request is not valid HTTP." };
const NO_HOST: Refusal = { code: "VALIDATION_ERROR", message: "An HTTP/1.1 request must have a Host header." };
const EXPECTATION_FAILED: Refusal = { status: 417, code: "VALIDATION_ERROR", message: "The server meets no Expect but 100-continue." };
const NOT_A_TUNNEL: Refusal = { code: "VALIDATION_ERROR", message: "CONNECT is not served: this is the API, not a proxy." };

/** Why a body read failed, answered by the core in the route's shape. */
const notHttp = () => badRequest(NOT_HTTP.code, NOT_HTTP.message);
const abandoned = () => badRequest("VALIDATION_ERROR", "The request body did not arrive whole: the client closed the connection.");
const stalled = (ms: number) => new HttpError(408, "VALIDATION_ERROR", `The request body stopped arriving: nothing came for ${ms / 1000} s.`);
const tooSlow = () => new HttpError(408, "VALIDATION_ERROR", "The request took longer than the server allows to arrive.");

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

/** An error body in the shape of the route it was meant for. */
function errorFor(target: string, code: string, message: string): string {
  return JSON.stringify(target.startsWith("/v1/incoming_custom_channel_message") ? { error: message } : { error: { code, message } });
}

/** The headers of an answer the adapter writes itself, when the core could not. */
const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" } as const;

function send(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, JSON_HEADERS);
  res.end(body);
}

const NO_HEADERS = { get: () => null };

/** Connections already being refused. */
const refused = new WeakSet<Socket>();

/** Connections whose request body node could not parse: the request is answered, then the connection closed. */
const broken = new WeakSet<Socket>();

/** How to fail the body read under way on a connection, if one is: node's parse errors and timeouts arrive on the connection, not the request. */
const bodyReaders = new WeakMap<Socket, (error: HttpError) => void>();

/** The request line a connection's first bytes open with. */
const firstLines = new WeakMap<Socket, RequestLine>();

interface RequestLine {
  method: string;
  path: string;
}

/** The method and path at the start of some bytes, if they open with a request line (the query, perhaps cut short, left out). */
function requestLine(bytes: Buffer | undefined): RequestLine | undefined {
  const line = /^([A-Z]{1,20}) (\/[^\s?#]*)/.exec(bytes?.subarray(0, 1024).toString("latin1") ?? "");
  return line ? { method: line[1]!, path: line[2]! } : undefined;
}

function noteFirstLine(socket: Socket, first: Buffer) {
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
 * Answers a refused request on a connection node no longer parses: the core's answer (the adapter's
 * own, should the core fail), after the answers to the requests before it; then the connection closes.
 */
async function answerRaw(intake: Served, origin: string, socket: Socket, method: string, path: string, refusal: Refusal) {
  let status: number = refusal.status ?? 400;
  let headers: Record<string, string> = JSON_HEADERS;
  let body = errorFor(path, refusal.code, refusal.message);
  try {
    const response = await intake.handle({ method, url: new URL(`${origin}${path}`), headers: NO_HEADERS, bytes: async () => EMPTY, refusal });
    status = response.status;
    headers = response.headers;
    body = response.body ?? "";
  } catch (cause) {
    intake.reportError(new Error("The node adapter could not answer a request it could not parse.", { cause }));
  }
  await answersBefore(socket);
  if (!socket.writable) return socket.destroy();
  const head = Object.entries({ ...headers, "content-length": String(Buffer.byteLength(body)), connection: "close" })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  // Closed both ways once written: a client that keeps its side open does not hold the socket.
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n${head}\r\n${body}`, () => socket.destroy());
}

/**
 * The body, read up to one byte past the limit so the core can say it is too large. A read that
 * cannot finish (the client left, the body stopped arriving, node could not parse its framing)
 * fails with the error the core answers.
 */
function readBody(req: IncomingMessage, maxBodyBytes: number, idleMs: number): Promise<{ body: Buffer; overflow: boolean }> {
  if (req.method === "GET" || req.method === "HEAD") return Promise.resolve({ body: EMPTY, overflow: false });
  const socket = req.socket;
  if (broken.has(socket)) return Promise.reject(notHttp());
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
