/**
 * Intake against the mock servers users choose among: prism mock, Mockoon's CLI, WireMock and
 * json-server, on the same work (look up a contact, create one, add one to a list, receive a
 * message), each started as its users start it with its fastest documented settings. Intake as
 * users run it: the CLI over HTTPS, startIntakeServer (@intake/server/testing), and its msw
 * handlers in process beside msw with a fixed handler.
 *
 * Figures: start to first answer, req/s and p50/p99 (autocannon, 10 connections, the servers
 * taking turns round by round), resident memory at rest and after the load, reset time where a
 * server has one; where the CLI's start goes, from a CPU profile of one more start. Writes
 * bench/results/peers.{md,json,svg}.
 *
 * Run: npm run bench:peers   (ROUNDS, SECONDS, STARTS to change; `-- --quick` for a smoke run:
 * one round of 2 s, one start each; its report says so and is not one to commit)
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { processMemory } from "./support/cpu.js";
import { fmt } from "./support/figures.js";
import { ensureJava } from "./support/java.js";
import { alternate, median, rotated, type Samples } from "./support/load.js";
import { PEERS, writePeerFiles, type Peer, type PeerServer } from "./support/peers.js";
import { peersMarkdown, type MswFigures, type ServerRun } from "./support/peers-report.js";
import { peerChecks, type ServerFigures } from "./support/peer-checks.js";
import { peersChartSvg } from "./support/peers-chart.js";
import { writeReport } from "./support/report.js";
import { routes } from "./support/routes.js";
import { startParts, type CpuProfile, type StartPart } from "./support/start-profile.js";

const quick = process.argv.includes("--quick");
const ROUNDS = Number(process.env.ROUNDS ?? (quick ? 1 : 5));
const SECONDS = Number(process.env.SECONDS ?? (quick ? 2 : 4));
const STARTS = Number(process.env.STARTS ?? (quick ? 1 : 5));
// Long enough for a JVM's JIT to compile WireMock's hot paths: the rounds compare servers at their pace, a start is timed on its own.
const WARMUP_SECONDS = quick ? 1 : 5;
const RESETS = 5;
const INTAKE = "Intake CLI (HTTPS)";
const log = (line: string) => console.log(line);

const java = ensureJava(log);
const peers = PEERS.filter((peer) => java.ready || peer.peer !== "WireMock");
const dir = await mkdtemp(join(tmpdir(), "intake-peers-"));
await writePeerFiles(dir);

/**
 * Each server started and stopped STARTS times, the servers taking turns, after one start each
 * that is not counted (it fills the disk's cache, and makes Intake's certificate on a fresh machine).
 */
async function starts(): Promise<Map<Peer, number[]>> {
  const times = new Map(peers.map((peer) => [peer, [] as number[]]));
  for (let round = -1; round < STARTS; round++) {
    for (const peer of rotated(peers, Math.max(round, 0))) {
      const server = await peer.start(dir);
      await server.stop();
      if (round >= 0) times.get(peer)!.push(server.startMs);
    }
  }
  for (const [peer, ms] of times) log(`${peer.name}: start to first answer ${ms.map((t) => fmt(t)).join(", ")} ms`);
  return times;
}

const rss = async (server: PeerServer) => (await processMemory(server.pid!))?.rss;

