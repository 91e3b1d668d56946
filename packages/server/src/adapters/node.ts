/**
 * The node adapter: serves an Intake over HTTPS on node:https. One port takes both TLS and plain
 * HTTP: the first byte tells them apart, TLS goes to the HTTPS server, and plain HTTP reaches the
 * core as an http:// request, which refuses it with HTTPS_REQUIRED in the route's error shape.
 * The requests themselves are node-requests.ts's.
 */
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type Socket } from "node:net";
import { rm } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { DashboardFiles } from "../http/dashboard.js";
import { BASES } from "../http/routes.js";
import { dashboardFiles } from "./dashboard-files.js";
import { clientErrorHandler, noteFirstLine, tunnelHandler } from "./node-refusals.js";
import { EXPECTATION_FAILED, NODE_HEAD_BYTES, answersWritten, requestHandler, type Address, type Served } from "./node-requests.js";
import { loadCertificate, type Certificate, type CertificateOptions } from "./tls.js";

/** What the adapter needs of the service (an Intake has it): its core, where to report the adapter's own failures, and a place for the dashboard's files. */
export interface Servable extends Served {
  serveDashboard(files: DashboardFiles | undefined): void;
}

/** How long a stop waits for answers already made to be written. */
const CLOSE_GRACE_MS = 2000;

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

export async function serve(intake: Servable, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const maxConnections = options.maxConnections ?? 1000;
  // 0 would refuse every connection: a server that serves no one is a mistake to say at once.
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new Error(`maxConnections takes a whole number, 1 or more (got ${maxConnections}).`);
  const tls = await loadCertificate({ ...options, hosts: [host, ...(options.hosts ?? [])] });
  if (options.dashboard !== false) intake.serveDashboard(dashboardFiles(typeof options.dashboard === "string" ? options.dashboard : undefined));
  // Their origins are filled in once listening: requests are addressed to this server, whatever their Host header says.
  const secure: Address = { scheme: "https", origin: "" };
  const plain: Address = { scheme: "http", origin: "" };
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
  for (const [server, address] of [[https, secure], [http, plain]] as const) {
    const options = { bodyTimeoutMs: headersTimeout, streams };
    server.on("request", requestHandler(intake, address, options));
    // Any Expect but 100-continue (which node answers, then hands the request on).
    server.on("checkExpectation", requestHandler(intake, address, options, EXPECTATION_FAILED));
    server.on("connect", tunnelHandler(intake, address));
    server.on("clientError", clientErrorHandler(intake, address));
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
  const origin = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  secure.origin = plain.origin = origin;
  const url = `https://${origin}`;

  return {
    origin: url,
    baseUrl: `${url}/v1`,
    adminUrl: `${url}/__admin`,
    dashboardUrl: `${url}${BASES.dashboard}/`,
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

/** A certificate generated for this run, and its folder if the run made one of its own. */
async function removeTemporary(tls: Certificate) {
  if (tls.temporary) await rm(tls.certPath, { force: true });
  if (tls.temporaryFolder) await rm(tls.temporaryFolder, { recursive: true, force: true });
}
