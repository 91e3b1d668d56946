import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BENCH_KEY, benchEmail, benchPhone } from "../support/seed.js";
import { startTarget, type Target } from "../support/targets.js";

// The servers run Intake from its sources, so the tests need no build.
const SOURCES = ["--conditions=@intake/source"];

describe("the minimal Map server, the anchor of the lookups benchmark", () => {
  let anchor: Target | undefined;
  let core: Target | undefined;
  beforeAll(async () => {
    // Each kept as it starts, so one failing to start does not leave the other running.
    await Promise.all([
      startTarget("map-http", { contacts: 20, nodeArgs: SOURCES }).then((t) => (anchor = t)),
      startTarget("core-http", { contacts: 20, nodeArgs: SOURCES }).then((t) => (core = t)),
    ]);
  }, 60_000);
  afterAll(() => Promise.all([anchor?.stop(), core?.stop()]));

  const get = async (target: Target, query: string) => {
    const response = await fetch(`${target.base}/contacts?apiKey=${BENCH_KEY}&${query}`);
    return { status: response.status, headers: [...response.headers], text: await response.text() };
  };
  // The two stores stamp their contacts, and date their answers, at different moments.
  const undated = (text: string) => text.replace(/"createdAt":"[^"]*"/, '"createdAt":"(a time)"');
  // What goes on the wire of a header: its name and the length of its value.
  const sizes = (headers: [string, string][]) => headers.map(([name, value]) => [name, value.length]);
  const phone = (i: number) => `phoneNumber=${encodeURIComponent(benchPhone(i))}`;
  const email = (i: number) => `email=${encodeURIComponent(benchEmail(i))}`;

  it.each([
    ["a lookup by phone", phone(7), 200],
    ["a lookup by email", email(13), 200],
    ["a phone number no contact has", phone(20), 404],
    ["an email no contact has", email(20), 404],
  ])("answers %s with Intake's bytes but for the times", async (_, query, status) => {
    const [mine, intake] = await Promise.all([get(anchor!, query), get(core!, query)]);
    expect(intake.status).toBe(status);
    expect(mine.status).toBe(status);
    expect(undated(mine.text)).toBe(undated(intake.text));
    expect(mine.text.length).toBe(intake.text.length);
    expect(sizes(mine.headers)).toEqual(sizes(intake.headers));
  });
});

describe("a benchmark's servers", () => {
  it("go when the benchmark that started them is killed outright", async () => {
    // A benchmark that starts a server, says its pid, and waits to be killed.
    const targets = fileURLToPath(new URL("../support/targets.ts", import.meta.url));
    const script = `const { startTarget } = await import(${JSON.stringify(targets)});
      const t = await startTarget("bare-http", { nodeArgs: ${JSON.stringify(SOURCES)} });
      console.log(t.pid);
      setInterval(() => {}, 1000);`;
    const bench = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    onTestFinished(() => void bench.kill("SIGKILL"));
    const pid = Number(
      await new Promise<string>((resolve, reject) => {
        bench.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString()));
        bench.once("exit", (code) => reject(new Error(`the benchmark exited with ${code} before its server listened`)));
      }),
    );
    // Gone, or a zombie: exited, waiting for an init that may not reap orphans.
    const alive = async () => {
      try {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
      } catch {
        return false;
      }
    };
    onTestFinished(async () => void ((await alive()) && process.kill(pid)));
    expect(await alive()).toBe(true);
    bench.kill("SIGKILL");
    await expect.poll(alive, { timeout: 10_000, interval: 100 }).toBe(false);
  }, 30_000);
});
