/**
 * An intake-server started as users start it, with a heap of `heapMb` and the heap probe
 * (heap-probe.mjs) preloaded, and how to read what the probe writes: nothing outside the server
 * can make it collect its garbage.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startCli, type CliTarget } from "./targets.js";

/** One line the probe wrote: a sample, or the heap after two full collections (`afterGc`). */
export interface HeapLine {
  at: number;
  heapUsed: number;
  rss: number;
  afterGc: boolean;
}

export interface ProbedCli {
  server: CliTarget;
  /** Whether the server's process still runs. */
  alive(): boolean;
  /** Every line the probe wrote, oldest first. */
  heapLines(): Promise<HeapLine[]>;
  /** The heap after two full collections in the server. */
  heapAfterGc(): Promise<HeapLine>;
}

/** Starts the CLI (`name` for its report) with `args`; the probe writes into `dir`. */
export async function startProbedCli(name: string, args: string[], options: { heapMb: number; dir: string }): Promise<ProbedCli> {
  const heapFile = join(options.dir, "heap.jsonl");
  process.env.BENCH_HEAP_FILE = heapFile;
  const server = await startCli(name, args, {
    nodeArgs: [`--max-old-space-size=${options.heapMb}`, "--expose-gc", "--import", new URL("./heap-probe.mjs", import.meta.url).pathname],
  });
  const pid = server.pid!;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const heapLines = async () =>
    (await readFile(heapFile, "utf8").catch(() => ""))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as HeapLine);
  const heapAfterGc = async (): Promise<HeapLine> => {
    const before = (await heapLines()).filter((line) => line.afterGc).length;
    process.kill(pid, "SIGUSR2");
    for (;;) {
      const lines = (await heapLines()).filter((line) => line.afterGc);
      if (lines.length > before) return lines.at(-1)!;
      if (!alive()) throw new Error("The server died.");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { server, alive, heapLines, heapAfterGc };
}
