/**
 * Starts `prism mock openapi.yaml` on a free 127.0.0.1 port for the contract tests and stops it
 * afterwards. Prism serves plain HTTP, which the client only accepts on loopback with
 * allowInsecureLoopback.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    prismUrl: string;
  }
}

const root = fileURLToPath(new URL("../../../../", import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject) {
  const port = await freePort();
  const prism = spawn(
    process.execPath,
    [`${root}node_modules/@stoplight/prism-cli/dist/index.js`, "mock", `${root}openapi.yaml`, "-h", "127.0.0.1", "-p", String(port)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  prism.stdout.on("data", (chunk) => (output += chunk));
  prism.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<never>((_, reject) =>
    prism.once("exit", (code) => reject(new Error(`prism mock exited with ${code} before it was ready:\n${output}`))),
  );
  const ready = (async () => {
    for (const started = Date.now(); Date.now() - started < 45_000; ) {
      if (output.includes("Prism is listening")) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`prism mock did not start within 45 s:\n${output}`);
  })();
  await Promise.race([ready, exited]);
  prism.removeAllListeners("exit");
  project.provide("prismUrl", `http://127.0.0.1:${port}/v1`);
  return async () => {
    prism.kill("SIGTERM");
  };
}
