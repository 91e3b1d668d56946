/**
 * The servers bench/peers.ts compares, each started as its users start it, in its own process on
 * 127.0.0.1: Intake's CLI (HTTPS) and startIntakeServer, prism mock, Mockoon's CLI, WireMock and
 * json-server. Each is timed from its spawn to its first answer to a lookup.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { fileURLToPath } from "node:url";
import { freePort, SPEC } from "../../test-support/prism.js";
import { routes, STORED } from "./routes.js";
import { benchContactId, benchEmail, benchListId, benchPhone, benchSeed } from "./seed.js";
import { stopChild, type Target } from "./targets.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = (path: string) => `${root}node_modules/${path}`;
export const WIREMOCK_JAR = bin("wiremock/build/wiremock-standalone-3.13.2.jar");
const MOCKOON_ADMIN_TOKEN = "bench-peers";

/** A running server: a Target for load, and how to reset it where it has a reset. */
export interface PeerServer extends Target {
  /** Milliseconds from spawning it to its first 2xx answer to a lookup. */
  startMs: number;
  /** One request that resets its state (or its stubs), where the server has one. */
  reset?: () => Promise<number>;
}

export interface Peer {
  name: string;
  /** The server it is, whatever its settings (the name the report's "what it does" table uses). */
  peer: string;
  /** Intake, or another mock server. */
  intake: boolean;
  /** The command, as a user types it (for the report). */
  command: string;
  /**
   * `nodeArgs` go to node before the script, `node` is the node binary to run it with (the
   * machine's by default): only Intake's take them (to profile its start, to start it on each Node line).
   */
  start(dir: string, options?: { nodeArgs?: string[]; node?: string }): Promise<PeerServer>;
}

/** One request with no connection reuse; its status, or undefined when nothing answered. HTTPS trusts any certificate (a probe). */
export function probe(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<number | undefined> {
  const request = url.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: init.method ?? "GET", headers: init.headers, agent: false, rejectUnauthorized: false, timeout: 5_000 },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      },
    );
    req.on("error", () => resolve(undefined));
    req.on("timeout", () => req.destroy());
    req.end(init.body);
  });
}

const lookup = routes.find((r) => r.name.startsWith("look up"))!;

/**
 * Spawns `command` and polls a lookup at `base` every 10 ms until it answers 2xx: the start to
 * first answer, as a user's first request would see it. Output is drained (a full pipe would stall
 * the server) and its tail kept for the error if the server exits first.
 */
async function spawnServer(
  name: string,
  command: string,
  args: string[],
  base: string,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<{ child: ChildProcess; startMs: number; stdout: () => string }> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd ?? root,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
  let tail = "";
  // The start of stdout is kept too: Intake's CLI writes its admin URL and token there.
  let head = "";
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4_000));
  child.stdout!.on("data", (chunk: Buffer) => (head = head.length < 64_000 ? head + chunk.toString() : head));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  track(child);
  const { path } = lookup.call(0, { name, base, stop: async () => {} });
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it answered:\n${tail}`);
    const status = await probe(`${base}${path}`);
    if (status !== undefined && status >= 200 && status < 300) return { child, startMs: performance.now() - started, stdout: () => head };
    if (performance.now() - started > 60_000) throw new Error(`${name} did not answer within 60 s:\n${tail}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Servers still running: killed if the benchmark exits without stopping them. */
const children = new Set<ChildProcess>();
let killOnExit = false;

/** Keeps `child` to kill if the benchmark exits first; the handlers go in with the first server, not on import. */
function track(child: ChildProcess): void {
  if (!killOnExit) {
    killOnExit = true;
    process.on("exit", () => children.forEach((running) => running.kill("SIGKILL")));
    // Stopped with Ctrl-C or SIGTERM, the benchmark exits through the handler above (a signal's default skips it).
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(128 + (signal === "SIGINT" ? 2 : 15)));
  }
  children.add(child);
  child.once("exit", () => children.delete(child));
}

