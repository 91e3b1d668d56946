// The client's suite (runtimes/suite.ts) in every runtime we say it works in, against the
// reference server over HTTPS and against its msw handlers in process. Each runtime loads the
// built packages as an integrator's install would (the dist, not the TypeScript sources): Bun and
// Deno through node_modules, workerd and Chromium through a bundle. `npm test` builds first.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { Miniflare } from "miniflare";
import { setupServer } from "msw/node";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleForBrowser, PAGE_HTML, servePage } from "../../../test-support/serve-page.js";
import { mswTarget } from "./runtimes/msw-target.js";
import {
  CHECKS,
  probeConnections,
  runClientSuite,
  SUITE_ADMIN_TOKEN,
  SUITE_SEED,
  type CheckResult,
  type ConnectionOutcome,
  type ConnectionProbe,
  type SuiteTarget,
} from "./runtimes/suite.js";

const run = promisify(execFile);
const bin = (name: string) =>
  createRequire(import.meta.url)
    .resolve(`${name}/package.json`)
    .replace(/package\.json$/, "");
const ENTRY = new URL("./runtimes/cli-entry.ts", import.meta.url).pathname;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// The built packages, as users get them: no "@intake/source" condition.
const FROM_DIST: string[] = [];

let server: IntakeTestServer;
let target: SuiteTarget;
/** The reference server, whose certificate a runtime does not trust until told to, and a port nothing listens on. */
let probe: ConnectionProbe;

beforeAll(async () => {
  if (!existsSync(new URL("../dist/index.js", import.meta.url)))
    throw new Error("Build first: npm run build (the runtimes load the built packages).");
  server = await startIntakeServer({ seed: SUITE_SEED, adminToken: SUITE_ADMIN_TOKEN });
  target = { baseUrl: server.baseUrl, adminUrl: server.adminUrl, adminToken: SUITE_ADMIN_TOKEN };
  probe = { refusedUrl: `https://127.0.0.1:${await closedPort()}/v1`, untrustedUrl: server.baseUrl };
});

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const listener = createServer().listen(0, "127.0.0.1", () => {
      const { port } = listener.address() as { port: number };
      listener.close(() => resolve(port));
    });
  });
}

type Probed = { refused: ConnectionOutcome; untrusted: ConnectionOutcome };

/**
 * Where the runtime says why: a refused connection is retried (nothing was sent) and has its code;
 * an untrusted certificate is not retried, and the message says how to trust it in this runtime.
 */
