/**
 * Where a server's CPU went, by function, from the V8 CPU profiles `node --cpu-prof` wrote: the
 * time of each sample charged to the function running at its top (self time), summed over the
 * profiles given, so two builds' profiles of the same load can be read side by side. Each profile
 * can be cut to a window counted back from its end (when the process exited): a load's seconds,
 * without the server's start, its warm-up or its shutdown.
 */
import { readFile } from "node:fs/promises";

interface Frame {
  functionName: string;
  url: string;
  /** 0-based, as V8 writes it. */
  lineNumber: number;
}

interface Profile {
  /** Microseconds, on the process's own clock. */
  startTime: number;
  endTime: number;
  nodes: Array<{ id: number; callFrame: Frame }>;
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface SelfTime {
  /** The function's name and where it is: `name (file:line)`, the file relative to `root`. */
  what: string;
  ms: number;
  /** Its share of the profiled time (in the windows), idle included. */
  share: number;
}

/** V8's pseudo-frames with no code of their own to blame: time waiting counts in no function. */
const NOT_CODE = new Set(["(idle)", "(root)"]);

/** A profile and, where it is cut, the milliseconds before its end that its window starts and ends. */
export interface ProfileFile {
  path: string;
  window?: { fromMsBeforeEnd: number; toMsBeforeEnd: number };
}

/** The `top` functions by self time over these `.cpuprofile` files; file names relative to `root`. */
export async function selfTimes(files: ProfileFile[], root: string, top = 15): Promise<SelfTime[]> {
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  for (const { path, window } of files) {
    const profile = JSON.parse(await readFile(path, "utf8")) as Profile;
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    const from = window ? profile.endTime - window.fromMsBeforeEnd * 1000 : -Infinity;
    const to = window ? profile.endTime - window.toMsBeforeEnd * 1000 : Infinity;
    let at = profile.startTime;
    for (const [i, id] of profile.samples.entries()) {
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      at += profile.timeDeltas[i] ?? 0;
      if (at < from || at > to) continue;
      totalMs += ms;
      const frame = frames.get(id)!;
      if (NOT_CODE.has(frame.functionName)) continue;
      const key = describe(frame, root);
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    }
  }
  return [...byFunction]
    .map(([what, ms]) => ({ what, ms, share: totalMs > 0 ? ms / totalMs : 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}

function describe({ functionName, url, lineNumber }: Frame, root: string): string {
  if (!url) return functionName;
  const file = url.replace(/^file:\/\//, "").replace(root, "");
  return `${functionName || "(anonymous)"} (${file}:${lineNumber + 1})`;
}
