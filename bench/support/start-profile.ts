/**
 * Where a server's start goes, from a V8 CPU profile of it (`node --cpu-prof`): each sample taken
 * before the first answer is charged to one part, so the parts add up to the profiled start.
 */

/** The part of a `.cpuprofile` read here. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface StartPart {
  part: string;
  ms: number;
}

const STORE = "@mswjs/data";

/**
 * The package a frame's script belongs to: the folder after the last `node_modules/` (with its
 * scope), "intake" for the project's own packages, undefined for node's own scripts.
 */
function packageOf(url: string): string | undefined {
  const inModules = url.lastIndexOf("/node_modules/");
  if (inModules >= 0) {
    const [scope, name] = url.slice(inModules + "/node_modules/".length).split("/");
    return scope!.startsWith("@") ? `${scope}/${name}` : scope;
  }
  return url.startsWith("file:") || url.startsWith("/") ? "intake" : undefined;
}

/**
 * One sample's part, from its stack (outermost frame first). A dependency is charged with all it
 * does, what it loads included, by the outermost frame of a package (date-fns loaded by
 * @mswjs/data is @mswjs/data's), split into loading it and Intake's calls into it. What runs only
 * in node's own scripts is node's: finding and compiling modules, the garbage collector, the rest.
 */
function partOf(stack: Array<{ functionName: string; url: string }>): string {
  let calledByIntake = false;
  for (const frame of stack) {
    const owner = packageOf(frame.url);
    if (owner === "intake") calledByIntake = true;
    else if (owner)
      return `${owner}${owner === STORE && !calledByIntake ? " (with graphql, date-fns, lodash, msw's interceptors)" : ""}: ${calledByIntake ? "called by Intake's code" : "loading it"}`;
  }
  if (calledByIntake) return "Intake's own code";
  const leaf = stack.at(-1)?.functionName;
  if (leaf === "(garbage collector)") return "node: the garbage collector";
  if (leaf === "(idle)") return "waiting (idle: files, the network, timers)";
  if (stack.some((frame) => frame.url.startsWith("node:internal/modules"))) return "node: finding, reading and compiling modules";
  return "node: the rest (its own start, sockets, TLS)";
}

/** The profile's time until `untilMs` from its start, per part, the largest first. */
export function startParts(profile: CpuProfile, untilMs: number): StartPart[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const stackOf = (id: number) => {
    const stack: CpuProfile["nodes"][number]["callFrame"][] = [];
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) stack.unshift(byId.get(at)!.callFrame);
    return stack;
  };
  const parts = new Map<string, number>();
  let elapsedMs = 0;
  for (const [i, id] of profile.samples.entries()) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (elapsedMs + ms > untilMs) break;
    elapsedMs += ms;
    const part = partOf(stackOf(id));
    parts.set(part, (parts.get(part) ?? 0) + ms);
  }
  // Parts under 1% of the start are summed into one line: the table says where the time goes.
  const all = [...parts].map(([part, ms]) => ({ part, ms })).sort((a, b) => b.ms - a.ms);
  const major = all.filter((p) => p.ms >= elapsedMs / 100);
  const minor = all.filter((p) => p.ms < elapsedMs / 100);
  return minor.length
    ? [...major, { part: `the rest, each under 1% (${minor.length} parts)`, ms: minor.reduce((t, p) => t + p.ms, 0) }]
    : major;
}
