/** Starts the servers the benchmarks compare, each in its own process, and stops them. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { SPEC, startPrism } from "../../test-support/prism.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

export interface Target {
  name: string;
  /** Where the API's paths start: `<origin>/v1` for Intake and the bare servers, the origin for prism. */
  base: string;
  /** Contacts it was seeded with (Intake and map-http targets). */
  contacts?: number;
  /** The PEM certificate an HTTPS target serves. */
  certificate?: string;
  /** Headers every request to it carries: what a TLS-terminating proxy adds (intake-proxied). */
  headers?: Record<string, string>;
  /** The server's process, where it has its own. */
  pid?: number;
  stop(): Promise<void>;
}

export type Kind = "bare-http" | "bare-https" | "map-http" | "intake-proxied" | "intake-https";

export async function startTarget(
  kind: Kind,
  options: { name?: string; contacts?: number; lists?: number; heapMb?: number; nodeArgs?: string[] } = {},
): Promise<Target> {
  const args = [
    `--max-old-space-size=${options.heapMb ?? 4096}`,
    ...(options.nodeArgs ?? []),
    ...["--import", "tsx", "bench/support/target.ts", kind, String(options.contacts ?? 1000), String(options.lists ?? 1)],
  ];
  // The server exits when its stdin closes: a benchmark killed outright leaves no server (some a
  // gigabyte large) behind.
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, BENCH_EXIT_WITH_STDIN: "1" },
  });
  const { url, certificate } = JSON.parse(await firstLine(child, kind)) as { url: string; certificate?: string };
  return {
    name: options.name ?? kind,
    base: `${url}/v1`,
    contacts: options.contacts ?? 1000,
    certificate,
    ...(kind === "intake-proxied" ? { headers: { "x-forwarded-proto": "https" } } : {}),
    pid: child.pid,
    stop: stopChild(child),
  };
}

/** What the CLI says on stdout once it listens (its "listening" JSON line), as far as benchmarks read it. */
export interface Listening {
  event: "listening";
  pid: number;
  url: string;
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
  /** The certificate's file. */
  certificate: string;
  dataFile: string | null;
}

export interface CliTarget extends Target {
  listening: Listening;
  /** Milliseconds from spawning the CLI to its "listening" line. */
  startMs: number;
}

/**
 * `intake-server` as users run it: the built CLI (packages/server/dist/cli.js, or `options.cli`) with
 * these arguments after `--port 0`, `--rate-limit 0` and `--log quiet` (a line an event on stderr
 * would measure the terminal), in its own process. It stops as on SIGTERM
 * when the benchmark that started it goes (exit-with-stdin.mjs, preloaded).
 */
export async function startCli(name: string, args: string[], options: { nodeArgs?: string[]; cli?: string } = {}): Promise<CliTarget> {
  const started = performance.now();
  const cli = options.cli ?? `${root}packages/server/dist/cli.js`;
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      "--import",
      `${root}bench/support/exit-with-stdin.mjs`,
      cli,
      "--port",
      "0",
      "--rate-limit",
      "0",
      "--log",
      "quiet",
      ...args,
    ],
    {
      cwd: root,
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, BENCH_EXIT_WITH_STDIN: "1" },
    },
  );
  const line = await firstLine(child, `intake-server (${name})`);
  const startMs = performance.now() - started;
  const listening = JSON.parse(line) as Listening;
  const certificate = await readFile(listening.certificate, "utf8");
  return {
    name,
    base: listening.baseUrl,
    certificate,
    pid: child.pid,
    listening,
    startMs,
    stop: stopChild(child),
  };
}

/** Stops a server process as on SIGTERM, resolving once it has exited (at once if it already has). */
export const stopChild = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });

/** The first line a child process writes; rejected, naming it `what`, if it exits before. */
export function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = "";
    const exited = (code: number | null) => reject(new Error(`${what} exited with ${code} before it wrote a line`));
    child.once("exit", exited);
    child.stdout!.on("data", (chunk) => {
      text += chunk;
      if (!text.includes("\n")) return;
      child.off("exit", exited);
      resolve(text.split("\n")[0]!);
    });
  });
}

/** `prism mock openapi.yaml`, with its default logging or with `-v silent`. */
export async function startPrismTarget(silent: boolean): Promise<Target> {
  // One process, as `prism mock` runs on a developer's machine: prism forks its server into a child
  // where NODE_ENV is production, and the pid measured would then be the parent's, which only logs.
  const prism = await startPrism(["mock", SPEC, "--multiprocess=false", ...(silent ? ["-v", "silent"] : [])]);
  return { name: silent ? "prism mock -v silent" : "prism mock", base: prism.url, pid: prism.pid, stop: () => prism.stop() };
}