function expectClassified({ refused, untrusted }: Probed, trust: RegExp) {
  expect(refused).toMatchObject({ name: "ConnectionError", code: "ECONNREFUSED", attempts: 3 });
  expect(untrusted).toMatchObject({ name: "ConnectionError", attempts: 1 });
  expect(untrusted.code).toMatch(/^(CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/);
  expect(untrusted.message).toMatch(trust);
}

/** Where the runtime hides why: no code, treated as a lost connection, and the message says where the reason is. */
function expectHidden({ refused, untrusted }: Probed, where: RegExp) {
  // Through JSON, an undefined code is an absent one.
  expect(refused).toMatchObject({ name: "ConnectionError", attempts: 1 });
  expect(untrusted).toMatchObject({ name: "ConnectionError", attempts: 3 });
  expect([refused.code, untrusted.code]).toEqual([undefined, undefined]);
  expect(untrusted.message).toMatch(where);
}
afterAll(() => server?.stop());

/** Every check ran, and each passed (a failure shows its reason). */
function expectAllPassed(results: CheckResult[]) {
  expect(results.map((r) => r.name)).toEqual([...CHECKS]);
  expect(results.filter((r) => !r.ok)).toEqual([]);
}

/** Runs cli-entry.ts in Bun or Deno and reads its one JSON line. */
async function inProcess<T = CheckResult[]>(command: string, args: string[], env: Record<string, string>): Promise<T> {
  const { stdout } = await run(command, args, {
    env: { ...process.env, ...env, INTAKE_SUITE_TARGET: JSON.stringify(target), INTAKE_SUITE_PROBE: JSON.stringify(probe) },
    timeout: 90_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as T;
}

describe("Node", () => {
  it("against the reference server over HTTPS", async () => {
    expectAllPassed(await runClientSuite({ ...target, fetch: server.fetch }));
  });

  it("against the msw handlers (setupServer)", async () => {
    const mock = mswTarget();
    const intercept = setupServer(...mock.handlers);
    intercept.listen({ onUnhandledRequest: "error" });
    try {
      expectAllPassed(await runClientSuite(mock.target));
    } finally {
      intercept.close();
      await mock.close();
    }
  });

  it("classifies a refused connection and an untrusted certificate", async () => {
    expectClassified(await probeConnections(probe), /NODE_EXTRA_CA_CERTS=<file>/);
  });
});

describe("Bun", () => {
  const bun = `${bin("bun")}bin/bun.exe`;
  it("against the reference server over HTTPS, trusting its certificate through NODE_EXTRA_CA_CERTS", async () => {
    expectAllPassed(await inProcess(bun, ["run", ENTRY], { NODE_EXTRA_CA_CERTS: server.connection.certificatePath }));
  });
  it("against the msw handlers (setupServer)", async () => {
    expectAllPassed(await inProcess(bun, ["run", ENTRY, "--msw"], {}));
  });
  it("classifies a refused connection and an untrusted certificate", async () => {
    expectClassified(await inProcess<Probed>(bun, ["run", ENTRY, "--connections"], {}), /NODE_EXTRA_CA_CERTS=<file>/);
  });
});

describe("Deno", () => {
  const deno = `${bin("deno")}deno`;
  // --sloppy-imports: the suite's TypeScript imports its siblings as .js, as tsc wants.
  const args = ["run", "--allow-env", "--allow-net", "--allow-read", "--sloppy-imports", ENTRY];
  it("against the reference server over HTTPS, trusting its certificate through DENO_CERT", async () => {
    expectAllPassed(await inProcess(deno, args, { DENO_CERT: server.connection.certificatePath, DENO_NO_UPDATE_CHECK: "1" }));
  });
  it("against the msw handlers (setupServer)", async () => {
    expectAllPassed(await inProcess(deno, [...args, "--msw"], { DENO_NO_UPDATE_CHECK: "1" }));
  });
  it("classifies a refused connection and an untrusted certificate (Deno gives messages, not codes)", async () => {
    const probed = await inProcess<Probed>(deno, [...args, "--connections"], { DENO_NO_UPDATE_CHECK: "1" });
    expectClassified(probed, /DENO_CERT=<file> \(or --cert <file>\)/);
    expect(probed.untrusted.message).not.toMatch(/NODE_EXTRA_CA_CERTS/);
  });
});

describe("workerd (Cloudflare Workers, through miniflare)", () => {
  const workerScript = async () =>
    new TextDecoder().decode(
      await bundleForBrowser(new URL("./runtimes/worker-entry.ts", import.meta.url).pathname, ["workerd", "worker", ...FROM_DIST]),
    );

  it("says where to find the reason it hides for a failed connection", async () => {
    // No outbound service: workerd's own network, which trusts no local certificate.
    const worker = new Miniflare({ modules: true, script: await workerScript(), compatibilityDate: "2025-07-01" });
    try {
      const response = await worker.dispatchFetch("http://worker.test/connections", { method: "POST", body: JSON.stringify(probe) });
      const probed = (await response.json()) as Probed;
      expectHidden(probed, /workerd does not say why[^]*wrangler tail/);
      expect(probed.refused.message).toMatch(/Network connection lost/);
    } finally {
      await worker.dispose();
    }
  });

  it("against the reference server over HTTPS, through the outbound service", async () => {
    const worker = new Miniflare({
      modules: true,
      script: await workerScript(),
      compatibilityDate: "2025-07-01",
      // workerd cannot be told to trust a local certificate: its requests leave through Node, which can.
      outboundService: async (request) => {
        const body = ["GET", "HEAD"].includes(request.method) ? null : await request.arrayBuffer();
        return server.fetch(new Request(request.url, { method: request.method, headers: [...request.headers], body }));
      },
    });
    try {
      const response = await worker.dispatchFetch("http://worker.test/", { method: "POST", body: JSON.stringify(target) });
      expectAllPassed((await response.json()) as CheckResult[]);
    } finally {
      await worker.dispose();
    }
  });
});

describe("Chromium", () => {
  let browser: Browser;
  const page = new URL("./runtimes/page-entry.ts", import.meta.url).pathname;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}. Run npm run test:browser-deps, or set CHROMIUM_PATH.`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });
  afterAll(() => browser?.close());

  // The page served at the reference server's own origin (so no CORS is involved), by the browser's routing.
  const onServer = () => `${server.origin}/__runtime-suite/`;
  async function onServerOrigin(tab: Page) {
    const script = await bundleForBrowser(page, FROM_DIST);
    await tab.route(onServer(), (route) =>
      route.fulfill({ contentType: "text/html", body: PAGE_HTML.replace("/page.js", "/__runtime-suite/page.js") }),
    );
    await tab.route(`${onServer()}page.js`, (route) => route.fulfill({ contentType: "text/javascript", body: Buffer.from(script) }));
  }

  async function suiteIn(url: string, suiteTarget: SuiteTarget | "msw", setUp?: (tab: Page) => Promise<void>) {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on("pageerror", (error) => errors.push(error.message));
      await setUp?.(tab);
      await tab.goto(url);
      await tab.waitForFunction(() => window.__runSuite !== undefined);
      const results = await tab.evaluate((t) => window.__runSuite!(t), suiteTarget);
      expect(errors).toEqual([]);
      return results;
    } finally {
      await context.close();
    }
  }

  it("against the reference server over HTTPS (the page on the server's origin)", async () => {
    const results = await suiteIn(onServer(), target, onServerOrigin);
    expectAllPassed(results);
  });

  it("refuses a redirect, which a browser hides (status 0, no Location), without following or retrying it", async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const tab = await context.newPage();
      await onServerOrigin(tab);
      let followed = false;
      await tab.route(`${server.origin}/moved/v1/**`, (route) =>
        route.fulfill({ status: 302, headers: { location: `${server.origin}/elsewhere` } }),
      );
      await tab.route(`${server.origin}/elsewhere`, (route) => ((followed = true), route.fulfill({ status: 200, body: "{}" })));
      await tab.goto(onServer());
      await tab.waitForFunction(() => window.__lookUpThrough !== undefined);
      const outcome = await tab.evaluate((base) => window.__lookUpThrough!(base), `${server.origin}/moved/v1`);
      expect(outcome).toMatchObject({ name: "ConnectionError", calls: 1 });
      expect(outcome.message).toContain("redirect (opaque)");
      expect(followed).toBe(false);
    } finally {
      await context.close();
    }
  });

  it("says where to find the reason it hides for a failed connection (a fetch TypeError has no cause)", async () => {
    // A context that does not trust the server's certificate, with the page itself served by routing.
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await onServerOrigin(tab);
      await tab.goto(onServer());
      await tab.waitForFunction(() => window.__probeConnections !== undefined);
      const probed = await tab.evaluate((p) => window.__probeConnections!(p), probe);
      expectHidden(probed, /The browser does not tell the page why[^]*developer console/);
      expect(probed.refused.message).toMatch(/The browser does not tell the page why/);
    } finally {
      await context.close();
    }
  });

  it("against the msw handlers (setupWorker)", async () => {
    const site = await servePage(page, FROM_DIST);
    try {
      expectAllPassed(await suiteIn(site.url, "msw"));
    } finally {
      await site.close();
    }
  });
});
