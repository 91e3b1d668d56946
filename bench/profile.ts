/**
 * What one server spends per request on one route: its process's CPU time (user and system, from
 * /proc, Linux) over a timed autocannon run, per request, and how often the load generator slept
 * waiting for it; with PROFILE=1 also a V8 CPU profile of it (`node --cpu-prof`) and the functions
 * with the most self time. For finding where a target of bench/http.ts is missed; compare kinds on
 * one route in one sitting, the machine is noisy.
 *
 * Run: npm run bench:profile -- <kind> <route>   e.g. `-- intake-proxied receive`, `-- bare-http receive`
 *      kinds: intake-proxied, bare-http, intake-https, bare-https, map-http (lookups only); route: part of a bench/http.ts route's name
 *      env: SECONDS (default 6), CONTACTS (stored, default 1000), PROFILE=1 (profile into bench/results/profiles/)
 */
import { mkdir, readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { load } from "./support/load.js";
import { routes } from "./support/routes.js";
import { startTarget, type Kind } from "./support/targets.js";

const [kind = "intake-proxied", routeName = "receive"] = process.argv.slice(2) as [Kind?, string?];
const route = routes.find((r) => r.name.includes(routeName));
if (!route) throw new Error(`No route matches ${routeName}: ${routes.map((r) => r.name).join("; ")}`);
const SECONDS = Number(process.env.SECONDS ?? 6);
const profiles = fileURLToPath(new URL("results/profiles/", import.meta.url));
const profile = process.env.PROFILE === "1";
if (profile) await mkdir(profiles, { recursive: true });
const before = profile ? new Set(await readdir(profiles)) : new Set<string>();

const target = await startTarget(kind, {
  contacts: Number(process.env.CONTACTS ?? 1000),
  lists: 1000,
  nodeArgs: profile ? ["--cpu-prof", `--cpu-prof-dir=${profiles}`] : [],
});
/**
 * The load generator's (this process's) CPU milliseconds, and how often its main thread, where
 * autocannon runs, has slept waiting (voluntary context switches; the process's count would add
 * the garbage collector's threads).
 */
async function loaderUsage(): Promise<{ cpu: number; sleeps: number }> {
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  const status = await readFile(`/proc/self/task/${process.pid}/status`, "utf8");
  return { cpu: (userCPUTime + systemCPUTime) / 1000, sleeps: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)![1]) };
}
let sample;
let used;
let loader;
try {
  await load(target, route, 2);
  const loaderStart = await loaderUsage();
  sample = await load(target, route, SECONDS);
  const loaderEnd = await loaderUsage();
  used = sample.serverCpuMs;
  if (!used) throw new Error("The server's CPU time cannot be read from /proc (Linux only).");
  loader = { cpu: loaderEnd.cpu - loaderStart.cpu, sleeps: loaderEnd.sleeps - loaderStart.sleeps };
} finally {
  await target.stop();
}
const { requests } = sample;
const per = (ms: number) => ((ms * 1000) / requests).toFixed(1);
console.log(
  `${kind}, ${route.name}: ${Math.round(sample.requestsPerSecond)} req/s; server CPU ${per(used.user + used.system)} µs per request (user ${per(used.user)}, system ${per(used.system)}), ${Math.round(((used.user + used.system) / (SECONDS * 1000)) * 100)}% of a core`,
);
// The load generator sleeps when no answer is waiting, and the write of the next answer wakes it:
// the server pays for that wake-up.
console.log(
  `load generator (this process): CPU ${per(loader.cpu)} µs and ${(loader.sleeps / requests).toFixed(2)} sleeps of its main thread per request`,
);

if (profile) {
  const file = (await readdir(profiles)).find((f) => !before.has(f) && f.endsWith(".cpuprofile"));
  if (!file) throw new Error("The server wrote no profile.");
  const { nodes, samples, timeDeltas } = JSON.parse(await readFile(`${profiles}${file}`, "utf8")) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/packages\//, "")}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + timeDeltas[i]!);
    total += timeDeltas[i]!;
  });
  console.log(`\nSelf time, whole run including start-up (${profiles}${file}):`);
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
