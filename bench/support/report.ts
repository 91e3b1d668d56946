/** Writes a benchmark's report: markdown for people, the raw figures as JSON beside it. */
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

const results = fileURLToPath(new URL("../results/", import.meta.url));

export async function writeReport(name: string, markdown: string, raw: unknown): Promise<void> {
  await mkdir(results, { recursive: true });
  await writeFile(`${results}${name}.md`, `${markdown.trim()}\n`);
  await writeFile(`${results}${name}.json`, `${JSON.stringify(raw, null, 2)}\n`);
}

export const machine = () => `Node ${process.version}, ${availableParallelism()} cores`;

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

export const verdict = (ok: boolean) => (ok ? "met" : "**missed**");

/** Heap in use after two full collections; needs node --expose-gc (the bench scripts pass it). */
export function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== "function") throw new Error("Run with node --expose-gc (the npm run bench:* scripts do).");
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * A figure to `digits` decimals, or one more when rounding would put it on the other side of its
 * target (0.8955 shown as 0.90 next to "≥ 0.90" and "missed").
 */
export function figure(value: number, meets: (value: number) => boolean, digits = 2): string {
  const rounded = value.toFixed(digits);
  return meets(Number(rounded)) === meets(value) ? rounded : value.toFixed(digits + 1);
}