/** Milliseconds one reset request takes, refused if it does not answer 2xx. */
async function timed(name: string, url: string, init: Parameters<typeof probe>[1]): Promise<number> {
  const started = performance.now();
  const status = await probe(url, init);
  if (status === undefined || status < 200 || status >= 300) throw new Error(`${name}: reset answered ${status ?? "nothing"}`);
  return performance.now() - started;
}

/** The files the peers start from, written into `dir` once: Intake's seed, json-server's db.json and routes, WireMock's stubs. */
export async function writePeerFiles(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}/seed.json`, JSON.stringify(benchSeed(STORED, STORED)));
  await cp(fileURLToPath(new URL("wiremock/", import.meta.url)), `${dir}/wiremock`, { recursive: true });
  await writeFile(`${dir}/routes.json`, JSON.stringify(JSON_SERVER_ROUTES, null, 2));
}

/** json-server's db.json, fresh for each start (json-server writes every change into it). */
export const jsonServerDb = () => ({
  contacts: Array.from({ length: STORED }, (_, i) => ({
    id: benchContactId(i),
    phone: benchPhone(i),
    email: benchEmail(i),
    firstName: "Lead",
    lastName: `Number ${i}`,
  })),
  lists: Array.from({ length: STORED }, (_, i) => ({ id: benchListId(i), name: `Bench ${i}` })),
  members: [],
  messages: [],
});

/** json-server's routes file: the contract's paths onto its resources, the most specific first (its docs' way). */
export const JSON_SERVER_ROUTES = {
  "/v1/contacts?apiKey=:key&phoneNumber=:phone": "/contacts?phone=:phone",
  "/v1/lists/:listId/contacts?apiKey=:key": "/lists/:listId/members",
  "/v1/incoming_custom_channel_message?apiKey=:key": "/messages",
  "/v1/contacts?apiKey=:key": "/contacts",
};

/** POST /__admin/reset to an Intake started by `spawnServer`, with the URL and token from its JSON line on stdout. */
const intakeReset = (name: string, stdout: () => string) => () => {
  const line = stdout()
    .split("\n")
    .find((l) => l.startsWith('{"event":"listening"'));
  if (!line) throw new Error(`${name} wrote no listening line`);
  const { adminUrl, adminToken } = JSON.parse(line) as { adminUrl: string; adminToken: string };
  return timed(name, `${adminUrl}/reset`, { method: "POST", headers: { authorization: `Bearer ${adminToken}` } });
};

export const PEERS: Peer[] = [
  {
    name: "Intake CLI (HTTPS)",
    peer: "Intake",
    intake: true,
    command: "intake-server --seed seed.json --rate-limit 0 --log quiet",
    async start(dir, options = {}) {
      const port = await freePort();
      const args = [
        ...(options.nodeArgs ?? []),
        `${root}packages/server/dist/cli.js`,
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--seed",
        `${dir}/seed.json`,
        "--rate-limit",
        "0",
        "--log",
        "quiet",
      ];
      const base = `https://127.0.0.1:${port}/v1`;
      const { child, startMs, stdout } = await spawnServer(this.name, options.node ?? process.execPath, args, base);
      return { name: this.name, base, pid: child.pid, startMs, stop: stopChild(child), reset: intakeReset(this.name, stdout) };
    },
  },
  {
    name: "Intake startIntakeServer (HTTPS)",
    peer: "Intake",
    intake: true,
    command: "await startIntakeServer({ seed }) (@intake/server/testing), in a node script",
    async start(dir, options = {}) {
      const port = await freePort();
      const base = `https://127.0.0.1:${port}/v1`;
      const script = fileURLToPath(new URL("testing-peer.mjs", import.meta.url));
      const { child, startMs, stdout } = await spawnServer(
        this.name,
        options.node ?? process.execPath,
        [...(options.nodeArgs ?? []), script, String(port), `${dir}/seed.json`],
        base,
      );
      return { name: this.name, base, pid: child.pid, startMs, stop: stopChild(child), reset: intakeReset(this.name, stdout) };
    },
  },
  ...[true, false].flatMap((fastest) => [prism(fastest), mockoon(fastest), wiremock(fastest), jsonServer(fastest)]),
];

/*
 * Each peer twice: as its users start it by default, and with its fastest documented settings
 * (`fastest`), which drop what costs time per request: logging and, for WireMock, its journal.
 */

