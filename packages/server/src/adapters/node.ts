/**
 * The node adapter: serves an Intake over HTTPS on node:https. One port takes both TLS and plain
 * HTTP: the first byte tells them apart, TLS goes to the HTTPS server, and plain HTTP reaches the
 * core as an http:// request, which refuses it with HTTPS_REQUIRED in the route's error shape.
 * The requests themselves are node-requests.ts's.
 */
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { DashboardFiles } from "../http/steps/serve-dashboard.js";
import { BASES } from "../http/routes.js";
import { dashboardFiles } from "./dashboard-files.js";
import { clientShare, lingerOnClose, settle } from "./node-connections.js";
import { clientErrorHandler, noteFirstLine, tunnelHandler } from "./node-refusals.js";
import { EXPECTATION_FAILED, NODE_HEAD_BYTES, requestHandler, type Address, type Served } from "./node-requests.js";
import { isLoopbackHost } from "../shared/loopback.js";
import { loadCertificate, type Certificate, type CertificateOptions } from "./tls.js";

/** What the adapter needs of the service (an Intake has it): its core, where to report the adapter's own failures, and a place for the dashboard's files. */
export interface Servable extends Served {
  serveDashboard(files: DashboardFiles | undefined): void;
}

/** How long a stop waits for the live event streams to end, then for the requests taken to be answered. */
const CLOSE_GRACE_MS = 2000;

export interface ServeOptions extends CertificateOptions {
  /** Default 127.0.0.1. */
  host?: string | undefined;
  /** 0 picks a free port. Default 0. */
  port?: number | undefined;
  /**
   * How long a client has to send a request's line and headers, to finish its TLS handshake (and
   * to send its first byte after connecting) before the connection is closed, and how long a
   * request body may stop arriving before it is answered 408. Default 60 000, node's own.
   */
  headersTimeoutMs?: number | undefined;
  /** How long a whole request (line, headers and body) may take; at least headersTimeoutMs. Default 300 000, node's own. */
  requestTimeoutMs?: number | undefined;
  /** Connections open at once (1 or more); those past it are closed as they come. Default 1000. */
  maxConnections?: number | undefined;
  /**
   * Connections one client (one remote address) may hold at once, from 1 to maxConnections; its
   * connections past it are closed as they come, so that one client cannot take them all. Default
   * half of maxConnections, rounded up.
   */
  maxConnectionsPerClient?: number | undefined;
  /** Serve the dashboard at /__dashboard/ from the built files (default), from this folder, or not (false). */
  dashboard?: boolean | string | undefined;
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
  /**
   * `http://127.0.0.1:port` when the server listens on a loopback address or on every address:
   * where a browser on this machine opens the dashboard (and the admin API and inbox) in plain
   * HTTP, with no certificate to trust. Undefined when it listens only on another address.
   */
  localOrigin?: string;
  /**
   * The dashboard: `localOrigin`'s `/__dashboard/` when there is one, else `https://host:port/__dashboard/`.
   * Log in with the admin token (in the fragment, `#token=…`, or on its login page).
   */
  dashboardUrl: string;
  close(): Promise<void>;
}

