/**
 * @intake/server/testing: the reference server for test runners. Start it once in a global
 * set-up on a free HTTPS port; hand its connection (plain JSON) to the tests; each test connects
 * and gets a fetch that trusts the server's certificate and a typed admin client.
 *
 * ```ts
 * // vitest.global-setup.ts
 * import type { TestProject } from "vitest/node";
 * declare module "vitest" {
 *   export interface ProvidedContext { intake: IntakeConnection } // else inject("intake") does not compile
 * }
 * export default async function (project: TestProject) {
 *   const intake = await startIntakeServer({ seed, clock: "virtual" });
 *   project.provide("intake", intake.connection);
 *   return () => intake.stop();
 * }
 * // a test
 * const intake = connectIntake(inject("intake")); // also from @intake/server/connect, which loads no server
 * const client = createIntakeClient({ auth: "query", apiKey: intake.keys.acc_demo, baseUrl: intake.baseUrl, fetch: intake.fetch });
 * ```
 */
import { createIntake, type Intake, type IntakeOptions } from "./app.js";
import { serve } from "./adapters/node.js";
import { connectIntake, type ConnectedIntake, type IntakeConnection } from "./connect.js";
import { internals } from "./internals.js";

export * from "./connect.js";

export interface IntakeTestServer extends ConnectedIntake {
  connection: IntakeConnection;
  intake: Intake;
  stop(): Promise<void>;
}

/**
 * Starts the reference server on 127.0.0.1, on a free port unless told otherwise. The rate limit
 * is off unless `rateLimit` asks for one: a suite's calls all share a few keys, and a test would
 * otherwise get 429 "retry in 60 seconds" for calling too often, not for what it tests.
 */
export async function startIntakeServer(
  options: IntakeOptions & { host?: string | undefined; port?: number | undefined } = {},
): Promise<IntakeTestServer> {
  const { host, port, ...intakeOptions } = options;
  const adminToken = intakeOptions.adminToken ?? `adm_test_${crypto.randomUUID().replaceAll("-", "")}`;
  const intake = createIntake({ ...intakeOptions, rateLimit: intakeOptions.rateLimit ?? 0, adminToken });
  const server = await serve(internals(intake), { host, port: port ?? 0 });
  const connection: IntakeConnection = {
    origin: server.origin,
    baseUrl: server.baseUrl,
    adminUrl: server.adminUrl,
    adminToken,
    certificate: server.certificate,
    certificatePath: server.certificatePath,
    keys: Object.fromEntries((await intake.admin.accounts()).map((a) => [a.id, a.apiKey])),
  };
  const connected = connectIntake(connection);
  return {
    ...connected,
    connection,
    intake,
    async stop() {
      connected.fetch.close();
      await server.close();
      await intake.close();
    },
  };
}
