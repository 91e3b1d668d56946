// One 1M core-http server loaded with lookups by phone in 3 s rounds for ~150 s after seeding; GC events logged.
import { spawn } from "node:child_process";
import { load, serverCpuMicros } from "./support/load.js";
import { BENCH_KEY, benchPhone } from "./support/seed.js";
const contacts = Number(process.env.C ?? 1_000_000);
const child = spawn(process.execPath, ["--max-old-space-size=8192", "--trace-gc", "--import", "tsx", "bench/support/target.ts", process.env.KIND ?? "core-http", String(contacts), "1"], { cwd: "/work/main", stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, BENCH_EXIT_WITH_STDIN: "1" } });
let out = ""; let t0 = 0;
const events: string[] = [];
const line: string = await new Promise((r) => child.stdout.on("data", (c) => { out += c; const parts = out.split("\n"); out = parts.pop()!; for (const l of parts) { if (l.startsWith("{")) { t0 = performance.now(); r(l); } else if (t0 && !l.includes("Scavenge")) events.push(`${((performance.now() - t0) / 1000).toFixed(1)}s ${l.replace(/^\[\d+:0x[0-9a-f]+\]\s+/, "").slice(0, 150)}`); else if (t0) scav++; } }));
let scav = 0;
const { url } = JSON.parse(line);
const target = { name: "t", base: `${url}/v1`, pid: child.pid, contacts, stop: async () => {} };
const spread = (n: number) => (Math.imul(n, 2_654_435_761) >>> 0) % contacts;
const route = { name: "phone", call: (n: number) => ({ method: "GET" as const, path: `/contacts?apiKey=${BENCH_KEY}&phoneNumber=${encodeURIComponent(benchPhone(spread(n)))}` }) };
const idle = Number(process.env.IDLE ?? 30);
await new Promise((r) => setTimeout(r, idle * 1000));
for (let i = 0; i < Number(process.env.ROUNDS ?? 40); i++) {
  const before = scav; const e = events.length;
  const s = await load(target, route, 3);
  console.log(`${((performance.now() - t0) / 1000).toFixed(0)}s: ${Math.round(s.requestsPerSecond)} req/s, ${serverCpuMicros(s)!.toFixed(1)} µs CPU, scavenges ${scav - before}, steal ${((s.stolen ?? 0) * 100).toFixed(0)}%${events.length > e ? " | " + events.slice(e).join(" | ") : ""}`);
}
child.kill();
