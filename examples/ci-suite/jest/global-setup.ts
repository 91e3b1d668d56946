// One Intake server for the whole jest run, empty: each test file loads its own seed with
// admin.reset(seed). Not imported here: jest loads a global set-up with Node's require, where its
// moduleNameMapper does not apply, so "../test/seed.js" is not found. Jest starts its workers
// after this returns and they inherit process.env, so the connection (plain JSON) travels that way.
import { startIntakeServer } from "@intake/server/testing";

export default async function globalSetup() {
  const intake = await startIntakeServer();
  process.env.INTAKE_CONNECTION = JSON.stringify(intake.connection);
  // Global set-up and tear-down share this context, not the workers'.
  (globalThis as { intakeServer?: typeof intake }).intakeServer = intake;
}
