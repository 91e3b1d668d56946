import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createIntake } from "@intake/server";
import { MIX, mixed, mixedSeed } from "../support/mixed-route.js";
import { selfTimes } from "../support/self-time.js";

describe("the mixed route", () => {
  it("goes through the kinds in turn, each with its own sequence, so no write repeats", () => {
    const calls = Array.from({ length: 10 * MIX.length }, (_, n) => mixed.call(n, { name: "t", base: "", stop: async () => {} }));
    const creates = calls.filter((c) => c.path.startsWith("/contacts?") && c.method === "POST").map((c) => c.body);
    const adds = calls.filter((c) => c.path.startsWith("/lists/")).map((c) => `${c.path} ${c.body}`);
    const received = calls.filter((c) => c.path.startsWith("/incoming_custom_channel_message")).map((c) => c.body);
    expect(creates).toHaveLength(20);
    expect(new Set(creates).size).toBe(20);
    expect(new Set(adds).size).toBe(20);
    expect(new Set(received).size).toBe(20);
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(30);
    expect(calls.filter((c) => c.path.startsWith("/send_custom_channel_message"))).toHaveLength(10);
  });

  it("is answered 2xx on the mixed seed, each received message answered by the bot with a webhook", async () => {
    const posted: string[] = [];
    const receiver = async (request: Request) => (posted.push(await request.text()), new Response("ok"));
    const intake = createIntake({ seed: mixedSeed("https://hooks.example.test/intake"), fetch: receiver, rateLimit: 0 });
    try {
      for (let n = 0; n < 2 * MIX.length; n++) {
        const call = mixed.call(n, { name: "t", base: "", stop: async () => {} });
        const headers = call.body ? { "content-type": "application/json" } : undefined;
        const response = await intake.fetch(
          new Request(`https://127.0.0.1/v1${call.path}`, { method: call.method, body: call.body, headers }),
        );
        expect(response.status, `${call.method} ${call.path}: ${await response.text()}`).toBeLessThan(300);
      }
      await expect.poll(() => posted.filter((body) => body.includes("29 a month")).length).toBe(4);
    } finally {
      await intake.close();
    }
  });
});

describe("self time from CPU profiles", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  /** A profile of 1 s: the first 400 ms in `start`, then 500 ms in `handle`, the last 100 ms idle. */
  const write = async () => {
    const dir = await mkdtemp(join(tmpdir(), "intake-self-time-"));
    dirs.push(dir);
    const path = join(dir, "a.cpuprofile");
    const nodes = [
      { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: -1 } },
      { id: 2, callFrame: { functionName: "start", url: "file:///repo/packages/server/dist/cli.js", lineNumber: 9 } },
      { id: 3, callFrame: { functionName: "handle", url: "file:///repo/packages/server/dist/chunk.js", lineNumber: 41 } },
      { id: 4, callFrame: { functionName: "(idle)", url: "", lineNumber: -1 } },
    ];
    const samples = [...Array(4).fill(2), ...Array(5).fill(3), 4];
    await writeFile(path, JSON.stringify({ nodes, startTime: 0, endTime: 1_000_000, samples, timeDeltas: samples.map(() => 100_000) }));
    return path;
  };

  it("charges each sample to its function, the most first, idle in the total but in no function", async () => {
    const times = await selfTimes([{ path: await write() }], "/repo/");
    expect(times.map((t) => [t.what, t.ms, t.share])).toEqual([
      ["handle (packages/server/dist/chunk.js:42)", 500, 0.5],
      ["start (packages/server/dist/cli.js:10)", 400, 0.4],
    ]);
  });

  it("counts only a window counted back from the profile's end", async () => {
    const times = await selfTimes([{ path: await write(), window: { fromMsBeforeEnd: 550, toMsBeforeEnd: 50 } }], "/repo/");
    expect(times.map((t) => [t.what, t.ms])).toEqual([["handle (packages/server/dist/chunk.js:42)", 500]]);
  });
});
