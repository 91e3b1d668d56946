import type { IntakeTestServer } from "@intake/server/testing";

export default async function globalTeardown() {
  await (globalThis as { intakeServer?: IntakeTestServer }).intakeServer?.stop();
}