function prism(fastest: boolean): Peer {
  const flags = fastest ? ["-v", "silent"] : [];
  return {
    name: fastest ? "prism mock -v silent" : "prism mock",
    peer: "prism mock",
    intake: false,
    command: ["prism mock openapi.yaml", ...flags].join(" "),
    async start() {
      const port = await freePort();
      // One process, as prism runs where NODE_ENV is not production: the pid measured is the server's.
      const args = [
        bin("@stoplight/prism-cli/dist/index.js"),
        "mock",
        SPEC,
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        ...flags,
        "--multiprocess=false",
      ];
      const base = `http://127.0.0.1:${port}`;
      const { child, startMs } = await spawnServer(this.name, process.execPath, args, base);
      return { name: this.name, base, pid: child.pid, startMs, stop: stopChild(child) };
    },
  };
}

function mockoon(fastest: boolean): Peer {
  const flags = fastest ? ["--disable-log-to-file"] : [];
  return {
    name: fastest ? "Mockoon CLI --disable-log-to-file" : "Mockoon CLI",
    peer: "Mockoon CLI",
    intake: false,
    command: ["mockoon-cli start --data openapi.yaml", ...flags].join(" "),
    async start(dir) {
      const port = await freePort();
      const args = [
        bin("@mockoon/cli/bin/run.js"),
        "start",
        "--data",
        SPEC,
        "--port",
        String(port),
        "--hostname",
        "127.0.0.1",
        ...flags,
        "--admin-api-token",
        MOCKOON_ADMIN_TOKEN,
      ];
      const origin = `http://127.0.0.1:${port}`;
      // By default it logs every transaction to a file under the home folder: the run's own folder here.
      const { child, startMs } = await spawnServer(this.name, process.execPath, args, `${origin}/v1`, { env: { HOME: dir } });
      const reset = () =>
        timed(this.name, `${origin}/mockoon-admin/state/purge`, {
          method: "POST",
          headers: { authorization: `Bearer ${MOCKOON_ADMIN_TOKEN}` },
        });
      return { name: this.name, base: `${origin}/v1`, pid: child.pid, startMs, stop: stopChild(child), reset };
    },
  };
}

function wiremock(fastest: boolean): Peer {
  const flags = fastest ? ["--no-request-journal", "--disable-request-logging"] : [];
  return {
    name: fastest ? "WireMock --no-request-journal" : "WireMock",
    peer: "WireMock",
    intake: false,
    command: ["java -jar wiremock-standalone-3.13.2.jar", ...flags].join(" "),
    async start(dir) {
      const port = await freePort();
      const args = [
        "-jar",
        WIREMOCK_JAR,
        "--port",
        String(port),
        "--bind-address",
        "127.0.0.1",
        "--root-dir",
        `${dir}/wiremock`,
        ...flags,
        "--disable-banner",
      ];
      const origin = `http://127.0.0.1:${port}`;
      const { child, startMs } = await spawnServer(this.name, "java", args, `${origin}/v1`);
      const reset = () => timed(this.name, `${origin}/__admin/reset`, { method: "POST" });
      return { name: this.name, base: `${origin}/v1`, pid: child.pid, startMs, stop: stopChild(child), reset };
    },
  };
}

function jsonServer(fastest: boolean): Peer {
  const flags = fastest ? ["--quiet"] : [];
  return {
    name: fastest ? "json-server 0.17 --quiet" : "json-server 0.17",
    peer: "json-server 0.17",
    intake: false,
    command: ["json-server db.json --routes routes.json", ...flags].join(" "),
    async start(dir) {
      const port = await freePort();
      await writeFile(`${dir}/db.json`, JSON.stringify(jsonServerDb(), null, 2));
      const args = [
        bin("json-server/lib/cli/bin.js"),
        "db.json",
        "--routes",
        "routes.json",
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        ...flags,
      ];
      const base = `http://127.0.0.1:${port}/v1`;
      const { child, startMs } = await spawnServer(this.name, process.execPath, args, base, { cwd: dir });
      return { name: this.name, base, pid: child.pid, startMs, stop: stopChild(child) };
    },
  };
}
