/** Runs the real intake-server CLI (from source) as a child process. */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { certFetch } from "./cert-fetch.js";
import { quoted } from "./child-output.js";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

export interface Started {
  event: "listening";
  /** The CLI's own process, which serves. */
  pid: number;
  url: string;
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
  /** The dashboard's address with the admin token in its fragment. */
  dashboardUrl: string;
  certificate: string;
  dataFile: string | null;
  clock: string;
  /** GET /__admin/bot's answer: which bot answers received messages. */
  bot: { name: string; model: string | null; baseUrl: string | null; mode: string | null; recording: string | null };
  demoKeys?: Record<string, string>;
  demoWebhookSecrets?: Record<string, string>;
}

export interface CliRun {
  child: ChildProcess;
  info: Started;
  stderr: () => string;
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How the CLI's process runs, besides its arguments. */
export interface CliProcess {
  /**
   * The largest file it may write, in 512-byte blocks (`ulimit -S -f`): a write past it fails with
   * EFBIG (Node ignores SIGXFSZ), as on a full disk. The CLI runs under `sh -c 'ulimit -S -f N && exec ...'`;
   * the limit is the soft one, which `freeDisk` lifts while it runs (as space freed on the disk).
   */
  fileSizeLimit?: number;
  /** Runs it as this user and group (the test's own process must be root's). */
  uid?: number;
  gid?: number;
  /** Variables set for it, over the test's own environment. */
  env?: Record<string, string>;
}

/** Runs the CLI to its end; `nodeArgs` go to node before the CLI (a preload, say). */
export function runCli(
  args: string[],
  nodeArgs: string[] = [],
  how: CliProcess = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnCli(args, nodeArgs, how);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c) => (stdout += c));
    child.stderr!.on("data", (c) => (stderr += c));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the CLI and leaves it to the caller. */
function spawnCli(args: string[], nodeArgs: string[] = [], how: CliProcess = {}) {
  const command = [process.execPath, "--import", "tsx", "--conditions=@intake/source", ...nodeArgs, cli, ...args];
  const options = {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"] as ["ignore", "pipe", "pipe"],
    uid: how.uid,
    gid: how.gid,
    env: { ...process.env, ...how.env },
  };
  if (how.fileSizeLimit === undefined) return spawn(command[0]!, command.slice(1), options);
  // exec: the CLI takes the shell's process, so the child's pid is still the server's.
  return spawn("sh", ["-c", `ulimit -S -f ${Math.floor(how.fileSizeLimit)} && exec "$0" "$@"`, ...command], options);
}

/** Lifts the file size limit (`fileSizeLimit`) of a CLI that runs: its disk is no longer full. */
export function freeDisk(pid: number): void {
  execFileSync("prlimit", ["--pid", String(pid), "--fsize=unlimited:"]);
}

export async function startCli(args: string[], nodeArgs: string[] = [], how: CliProcess = {}): Promise<CliRun> {
  const child = spawnCli(args, nodeArgs, how);
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const info = await new Promise<Started>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`intake-server did not start in 30 s:\n${quoted(stderr)}`)), 30_000);
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n")) {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(line!) as Started);
        } catch (error) {
          reject(new Error(`the first line is not JSON: ${line}\n${(error as Error).message}`));
        }
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`intake-server exited with ${code}:\n${quoted(stderr)}`));
    });
  });
  const { readFileSync } = await import("node:fs");
  const trusting = certFetch(readFileSync(info.certificate, "utf8"));
  let closing: Promise<void> | undefined;
  return {
    child,
    info,
    stderr: () => stderr,
    fetch: (input, init) => trusting(input, init),
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      // A test may stop a run itself before the suite's clean-up stops it again.
      await (closing ??= trusting.close());
      return code;
    },
  };
}