/** Every server at once, loaded in turns; resident memory before and after; then each reset. */
async function underLoad(): Promise<{ runs: Map<Peer, Omit<ServerRun, "startMs" | "starts">>; samples: Samples }> {
  const servers: PeerServer[] = [];
  try {
    for (const peer of peers) servers.push(await peer.start(dir));
    // At rest: started, answered its first lookup, then left alone for a second.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const atRest = await Promise.all(servers.map(rss));
    const samples = await alternate(servers, routes, {
      rounds: ROUNDS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      routesTakeTurns: true,
      log,
    });
    const after = await Promise.all(servers.map(rss));
    const runs = new Map<Peer, Omit<ServerRun, "startMs" | "starts">>();
    for (const [i, server] of servers.entries()) {
      const resets: number[] = [];
      for (let r = 0; r < RESETS && server.reset; r++) resets.push(await server.reset());
      runs.set(peers[i]!, { rssAtRest: atRest[i], rssAfter: after[i], ...(resets.length ? { resetMs: median(resets) } : {}) });
      log(
        `${server.name}: resident ${fmt((atRest[i] ?? NaN) / 2 ** 20)} MiB at rest, ${fmt((after[i] ?? NaN) / 2 ** 20)} MiB after${resets.length ? `; reset ${fmt(median(resets), 1)} ms` : ""}`,
      );
    }
    return { runs, samples };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/** The msw side, in a process of its own (support/msw-peer.ts). */
function msw(): Promise<MswFigures> {
  const script = fileURLToPath(new URL("support/msw-peer.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, String(ROUNDS), String(SECONDS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as MswFigures) : reject(new Error(`msw-peer.ts exited with ${code}`)),
    ),
  );
}

/** One more start of Intake's CLI, under node's CPU profiler: where its start goes (support/start-profile.ts). */
async function startProfile(): Promise<{ startMs: number; parts: StartPart[] }> {
  const profiles = join(dir, "start-profile");
  const server = await peers.find((peer) => peer.name === INTAKE)!.start(dir, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profiles}`] });
  // node writes the profile as the process exits.
  await server.stop();
  const [file] = await readdir(profiles);
  const profile = JSON.parse(await readFile(join(profiles, file!), "utf8")) as CpuProfile;
  return { startMs: server.startMs, parts: startParts(profile, server.startMs) };
}

/**
 * What loading the store library Intake is built on (@mswjs/data, with what it loads: graphql, all of
 * date-fns, msw's interceptors) costs a node process on its own, beside a process loading nothing: the
 * share of Intake's start and resident memory no setting of Intake's can change.
 */
async function storeLibrary(): Promise<{ importMs: number; rss: number; bareRss: number }> {
  const probe = async (specifier: string) => {
    const code = `const t = performance.now(); ${specifier ? `require(${JSON.stringify(specifier)});` : ""} const ms = performance.now() - t; setTimeout(() => process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss })), 200);`;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", code], {
      cwd: fileURLToPath(new URL("../packages/server/", import.meta.url)),
    });
    return JSON.parse(stdout) as { ms: number; rss: number };
  };
  const [store, bare] = [[] as Array<{ ms: number; rss: number }>, [] as Array<{ ms: number; rss: number }>];
  for (let i = 0; i < 3; i++) {
    store.push(await probe("@mswjs/data"));
    bare.push(await probe(""));
  }
  return { importMs: median(store.map((s) => s.ms)), rss: median(store.map((s) => s.rss)), bareRss: median(bare.map((s) => s.rss)) };
}

try {
  const store = await storeLibrary();
  log(
    `@mswjs/data alone: ${fmt(store.importMs)} ms to load, ${fmt(store.rss / 2 ** 20)} MiB resident (node loading nothing: ${fmt(store.bareRss / 2 ** 20)} MiB)`,
  );
  const startTimes = await starts();
  const profiled = await startProfile();
  log(`${INTAKE}, profiled: ${profiled.parts.map((p) => `${p.part} ${fmt(p.ms)} ms`).join("; ")}`);
  const { runs, samples } = await underLoad();
  log("msw: Intake's handlers and a fixed handler, in one process");
  const mswFigures = await msw();
  const servers: Array<ServerRun & { peer: Peer }> = peers.map((peer) => ({
    peer,
    starts: startTimes.get(peer)!,
    startMs: median(startTimes.get(peer)!),
    ...runs.get(peer)!,
  }));
  const figures: ServerFigures[] = servers.map(({ peer, startMs, rssAtRest }) => ({
    server: peer.name,
    intake: peer.intake,
    startMs,
    ...(rssAtRest === undefined ? {} : { rssAtRest }),
    routes: Object.fromEntries(
      routes.map((route) => {
        const all = samples[route.name]![peer.name]!;
        return [route.name, { rps: median(all.map((s) => s.requestsPerSecond)), p99: median(all.map((s) => s.p99)) }];
      }),
    ),
  }));
  const checks = peerChecks(figures, INTAKE);
  const title = `Intake and its peers: requests a second and start${quick ? " (smoke run, --quick)" : ""}`;
  await writeFile(fileURLToPath(new URL("results/peers.svg", import.meta.url)), await peersChartSvg(figures, title));
  const settings = { rounds: ROUNDS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, starts: STARTS, resets: RESETS, quick };
  const markdown = peersMarkdown({
    servers,
    samples,
    msw: mswFigures,
    checks,
    settings,
    store,
    startProfile: profiled,
    ...(java.ready ? {} : { javaNote: java.note }),
  });
  await writeReport("peers", markdown, {
    ...settings,
    checks,
    store,
    startProfile: profiled,
    servers: servers.map(({ peer, ...run }) => ({ server: peer.name, command: peer.command, ...run })),
    samples,
    msw: mswFigures,
  });
  console.log(checks.map((c) => `${c.what}: ${c.value} (${c.target}) ${c.met ? "met" : "MISSED"}`).join("\n"));
} finally {
  await rm(dir, { recursive: true, force: true });
}
