// The suite in Bun or Deno, started by runtimes.test.ts. Against the reference server, the target
// comes as JSON in INTAKE_SUITE_TARGET (the runtime trusts its certificate through its own
// setting: NODE_EXTRA_CA_CERTS for Bun, DENO_CERT for Deno); with `--msw` the runtime makes the
// msw handlers itself; with `--connections` it probes the failed connections in
// INTAKE_SUITE_PROBE instead. Prints the results as one JSON line.
import process from "node:process";
import { setupServer } from "msw/node";
import { mswTarget } from "./msw-target.js";
import { probeConnections, runClientSuite } from "./suite.js";

async function main(): Promise<unknown> {
  if (process.argv.includes("--connections")) return probeConnections(JSON.parse(process.env.INTAKE_SUITE_PROBE ?? "{}"));
  if (!process.argv.includes("--msw")) return runClientSuite(JSON.parse(process.env.INTAKE_SUITE_TARGET ?? "{}"));
  const mock = mswTarget();
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    return await runClientSuite(mock.target);
  } finally {
    server.close();
    await mock.close();
  }
}

main().then(
  (results) => {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