export async function serve(intake: Servable, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const { maxConnections, admit } = connectionCaps(options);
  const tls = await loadCertificate({ ...options, hosts: [host, ...(options.hosts ?? [])] });
  if (options.dashboard !== false)
    intake.serveDashboard(dashboardFiles(typeof options.dashboard === "string" ? options.dashboard : undefined));
  // Their origins are filled in once listening: requests are addressed to this server, whatever their Host header says.
  const secure: Address = { scheme: "https", origin: "" };
  const plain: Address = { scheme: "http", origin: "" };
  const headersTimeout = options.headersTimeoutMs ?? 60_000;
  const limits = {
    maxHeaderSize: NODE_HEAD_BYTES,
    headersTimeout,
    requestTimeout: Math.max(options.requestTimeoutMs ?? 300_000, headersTimeout),
    // Node answers a timeout at its first check past it: checked often, the answer comes within 5%
    // of the time (or a second) rather than up to a quarter late.
    connectionsCheckingInterval: Math.min(1000, Math.max(50, headersTimeout / 20)),
    // Node would answer a request without Host itself, with an empty 400: the core refuses it instead.
    requireHostHeader: false,
  };
  const https = createHttpsServer({ cert: tls.cert, key: tls.key, handshakeTimeout: headersTimeout, ...limits });
  const http = createHttpServer(limits);
  const streams = new Set<() => Promise<void>>();
  for (const [server, address] of [
    [https, secure],
    [http, plain],
  ] as const) {
    const options = { bodyTimeoutMs: headersTimeout, streams };
    server.on("request", requestHandler(intake, address, options));
    // Any Expect but 100-continue (which node answers, then hands the request on).
    server.on("checkExpectation", requestHandler(intake, address, options, EXPECTATION_FAILED));
    server.on("connect", tunnelHandler(intake, address));
    server.on("clientError", clientErrorHandler(intake, address));
  }
  // The connections that speak HTTP (over TLS, the TLS socket): a stop closes each once the
  // answers to the requests it took are out (one whose TLS handshake ends during the stop too).
  const connections = new Set<Socket>();
  let settling: Set<Promise<void>> | undefined;
  const speaksHttp = (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
    lingerOnClose(socket);
    settling?.add(settle(socket));
  };
  https.on("secureConnection", (socket: Socket) => {
    speaksHttp(socket);
    // Node reports a head too large without its request line once it spans several reads: the
    // line that opened the connection is kept, for the route's error shape.
    socket.once("data", (first: Buffer) => noteFirstLine(socket, first));
  });
  const sockets = new Set<Socket>();
  // Connections yet to send their first byte.
  const silent = new Set<Socket>();

  const listener = createNetServer((socket) => {
    // Past one client's share: closed as it comes, as past maxConnections.
    if (!admit(socket)) return void socket.destroy();
    sockets.add(socket);
    silent.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      silent.delete(socket);
    });
    // A connection that sends nothing is not held: node's own timeouts start with the first byte.
    socket.setTimeout(headersTimeout, () => socket.destroy());
    socket.once("data", (first) => {
      silent.delete(socket);
      socket.setTimeout(0);
      if (first[0] !== 0x16) noteFirstLine(socket, first);
      socket.pause();
      socket.unshift(first);
      // 0x16: a TLS handshake record. Anything else is taken for plain HTTP.
      if (first[0] !== 0x16) speaksHttp(socket);
      (first[0] === 0x16 ? https : http).emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
    socket.on("error", () => socket.destroy());
  });
  // Each connection holds memory and a file descriptor: past the cap, node closes new ones at once.
  listener.maxConnections = maxConnections;

  try {
    await listen(listener, options.port ?? 0, host);
  } catch (error) {
    await removeTemporary(tls);
    throw error;
  }
  // Node checks the header and request timeouts from its 'listening' event, which servers handed
  // their connections one by one never see.
  for (const server of [https, http]) server.emit("listening");
  const port = (listener.address() as { port: number }).port;
  secure.origin = plain.origin = `${host.includes(":") ? `[${host}]` : host}:${port}`;

  return {
    ...addresses(host, port, secure.origin),
    port,
    certificate: tls.cert,
    certificatePath: tls.certPath,
    ...(tls.renewed ? { certificateRenewed: tls.renewed } : {}),
    async close() {
      const closed = new Promise((resolve) => listener.close(resolve));
      // No request is taken past the answer to the last one each connection has already taken.
      settling = new Set([...connections].map(settle));
      // A connection that has sent nothing has no request to answer.
      for (const socket of silent) socket.destroy();
      // Streams still open end as a stream ends (their body closed), before the connections close.
      await Promise.race([Promise.all([...streams].map((end) => end())), sleep(CLOSE_GRACE_MS, undefined, { ref: false })]);
      // Requests still arriving after that, or whose answers the client does not read, are cut.
      await Promise.race([allOf(settling), sleep(CLOSE_GRACE_MS, undefined, { ref: false })]);
      // Also stops their timeout checks.
      https.close();
      http.close();
      for (const socket of sockets) socket.destroy();
      await closed;
      await removeTemporary(tls);
    },
  };
}

function listen(listener: NetServer, port: number, host: string) {
  return new Promise<void>((resolve, reject) => {
    listener.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `Port ${port} on ${host} is in use: stop what holds it, or use port 0 (--port 0, or port: 0 in code) for any free port.`,
            )
          : error,
      );
    });
    listener.listen(port, host, () => resolve());
  });
}

/** Until every promise in `promises` has settled, those added meanwhile included. */
async function allOf(promises: Set<Promise<void>>) {
  for (let seen = 0; seen < promises.size;) {
    const now = [...promises];
    seen = now.length;
    await Promise.all(now);
  }
}

/** maxConnections, and one client's share of them (`admit` counts a connection to its client, or refuses it). */
function connectionCaps(options: ServeOptions) {
  const maxConnections = options.maxConnections ?? 1000;
  // 0 would refuse every connection: a server that serves no one is a mistake to say at once.
  if (!Number.isInteger(maxConnections) || maxConnections < 1)
    throw new Error(`maxConnections takes a whole number, 1 or more (got ${maxConnections}).`);
  const perClient = options.maxConnectionsPerClient ?? Math.ceil(maxConnections / 2);
  if (!Number.isInteger(perClient) || perClient < 1 || perClient > maxConnections) {
    throw new Error(`maxConnectionsPerClient takes a whole number from 1 to maxConnections (${maxConnections}) (got ${perClient}).`);
  }
  return { maxConnections, admit: clientShare(perClient) };
}

/** A certificate generated for this run, and its folder if the run made one of its own. */
async function removeTemporary(tls: Certificate) {
  if (tls.temporary) await rm(tls.certPath, { force: true });
  if (tls.temporaryFolder) await rm(tls.temporaryFolder, { recursive: true, force: true });
}

/** The server's addresses: HTTPS for the API and the admin API; the dashboard at the local origin when it has one. */
function addresses(host: string, port: number, origin: string) {
  const url = `https://${origin}`;
  const local = localOriginOf(host, port);
  return {
    origin: url,
    baseUrl: `${url}/v1`,
    adminUrl: `${url}/__admin`,
    ...(local ? { localOrigin: local } : {}),
    dashboardUrl: `${local ?? url}${BASES.dashboard}/`,
  };
}

/** Where a browser on this machine reaches a server listening on `host` in plain HTTP (a loopback address), if it can. */
function localOriginOf(host: string, port: number): string | undefined {
  if (host === "0.0.0.0" || host === "::") return `http://127.0.0.1:${port}`;
  if (host === "::1") return `http://[::1]:${port}`;
  return isLoopbackHost(host) ? `http://${host}:${port}` : undefined;
}
