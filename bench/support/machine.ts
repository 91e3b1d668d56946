/**
 * How much of the machine's time the host took while a benchmark ran: "steal" in /proc/stat, time a
 * virtual CPU was ready to run while the hypervisor ran something else. On a shared machine it is
 * what most makes one run's figures unlike another's, so every report records it.
 */
import { readFileSync } from "node:fs";

/** CPU time summed over every CPU, in the kernel's ticks: the part stolen, and the whole. */
export interface CpuTimes {
  steal: number;
  total: number;
}

/** A run in which the host took this share of the machine's time or more is marked disturbed. */
export const DISTURBED = 0.1;

/** The times on /proc/stat's "cpu" line; undefined when the text has none. */
export function parseProcStat(text: string): CpuTimes | undefined {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) return undefined;
  // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is counted in user and
  // nice already, so the whole is the first eight.
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 4 || fields.some((n) => !Number.isFinite(n))) return undefined;
  return { steal: fields[7] ?? 0, total: fields.reduce((sum, n) => sum + n, 0) };
}

/** This machine's times now; undefined where there is no /proc/stat (not Linux). */
export function cpuTimes(): CpuTimes | undefined {
  try {
    return parseProcStat(readFileSync("/proc/stat", "utf8"));
  } catch {
    return undefined;
  }
}

/** The share of the machine's time the host took between two readings; undefined without both, or no time between. */
export function stolenShare(from: CpuTimes | undefined, to: CpuTimes | undefined): number | undefined {
  if (!from || !to || to.total <= from.total) return undefined;
  return (to.steal - from.steal) / (to.total - from.total);
}
