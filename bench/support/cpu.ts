/** A process's CPU time from /proc (Linux): the time it ran on a core, its helper threads included. */
import { readFile } from "node:fs/promises";

/** Milliseconds a clock tick is worth in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** User and system CPU milliseconds of a process so far; undefined where /proc cannot tell (not Linux, process gone). */
export async function processCpu(pid: number): Promise<{ user: number; system: number } | undefined> {
  try {
    // The command name, in brackets, may hold spaces and brackets of its own: the fields counted
    // are those after its last closing bracket.
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const user = Number(fields[11]) * TICK_MS;
    const system = Number(fields[12]) * TICK_MS;
    return Number.isFinite(user) && Number.isFinite(system) ? { user, system } : undefined;
  } catch {
    return undefined;
  }
}
