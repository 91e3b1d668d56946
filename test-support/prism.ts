/**
 * Starts @stoplight/prism-cli (mock or proxy) on a free 127.0.0.1 port and stops it after.
 * Prism serves plain HTTP, which the client accepts only on loopback with allowInsecureLoopback.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
export const SPEC = `${root}openapi.yaml`;

export interface Prism {
  /** `http://127.0.0.1:<port>`: prism serves the paths at its root, without /v1. */
  url: string;
  output(): string;
  /** Prism's process: the one serving unless prism forks its server (--multiprocess, on by default where NODE_ENV is production). */
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `args` is what follows `prism`: `["mock", SPEC]` or `["proxy", SPEC, upstream, "--errors"]`. */
export async function startPrism(args: string[], env: Record<string, string> = {}): Promise<Prism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [`${root}node_modules/@stoplight/prism-cli/dist/index.js`, ...args, "-h", "127.0.0.1", "-p", String(port)],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`prism ${args[0]} exited with ${code} before it was ready:\n${output}`))),
  );
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
  const ready = (async () => {
    for (const started = Date.now(); Date.now() - started < 45_000;) {
      // `-v silent` prints nothing, not even that it listens: then it is ready when it answers.
      if (output.includes("Prism is listening") || (args.includes("silent") && (await answers()))) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`prism ${args[0]} did not start within 45 s:\n${output}`);
  })();
  await Promise.race([ready, exited]);
  child.removeAllListeners("exit");
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
