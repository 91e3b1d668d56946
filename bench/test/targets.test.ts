import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BENCH_KEY, benchEmail, benchPhone } from "../support/seed.js";
import { startTarget, type Target } from "../support/targets.js";

// The servers run Intake from its sources, so the test needs no build.
const SOURCES = ["--conditions=@intake/source"];

describe("the minimal Map server, the anchor of the lookups benchmark", () => {
  let floor: Target | undefined;
  let core: Target | undefined;
  beforeAll(async () => {
    [floor, core] = await Promise.all([
      startTarget("map-http", { contacts: 20, nodeArgs: SOURCES }),
      startTarget("core-http", { contacts: 20, nodeArgs: SOURCES }),
    ]);
  }, 60_000);
  afterAll(() => Promise.all([floor?.stop(), core?.stop()]));

  const get = async (target: Target, query: string) => {
    const response = await fetch(`${target.base}/contacts?apiKey=${BENCH_KEY}&${query}`);
    const text = await response.text();
    return { status: response.status, length: Number(response.headers.get("content-length")), text, body: JSON.parse(text) };
  };
  // The two stores stamp their contacts at different moments.
  const undated = (text: string) => text.replace(/"createdAt":"[^"]*"/, '"createdAt":"(a time)"');

  it.each([
    ["phone", `phoneNumber=${encodeURIComponent(benchPhone(7))}`],
    ["email", `email=${encodeURIComponent(benchEmail(13))}`],
  ])("answers a lookup by %s with Intake's answer, byte for byte but for the time", async (_, query) => {
    const [mine, intake] = await Promise.all([get(floor!, query), get(core!, query)]);
    expect(intake.status).toBe(200);
    expect(mine.status).toBe(200);
    expect(undated(mine.text)).toBe(undated(intake.text));
    expect(mine.body.contact.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Same size on the wire, so both servers write as much.
    expect(mine.text.length).toBe(intake.text.length);
    expect(mine.length).toBe(Buffer.byteLength(mine.text));
  });

  it("answers 404 for a contact it does not hold", async () => {
    const [mine, intake] = await Promise.all([get(floor!, `phoneNumber=${encodeURIComponent(benchPhone(20))}`), get(core!, `phoneNumber=${encodeURIComponent(benchPhone(20))}`)]);
    expect(intake.status).toBe(404);
    expect(mine.status).toBe(404);
  });
});

describe("a benchmark's servers", () => {
  it("go when the benchmark that started them is killed outright", async () => {
    // A benchmark that starts a server, says its pid, and waits to be killed.
    const targets = fileURLToPath(new URL("../support/targets.ts", import.meta.url));
    const bench = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", `const { startTarget } = await import(${JSON.stringify(targets)}); const t = await startTarget("bare-http"); console.log(t.pid); setInterval(() => {}, 1000);`],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    onTestFinished(() => void bench.kill("SIGKILL"));
    const pid = Number(await new Promise<string>((resolve) => bench.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()))));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    onTestFinished(() => void (alive() && process.kill(pid)));
    expect(alive()).toBe(true);
    bench.kill("SIGKILL");
    await expect.poll(alive, { timeout: 10_000, interval: 100 }).toBe(false);
  }, 30_000);
});
