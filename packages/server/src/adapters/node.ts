/**
 * The node adapter: serves an Intake over HTTPS on node:https. One port takes both TLS and plain
 * HTTP: the first byte tells them apart, TLS goes to the HTTPS server, and plain HTTP reaches the
 * core as an http:// request, which refuses it with HTTPS_REQUIRED in the route's error shape.
 */
import { STATUS_CODES, createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Socket } from "node:net";
import { once } from "node:events";
import { rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { ApiRequest, ApiResponse } from "../http/exchange.js";
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
   * How long a client has to send a request's line and headers (and its first byte after
   * connecting) before the connection is closed; a whole request has at least 5 minutes.
   * Default 60 000, node's own.
   */
  headersTimeoutMs?: number;
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
  close(): Promise<void>;
}

export async function serve(intake: Served, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const tls = await loadCertificate({ ...options, hosts: [host, ...(options.hosts ?? [])] });
  // Filled in once listening: requests are addressed to this server, whatever their Host header says.
  let origin = "";
  const handler = (scheme: "https" | "http") => requestListener(intake, () => `${scheme}://${origin}`);
  const headersTimeout = options.headersTimeoutMs ?? 60_000;
  const limits = {
    maxHeaderSize: NODE_HEAD_BYTES,
    headersTimeout,
    requestTimeout: Math.max(300_000, headersTimeout),
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, headersTimeout / 4)),
  };
  const https = createHttpsServer({ cert: tls.cert, key: tls.key, ...limits }, handler("https"));
  const http = createHttpServer(limits, handler("http"));
  https.on("clientError", (error, socket) => void refuseMalformed(intake, `https://${origin}`, error, socket as Socket));
  http.on("clientError", (error, socket) => void refuseMalformed(intake, `http://${origin}`, error, socket as Socket));
  const sockets = new Set<Socket>();

  const listener = createNetServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // A connection that sends nothing is not held: node's own timeouts start with the first byte.
    socket.setTimeout(headersTimeout, () => socket.destroy());
    socket.once("data", (first) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(first);
      // 0x16: a TLS handshake record. Anything else is taken for plain HTTP.
      (first[0] === 0x16 ? https : http).emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
    socket.on("error", () => socket.destroy());
  });

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
    port,
    certificate: tls.cert,
    certificatePath: tls.certPath,
    ...(tls.renewed ? { certificateRenewed: tls.renewed } : {}),
    async close() {
      const closed = new Promise((resolve) => listener.close(resolve));
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
export function requestListener(intake: Served, origin: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    track(req.socket, res);
    void respond(intake, origin(), req, res);
  };
}

async function respond(intake: Served, origin: string, req: IncomingMessage, res: ServerResponse) {
  const target = req.url ?? "/";
  try {
    // Only a path is a target here ("*" and absolute forms are for proxies); prefixing it with
    // this server's own origin means the Host header cannot steer routing.
    const isPath = target.startsWith("/");
    const refusal = !isPath ? NOT_A_PATH : headSize(req) > HEAD_BYTES ? HEAD_TOO_LARGE : undefined;
    const raw = req.rawHeaders;
    // Read only if the core asks, and only as far as the limit it gives: a request refused before
    // its body matters is not buffered.
    let read: Promise<{ body: Buffer; overflow: boolean }> | undefined;
    const response = await intake.handle({
      method: req.method ?? "GET",
      url: new URL(`${origin}${isPath ? target : "/"}`),
      headers: { get: (name) => headerOf(raw, name) },
      bytes: async (maxBytes) => (await (read ??= readBody(req, maxBytes))).body,
      refusal,
    });
    const overflow = read !== undefined && (await read).overflow;
    if (response.drop) {
      // A fault rule that drops the connection, once the answers to the requests before this one on it are out.
      await answersBefore(req.socket, res);
      return void req.socket.destroy();
    }
    // An upload cut short at the limit is not read further, and a client that sent a proxy's target
    // or headers past the limit is not speaking to us as the API expects: neither connection is reused.
    if (overflow || refusal) response.headers.connection = "close";
    // A known length spares the chunked framing: one write of head and body, not three.
    if (response.body !== null) response.headers["content-length"] = String(Buffer.byteLength(response.body));
    res.writeHead(response.status, response.headers);
    res.end(response.body ?? undefined);
    if (overflow) req.destroy();
  } catch (error) {
    if (!res.headersSent) send(res, 500, errorFor(target, "INTERNAL_ERROR", "Internal error. Retry later."));
    else res.end();
    intake.reportError(new Error(`The node adapter could not answer ${req.method} ${target.split("?")[0]}.`, { cause: error }));
  }
}

const EMPTY = Buffer.alloc(0);

/** How long a stop waits for answers already made to be written. */
const CLOSE_GRACE_MS = 2000;

/**
 * The responses each connection has open, in the order of their requests. Node writes a
 * connection's answers in that order; a dropped or refused request must wait for those before it.
 */
const responsesOf = new WeakMap<Socket, Set<ServerResponse>>();

function track(socket: Socket, res: ServerResponse) {
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

const NOT_A_PATH = { code: "VALIDATION_ERROR", message: "The request target must be a path such as /v1/contacts." } as const;
const HEAD_TOO_LARGE = { code: "PAYLOAD_TOO_LARGE", message: "The request's URL and headers are larger than the server accepts (16 KiB)." } as const;

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

/**
 * Requests node cannot parse (URL and headers past its limit, garbage) are answered by the core,
 * in the shape of the route their request line names where node still holds it, with a request
 * id, and journaled; then the connection closes. Only the path is taken: the query may be cut
 * short.
 */
async function refuseMalformed(intake: Served, origin: string, error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) {
  // Node reports every chunk that arrives after the first error again: one refusal a connection.
  if (refused.has(socket)) return;
  refused.add(socket);
  if (!socket.writable) return socket.destroy();
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    // Too slow to finish its request: nothing of it is known to journal. A response under way is cut.
    if (responsesOf.get(socket)?.size) return socket.destroy();
    return void socket.end("HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n", () => socket.destroy());
  }
  const refusal = error.code === "HPE_HEADER_OVERFLOW" ? HEAD_TOO_LARGE : ({ code: "VALIDATION_ERROR", message: "The request is not valid HTTP." } as const);
  const line = /^([A-Z]{1,20}) (\/[^\s?#]*)/.exec(error.rawPacket?.subarray(0, 1024).toString("latin1") ?? "");
  let status = 400;
  let headers: Record<string, string> = JSON_HEADERS;
  let body = errorFor(line?.[2] ?? "/", refusal.code, refusal.message);
  try {
    const response = await intake.handle({ method: line?.[1] ?? "GET", url: new URL(`${origin}${line?.[2] ?? "/"}`), headers: NO_HEADERS, bytes: async () => EMPTY, refusal });
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

/** The body, read up to one byte past the limit so the core can say it is too large. */
function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<{ body: Buffer; overflow: boolean }> {
  if (req.method === "GET" || req.method === "HEAD") return Promise.resolve({ body: EMPTY, overflow: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size > maxBodyBytes) {
        req.off("data", onData);
        req.pause();
        resolve({ body: Buffer.concat(chunks).subarray(0, maxBodyBytes + 1), overflow: true });
      }
    };
    req.on("data", onData);
    req.once("end", () => resolve({ body: chunks.length === 0 ? EMPTY : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), overflow: false }));
    req.once("error", reject);
  });
}
