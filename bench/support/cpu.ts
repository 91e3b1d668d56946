/** A process's CPU time from /proc (Linux): what a server spent, whatever else the machine ran. */
import { readFile } from "node:fs/promises";

/** Milliseconds a clock tick is worth in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** User and system CPU milliseconds of a process so far; undefined where /proc cannot tell (not Linux, process gone). */
export async function processCpu(pid: number): Promise<{ user: number; system: number } | undefined> {
  try {
    // The command name, in brackets, may hold spaces: the fields counted are those after it.
    const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
    return { user: Number(fields[11]) * TICK_MS, system: Number(fields[12]) * TICK_MS };
  } catch {
    return undefined;
  }
}
