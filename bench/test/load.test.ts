import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processCpu } from "../support/cpu.js";
import { load, median, medianOf, rotated, serverCpuMicros, type Sample } from "../support/load.js";
import type { Target } from "../support/targets.js";

const sample = (fields: Partial<Sample>): Sample => ({ requestsPerSecond: 0, p50: 0, p99: 0, non2xx: 0, errors: 0, requests: 0, ...fields });

describe("the bookkeeping of a comparison", () => {
  it("takes the median of an odd or even count without reordering its input", () => {
    const values = [5, 1, 4, 2];
    expect(median(values)).toBe(3);
    expect(values).toEqual([5, 1, 4, 2]);
    expect(median([9, 1, 5])).toBe(5);
  });

  it("gives NaN for a figure some samples lack rather than a median of the rest", () => {
    const cpu = { user: 40, system: 10 };
    expect(medianOf([sample({ requests: 1000, serverCpuMs: cpu }), sample({ requests: 500, serverCpuMs: cpu })], serverCpuMicros)).toBe(75);
    expect(medianOf([sample({ requests: 1000, serverCpuMs: cpu }), sample({ requests: 1000 })], serverCpuMicros)).toBeNaN();
  });

  it("reads a server's CPU per request in µs, and none where nothing was answered or read", () => {
    expect(serverCpuMicros(sample({ requests: 2000, serverCpuMs: { user: 30, system: 10 } }))).toBe(20);
    expect(serverCpuMicros(sample({ requests: 0, serverCpuMs: { user: 30, system: 10 } }))).toBeUndefined();
    expect(serverCpuMicros(sample({ requests: 2000 }))).toBeUndefined();
  });

  it("lets every target go first in turn", () => {
    expect([0, 1, 2, 3].map((round) => rotated(["a", "b", "c"], round).join(""))).toEqual(["abc", "bca", "cab", "abc"]);
  });
});

/**
 * A statement spending `ms` of the process's own CPU (time spent descheduled does not count, so the
 * process's CPU is known from outside however busy the machine is).
 */
const spin = (ms: number) => `{ const start = process.cpuUsage(); for (let used = 0; used < ${ms * 1000}; ) { const { user, system } = process.cpuUsage(start); used = user + system; } }`;

/** A node process, titled `title`, running `script`; its first line of output is returned. */
async function child(script: string, title: string): Promise<{ process: ChildProcess; line: string }> {
  const spawned = spawn(process.execPath, ["-e", `process.title = ${JSON.stringify(title)};\n${script}`], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(spawned.stdout!, "data")) as [Buffer];
  return { process: spawned, line: chunk.toString().split("\n")[0]! };
}

describe("a server's CPU from /proc", { skip: process.platform !== "linux" }, () => {
  it("reads a process whose name holds brackets and spaces of its own", async () => {
    // Spends 300 ms of CPU, then says so and idles.
    const { process: spinner } = await child(`${spin(300)} console.log("done"); setInterval(() => {}, 1000);`, "a) b (c) d");
    try {
      const cpu = await processCpu(spinner.pid!);
      expect(cpu).toBeDefined();
      expect(cpu!.user + cpu!.system).toBeGreaterThanOrEqual(250);
      expect(cpu!.user + cpu!.system).toBeLessThan(5000);
    } finally {
      spinner.kill();
    }
  });

  it("says nothing for a process that is gone", async () => {
    const { process: gone } = await child(`console.log("up")`, "gone");
    await once(gone, "exit");
    expect(await processCpu(gone.pid!)).toBeUndefined();
  });
});

describe("a round of load", { skip: process.platform !== "linux" }, () => {
  let server: ChildProcess;
  let target: Target;
  beforeAll(async () => {
    // Each answer costs the server at least 1 ms of CPU.
    const started = await child(
      `const server = require("node:http").createServer((request, response) => {
        request.resume();
        request.on("end", () => { ${spin(1)} response.end(request.method + " " + request.url); });
      });
      server.listen(0, "127.0.0.1", () => console.log(server.address().port));`,
      "busy-server",
    );
    server = started.process;
    target = { name: "busy", base: `http://127.0.0.1:${started.line}/v1`, pid: server.pid, stop: async () => {} };
  });
  afterAll(() => server.kill());

  it("counts the answers and the server's CPU for each, sending each request as the route builds it", async () => {
    const calls: number[] = [];
    const route = { name: "numbered", call: (n: number) => (calls.push(n), { method: "GET" as const, path: `/things/${n}` }) };
    const result = await load(target, route, 1);
    expect(result.non2xx + result.errors).toBe(0);
    expect(result.requests).toBeGreaterThan(50);
    // The route is asked for request 0, 1, 2... in order, at least once per answer.
    expect(calls.slice(0, 3)).toEqual([0, 1, 2]);
    expect(calls.length).toBeGreaterThanOrEqual(result.requests);
    const micros = serverCpuMicros(result)!;
    expect(micros).toBeGreaterThanOrEqual(950);
    expect(micros).toBeLessThan(3000);
  });

  it("goes on with the route's sequence on the next round, so writes never repeat on a target", async () => {
    const calls: number[] = [];
    const route = { name: "sequence", call: (n: number) => (calls.push(n), { method: "GET" as const, path: `/things/${n}` }) };
    const first = await load(target, route, 1);
    const from = calls.length;
    await load(target, route, 1);
    expect(calls[from]).toBe(from);
    expect(calls[from]).toBeGreaterThanOrEqual(first.requests);
  });

  it("leaves the CPU out for a server without its own process", async () => {
    const result = await load({ ...target, pid: undefined }, { name: "no pid", call: () => ({ method: "GET", path: "/" }) }, 1);
    expect(result.requests).toBeGreaterThan(0);
    expect(result.serverCpuMs).toBeUndefined();
  });
});
