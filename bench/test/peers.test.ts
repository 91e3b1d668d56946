import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasJava, javaPlan, JAVA_PACKAGE } from "../support/java.js";
import { peerChecks, type ServerFigures } from "../support/peer-checks.js";
import { peersChartSpec, peersChartSvg } from "../support/peers-chart.js";
import { PEERS, probe, writePeerFiles } from "../support/peers.js";
import { routes } from "../support/routes.js";

const figures = (
  server: string,
  intake: boolean,
  rps: [number, number],
  p99: [number, number],
  startMs: number,
  rssAtRest?: number,
): ServerFigures => ({
  server,
  intake,
  startMs,
  ...(rssAtRest === undefined ? {} : { rssAtRest }),
  routes: { lookup: { rps: rps[0], p99: p99[0] }, create: { rps: rps[1], p99: p99[1] } },
});
const MiB = 2 ** 20;

describe("the targets against the peers", () => {
  const servers = [
    figures("Intake", true, [30_000, 15_000], [2, 4], 350, 80 * MiB),
    figures("Fast lookups", false, [19_000, 5_000], [3, 9], 900, 90 * MiB),
    figures("Fast creates", false, [5_000, 10_001], [9, 3], 300, 120 * MiB),
  ];

  it("compares each route with the peer fastest on it: 1.5x its req/s with a p99 no higher", () => {
    const [lookup, create] = peerChecks(servers, "Intake");
    expect(lookup).toMatchObject({ what: expect.stringContaining("Fast lookups"), value: "1.58; 2 ms / 3 ms", met: true });
    // 15,000 / 10,001 is under 1.5, shown so, and its p99 is higher too.
    expect(create).toMatchObject({ what: expect.stringContaining("Fast creates"), value: "1.4999; 4 ms / 3 ms", met: false });
  });

  it("misses a route where the req/s are enough but the p99 is higher", () => {
    const slowTail = [figures("Intake", true, [30_000, 30_000], [4, 4], 350), figures("Peer", false, [10_000, 10_000], [3, 9], 300)];
    expect(peerChecks(slowTail, "Intake").map((c) => c.met)).toEqual([false, true, true]);
  });

  it("checks the start within 400 ms and the memory at rest against the smallest peer's", () => {
    const [, , start, memory] = peerChecks(servers, "Intake");
    expect(start).toMatchObject({ value: "350 ms", target: "≤ 400 ms", met: true });
    expect(memory).toMatchObject({ what: expect.stringContaining("Fast lookups"), value: "80 MiB / 90 MiB", met: true });
    const heavier = peerChecks([{ ...servers[0]!, rssAtRest: 100 * MiB, startMs: 401 }, ...servers.slice(1)], "Intake");
    expect(heavier.slice(2).map((c) => c.met)).toEqual([false, false]);
  });

  it("compares Intake with peers only, not with another way of running Intake", () => {
    const withTesting = [...servers, figures("Intake testing", true, [90_000, 90_000], [1, 1], 100, MiB)];
    expect(peerChecks(withTesting, "Intake").every((c) => !c.what.includes("Intake testing"))).toBe(true);
  });
});

describe("Java for WireMock", () => {
  it("is used where installed, installed where missing and allowed, and otherwise skipped with the command to run", () => {
    expect(javaPlan({ java: true, root: false, sudo: false, apt: false })).toEqual({ do: "use" });
    const asRoot = javaPlan({ java: false, root: true, sudo: false, apt: true });
    expect(asRoot).toMatchObject({ do: "install", line: expect.stringContaining(`Java is missing: installing ${JAVA_PACKAGE}`) });
    expect(asRoot.do === "install" && asRoot.command.join(" ")).not.toContain("sudo");
    const withSudo = javaPlan({ java: false, root: false, sudo: true, apt: true });
    expect(withSudo.do === "install" && withSudo.command.join(" ")).toContain(`sudo apt-get install -y -q ${JAVA_PACKAGE}`);
    for (const machine of [
      { java: false, root: false, sudo: false, apt: true },
      { java: false, root: true, sudo: false, apt: false },
    ]) {
      expect(javaPlan(machine)).toEqual({ do: "skip", note: expect.stringContaining(`apt-get install -y ${JAVA_PACKAGE}`) });
    }
  });
});

describe("the chart", () => {
  const servers = [figures("Intake", true, [30_000, 15_000], [2, 4], 350), figures("Peer", false, [19_000, 5_000], [3, 9], 900)];

  it("draws every server's req/s on every route, and every server's start", () => {
    const spec = peersChartSpec(servers, "Title") as unknown as { vconcat: Array<{ data: { values: unknown[] } }> };
    expect(spec.vconcat[0]!.data.values).toEqual([
      { server: "Intake", route: "lookup", rps: 30_000 },
      { server: "Intake", route: "create", rps: 15_000 },
      { server: "Peer", route: "lookup", rps: 19_000 },
      { server: "Peer", route: "create", rps: 5_000 },
    ]);
    expect(spec.vconcat[1]!.data.values).toEqual([
      { server: "Intake", startMs: 350 },
      { server: "Peer", startMs: 900 },
    ]);
  });

  it("renders to an SVG document in Node, labelled", async () => {
    const svg = await peersChartSvg(servers, "Intake and its peers");
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const text of ["Intake and its peers", "Peer", "lookup", "30,000", "900"]) expect(svg).toContain(text);
  });

  it("names every server the benchmark runs in full, none cut short", async () => {
    const all = PEERS.map((peer) => figures(peer.name, peer.intake, [1_000, 1_000], [1, 1], 500));
    const svg = await peersChartSvg(all, "Intake and its peers");
    for (const peer of PEERS) expect(svg).toContain(`>${peer.name}</text>`);
    expect(svg).not.toContain("…");
  });
});

describe("the peers, as the benchmark starts them", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "intake-peers-test-"));
    await writePeerFiles(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Intake's own starts need the build (dist); the other servers are the repository's dev dependencies.
  const others = PEERS.filter((peer) => !peer.intake && (peer.peer !== "WireMock" || hasJava()));
  it.each(others.map((peer) => [peer.name, peer] as const))(
    "%s answers each of the four routes 2xx, and its reset where it has one",
    async (_, peer) => {
      const server = await peer.start(dir);
      try {
        for (const route of routes) {
          const { method, path, body } = route.call(0, server);
          const status = await probe(`${server.base}${path}`, {
            method,
            body,
            headers: body === undefined ? {} : { "content-type": "application/json" },
          });
          expect({ route: route.name, status }).toEqual({
            route: route.name,
            status: expect.toSatisfy((s: number) => s >= 200 && s < 300),
          });
        }
        if (server.reset) expect(await server.reset()).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    },
    90_000,
  );
});
