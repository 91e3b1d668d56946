/**
 * @intake/server/connect: what a test needs to reach an Intake server started elsewhere (a
 * global set-up, another process): a fetch that trusts its certificate and the typed admin
 * client. It loads none of the server itself, so it works in any test runner's workers (jest's
 * included) and stays light.
 *
 * ```ts
 * const intake = connectIntake(JSON.parse(process.env.INTAKE_CONNECTION!));
 * await intake.admin.reset(seed);
 * ```
 */
import { Agent, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { createAdminClient, type AdminClient } from "./admin/client.js";

export * from "./admin-client.js";

/** What a test needs to reach a running server: plain JSON, so it crosses into test workers. */
export interface IntakeConnection {
  origin: string;
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
  /** The PEM of the server's certificate, and the file it is in (for NODE_EXTRA_CA_CERTS). */
  certificate: string;
  certificatePath: string;
  /**
   * Each account's API key when the server started, by account id. After a reset with another
   * seed or a key rotation, read them from `admin.accounts()`.
   */
  keys: Record<string, string>;
}

export interface ConnectedIntake extends IntakeConnection {
  /** A fetch that trusts the server's certificate: give it to @intake/client as `fetch`. */
  fetch: TrustingFetch;
  admin: AdminClient;
}

export type TrustingFetch = ((input: Request | string | URL, init?: RequestInit) => Promise<Response>) & { close(): void };

/** Reaches a server started elsewhere (a global set-up) from its connection. */
export function connectIntake(connection: IntakeConnection): ConnectedIntake {
  // The connection usually travels from a global set-up (vitest's provide/inject, jest's
  // process.env): when it did not arrive, say where it should have come from.
  if (
    !connection ||
    typeof connection !== "object" ||
    typeof connection.certificate !== "string" ||
    typeof connection.adminUrl !== "string"
  ) {
    throw new TypeError(
      `connectIntake needs the connection startIntakeServer() returned as \`connection\` (got ${connection === undefined ? "undefined" : JSON.stringify(connection)?.slice(0, 80)}). ` +
        'Pass it from a global set-up: vitest `project.provide("intake", server.connection)` then `inject("intake")`; jest `process.env.INTAKE_CONNECTION = JSON.stringify(server.connection)` then `JSON.parse(process.env.INTAKE_CONNECTION!)`. Check that the set-up file is configured (globalSetup) and ran.',
    );
  }
  const fetch = trustingFetch(connection.certificate);
  return { ...connection, fetch, admin: createAdminClient({ adminUrl: connection.adminUrl, token: connection.adminToken, fetch }) };
}

/**
 * A fetch for HTTPS requests that trusts this certificate (and the system's CAs), on node:https,
 * keeping connections alive. Other URLs go to globalThis.fetch. Redirects are not followed.
 */
export function trustingFetch(certificate: string): TrustingFetch {
  const agent = new Agent({ keepAlive: true, ca: certificate });
  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== "https:") return globalThis.fetch(request);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpsRequest(
        {
          agent,
          hostname: url.hostname.replace(/^\[|\]$/g, ""),
          port: url.port || 443,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers,
          servername: isIP(url.hostname.replace(/^\[|\]$/g, "")) ? undefined : url.hostname,
          signal: request.signal,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one);
            }
            const status = incoming.statusCode ?? 500;
            const empty = status === 204 || status === 205 || status === 304;
            resolve(
              new Response(empty ? null : Buffer.concat(chunks), { status, statusText: incoming.statusMessage, headers: responseHeaders }),
            );
          });
        },
      );
      // Errors look like fetch's, so callers (@intake/client) classify them the same way.
      outgoing.on("error", (error) =>
        reject(request.signal.aborted ? request.signal.reason : new TypeError("fetch failed", { cause: error })),
      );
      outgoing.end(body);
    });
  };
  return Object.assign(fetch, { close: () => agent.destroy() });
}
