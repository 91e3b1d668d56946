import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { statFields } from "../support/cpu.js";
import { BENCH_KEY, benchEmail, benchPhone } from "../support/seed.js";
import { firstLine, startCli, startTarget, type Target } from "../support/targets.js";

// The servers run Intake from its sources, so the tests need no build.
const SOURCES = ["--conditions=@intake/source"];

describe("the minimal Map server, the anchor of the lookups benchmark", () => {
  let anchor: Target | undefined;
  let core: Target | undefined;
  beforeAll(async () => {
    // Both settled before failing, so one failing to start does not leave the other running.
    const [mine, intake] = await Promise.allSettled([
      startTarget("map-http", { contacts: 20, nodeArgs: SOURCES }),
      startTarget("intake-proxied", { contacts: 20, nodeArgs: SOURCES }),
    ]);
    anchor = mine.status === "fulfilled" ? mine.value : undefined;
    core = intake.status === "fulfilled" ? intake.value : undefined;
    for (const started of [mine, intake]) if (started.status === "rejected") throw started.reason;
  }, 60_000);
  afterAll(() => Promise.all([anchor?.stop(), core?.stop()]));

  const get = async (target: Target, request: string) => {
    const response = await fetch(`${target.base}/${request}`, { headers: target.headers ?? {} });
    return { status: response.status, headers: [...response.headers], text: await response.text() };
  };
  // The two stores stamp their contacts, and date their answers, at different moments.
  const undated = (text: string) => text.replace(/"createdAt":"[^"]*"/, '"createdAt":"(a time)"');
  // What goes on the wire of a header: its name and the length of its value.
  const sizes = (headers: [string, string][]) => headers.map(([name, value]) => [name, value.length]);
  const phone = (i: number) => `contacts?apiKey=${BENCH_KEY}&phoneNumber=${encodeURIComponent(benchPhone(i))}`;
  const email = (i: number) => `contacts?apiKey=${BENCH_KEY}&email=${encodeURIComponent(benchEmail(i))}`;

  it.each([
    ["a lookup by phone", phone(7), 200],
    ["a lookup by email", email(13), 200],
    ["a phone number no contact has", phone(20), 404],
    ["an email no contact has", email(20), 404],
    ["a path it does not serve", `nothing?apiKey=${BENCH_KEY}`, 404],
  ])("answers %s as Intake does, with headers of the same names and lengths", async (_, request, status) => {
    const [mine, intake] = await Promise.all([get(anchor!, request), get(core!, request)]);
    expect(intake.status).toBe(status);
    expect(mine.status).toBe(status);
    expect(undated(mine.text)).toBe(undated(intake.text));
    expect(mine.text.length).toBe(intake.text.length);
    expect(sizes(mine.headers)).toEqual(sizes(intake.headers));
  });
});

/** Whether a process runs: not gone, nor a zombie (exited, waiting for an init that may not reap orphans). */
async function running(pid: number): Promise<boolean> {
  const fields = await statFields(pid);
  if (fields) return fields[0] !== "Z";
  if (process.platform === "linux") return false;
  // No /proc: whether the pid answers a signal, zombies included.
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a child's first line", () => {
  it("is what it writes first, however its output is split", async () => {
    const child = spawn(
      process.execPath,
      ["-e", `process.stdout.write("hel"); setTimeout(() => process.stdout.write("lo\\nworld\\n"), 50);`],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    expect(await firstLine(child, "the writer")).toBe("hello");
  });

  it("is refused, naming the child, when it exits first", async () => {
    const child = spawn(process.execPath, ["-e", "process.exit(3)"], { stdio: ["ignore", "pipe", "inherit"] });
    await expect(firstLine(child, "the quitter")).rejects.toThrow("the quitter exited with 3 before it wrote a line");
  });
});

describe("a benchmark's servers", () => {
  it("serve on when started by hand with stdin closed", async () => {
    const target = spawn(
      process.execPath,
      [...SOURCES, "--import", "tsx", fileURLToPath(new URL("../support/target.ts", import.meta.url)), "bare-http"],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, BENCH_EXIT_WITH_STDIN: undefined },
      },
    );
    onTestFinished(() => void target.kill());
    const { url } = JSON.parse(await firstLine(target, "the server")) as { url: string };
    // Long enough for a closed stdin to have been seen.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`${url}/v1/anything`)).status).toBe(200);
    expect(await running(target.pid!)).toBe(true);
  }, 30_000);

  it("go when the benchmark that started them is killed outright", async () => {
    await expectGoneWithBenchmark(`startTarget("bare-http", { nodeArgs: ${JSON.stringify(SOURCES)} })`);
  }, 30_000);
});

describe("the CLI as a benchmark's server", () => {
  const cli = fileURLToPath(new URL("../../packages/server/src/cli.ts", import.meta.url));
  const nodeArgs = [...SOURCES, "--import", "tsx"];

  it("says where it listens and how long it took to", async () => {
    const server = await startCli("the CLI", [], { cli, nodeArgs });
    onTestFinished(() => server.stop());
    expect(server.startMs).toBeGreaterThan(0);
    expect(server.base).toBe(`${server.listening.url}/v1`);
    expect(server.certificate).toContain("BEGIN CERTIFICATE");
    expect(server.pid).toBe(server.listening.pid);
  }, 60_000);

  it("stops when the benchmark that started it is killed outright", async () => {
    await expectGoneWithBenchmark(`startCli("the CLI", [], { cli: ${JSON.stringify(cli)}, nodeArgs: ${JSON.stringify(nodeArgs)} })`);
  }, 60_000);
});

/**
 * Runs a benchmark that starts a server (`start`, a call of bench/support/targets.ts's), says its
 * pid and waits; kills the benchmark outright, and expects the server to go too.
 */
async function expectGoneWithBenchmark(start: string) {
  const targets = fileURLToPath(new URL("../support/targets.ts", import.meta.url));
  const script = `const { startCli, startTarget } = await import(${JSON.stringify(targets)});
    const t = await ${start};
    console.log(t.pid);
    setInterval(() => {}, 1000);`;
  const bench = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  onTestFinished(() => void bench.kill("SIGKILL"));
  const pid = Number(await firstLine(bench, "the benchmark"));
  const alive = () => running(pid);
  onTestFinished(async () => void ((await alive()) && process.kill(pid)));
  expect(await alive()).toBe(true);
  bench.kill("SIGKILL");
  await expect.poll(alive, { timeout: 10_000, interval: 100 }).toBe(false);
}
