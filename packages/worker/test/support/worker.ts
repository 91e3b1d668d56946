/**
 * The Worker as the tests run it: its bundle in workerd through Miniflare (scripts/serve-local.mjs),
 * in a child process of its own group (so a test can kill workerd as a crash would), on 127.0.0.1
 * over HTTPS with a certificate of this run's, its Durable Objects persisted to a folder.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCertificate } from "@intake/server/node";
import { Agent } from "undici";
import { adminCaller, type FetchFn, type Service, type Target } from "../../../server/test/support/harness.js";
import { LIMITS } from "../../src/sandbox/capacity.js";

const SERVE = fileURLToPath(new URL("../../scripts/serve-local.mjs", import.meta.url));
const BUNDLE = fileURLToPath(new URL("../../dist/worker.js", import.meta.url));
export const OPERATOR_TOKEN = "op_test_0123456789abcdef";

export interface LocalWorker {
  origin: string;
  /** The process serving it (Miniflare's, whose child is workerd). */
  pid: number;
  /** The folder its Durable Objects are kept in. */
  persist: string;
  /** fetch that trusts its certificate. */
  fetch: FetchFn;
  /**
   * A request handed to the Worker with this URL whatever its own (as Miniflare's dispatchFetch
   * does): an http:// one, as Cloudflare hands on a plain-HTTP request after its edge.
   */
  dispatch(url: string): Promise<{ status: number; body: any }>;
  /** The operator API, with the operator token. */
  operator<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T; headers: Headers }>;
  /** workerd's stderr so far (its console.error lines). */
  output(): string;
  /** Kills it at once (SIGKILL to its process group): a crash. */
  crash(): Promise<void>;
  /** Stops it, and removes its folder unless `keep`. */
  stop(options?: { keep?: boolean }): Promise<void>;
}

export interface SandboxInfo {
  name: string;
  baseUrl: string;
  adminUrl: string;
  dashboardUrl: string;
  adminToken: string;
  clock: "real" | "virtual";
  accounts: Array<{ id: string; name: string; kind: string; apiKey: string; webhookSecret: string; webhookUrl: string | null }>;
}

let certificate: Promise<{ cert: string; certPath: string; keyPath: string }> | undefined;

/** One certificate for the whole run (generating one takes a moment), its key in a file beside it. */
function runCertificate() {
  return (certificate ??= (async () => {
    const folder = mkdtempSync(join(tmpdir(), "intake-worker-cert-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    const tls = await loadCertificate({ certDir: folder });
    const keyPath = join(folder, "worker.key.pem");
    writeFileSync(keyPath, tls.key, { mode: 0o600 });
    return { cert: tls.cert, certPath: tls.certPath, keyPath };
  })());
}

export interface WorkerOptions {
  /** Where its Durable Objects are kept (default: a new folder, removed when it stops). */
  persist?: string;
  /** Its port (default: a free one): a restart takes the port it had, so its sandboxes' URLs stay. */
  port?: number;
  inspectorPort?: number;
  /** Variables for the Worker, over wrangler.toml's [vars]. */
  vars?: Record<string, string>;
}

export async function startWorker(options: WorkerOptions = {}): Promise<LocalWorker> {
  const stale = staleSource();
  if (stale)
    throw new Error(`The Worker's bundle is older than ${stale}: build it again (npm run build), so the tests run what the sources say.`);
  const tls = await runCertificate();
  const persist = options.persist ?? mkdtempSync(join(tmpdir(), "intake-worker-"));
  const args = [SERVE, "--cert", tls.certPath, "--key", tls.keyPath, "--operator-token", OPERATOR_TOKEN, "--persist", persist];
  if (options.port) args.push("--port", String(options.port));
  if (options.inspectorPort) args.push("--inspector-port", String(options.inspectorPort));
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}=${value}`);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const origin = await readyUrl(child, () => stderr);
  const dispatcher = new Agent({ connect: { ca: tls.cert } });
  const fetch: FetchFn = (input, init) => globalThis.fetch(input, { ...init, dispatcher } as RequestInit);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    origin,
    pid: child.pid!,
    persist,
    fetch,
    async operator(method, path, body, headers = {}) {
      const response = await fetch(`${origin}/__operator/sandboxes${path}`, {
        method,
        headers: {
          authorization: `Bearer ${OPERATOR_TOKEN}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    },
    async dispatch(url) {
      const { pathname, search } = new URL(url);
      const response = await fetch(`${origin}${pathname}${search}`, { headers: { "mf-original-url": url } });
      return { status: response.status, body: await response.json() };
    },
    output: () => stderr,
    async crash() {
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
    async stop({ keep = false } = {}) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM");
      await exited;
      await dispatcher.close();
      if (!keep) rmSync(persist, { recursive: true, force: true });
    },
  };
}

function readyUrl(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`the Worker did not start in 60 s:\n${stderr()}`)), 60_000);
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      if (!stdout.includes("\n")) return;
      clearTimeout(timer);
      resolve((JSON.parse(stdout.split("\n")[0]!) as { url: string }).url);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Worker exited with ${code}:\n${stderr()}`));
    });
  });
}

/** The sources the bundle is built from (the Worker's, the server's, the dashboard's build): one newer than it, or none; "it" when it is missing. */
function staleSource(): string | undefined {
  if (!existsSync(BUNDLE)) return "nothing (there is none)";
  const built = statSync(BUNDLE).mtimeMs;
  for (const folder of ["../../src", "../../wrangler.toml", "../../../server/src", "../../../dashboard/dist"]) {
    const path = fileURLToPath(new URL(folder, import.meta.url));
    if (!existsSync(path)) continue;
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, encoding: "utf8" }).map((name) => join(path, name))
      : [path];
    const newer = files.find((file) => statSync(file).mtimeMs > built);
    if (newer) return newer;
  }
  return undefined;
}

/** Creates a sandbox; throws with the operator API's answer if it is refused. */
export async function createSandbox(worker: LocalWorker, request: Record<string, unknown>): Promise<SandboxInfo> {
  const created = await worker.operator<SandboxInfo>("POST", "", request);
  if (created.status !== 201) throw new Error(`creating a sandbox answered ${created.status}: ${JSON.stringify(created.body)}`);
  return created.body;
}

/** A sandbox as a test reaches it: its admin API, with its own admin token. */
export function sandboxService(worker: LocalWorker, sandbox: SandboxInfo): Service {
  return {
    origin: sandbox.baseUrl.replace(/\/v1$/, ""),
    baseUrl: sandbox.baseUrl,
    adminUrl: sandbox.adminUrl,
    adminToken: sandbox.adminToken,
    fetch: worker.fetch,
    admin: adminCaller(worker.fetch, sandbox.adminUrl, sandbox.adminToken),
    close: async () => {},
  };
}

/** A sandbox as a behaviour suite's target. */
export function sandboxTarget(worker: LocalWorker, sandbox: SandboxInfo): Target {
  const harness = sandboxService(worker, sandbox);
  return {
    name: "worker",
    baseUrl: sandbox.baseUrl,
    viaProxy: false,
    clientFetch: (request) => worker.fetch(request),
    harness,
    limits: LIMITS,
  };
}
