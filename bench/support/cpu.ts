/**
 * A process's CPU time from /proc (Linux): the time it ran on a core, its helper threads included;
 * and its memory.
 */
import { readFile } from "node:fs/promises";

/** Milliseconds a clock tick is worth in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/**
 * The fields of /proc/<pid>/stat after the command name (the process's state first); undefined
 * where /proc cannot tell (not Linux, process gone). The name, in brackets, may hold spaces and
 * brackets of its own: the fields are those after its last closing bracket.
 */
export async function statFields(pid: number): Promise<string[] | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** User and system CPU milliseconds of a process so far; undefined where /proc cannot tell. */
export async function processCpu(pid: number): Promise<{ user: number; system: number } | undefined> {
  const fields = await statFields(pid);
  const user = Number(fields?.[11]) * TICK_MS;
  const system = Number(fields?.[12]) * TICK_MS;
  return Number.isFinite(user) && Number.isFinite(system) ? { user, system } : undefined;
}

/** A process's resident memory now and at its peak so far, in bytes (VmRSS, VmHWM); undefined where /proc cannot tell. */
export async function processMemory(pid: number): Promise<{ rss: number; peak: number } | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) * 1024;
    const [rss, peak] = [kib("VmRSS"), kib("VmHWM")];
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rss, peak } : undefined;
  } catch {
    return undefined;
  }
}
