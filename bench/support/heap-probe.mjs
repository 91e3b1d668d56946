/**
 * Preloaded (`node --expose-gc --import`) into an intake-server a benchmark starts: writes the
 * server's heap to the file BENCH_HEAP_FILE names, one JSON line every PROBE_MS (what the heap
 * holds then, garbage included), and one after two full collections each time the process gets
 * SIGUSR2 (what it keeps). Plain JavaScript, so the server's start carries no loader.
 */
import { appendFileSync } from "node:fs";

const file = process.env.BENCH_HEAP_FILE;
if (file) {
  const write = (afterGc) => {
    const { heapUsed, rss } = process.memoryUsage();
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), heapUsed, rss, afterGc })}\n`);
  };
  setInterval(() => write(false), Number(process.env.PROBE_MS ?? 500)).unref();
  process.on("SIGUSR2", () => {
    globalThis.gc?.();
    globalThis.gc?.();
    write(true);
  });
}
