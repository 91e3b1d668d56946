// Starts one Intake server on a free 127.0.0.1 port for the whole run and hands its connection
// (plain JSON: URLs, keys, certificate) to the test files.
import { startIntakeServer, type IntakeConnection } from "@intake/server/testing";
import type { TestProject } from "vitest/node";
import { seed } from "./seed.js";

declare module "vitest" {
  export interface ProvidedContext {
    intake: IntakeConnection;
  }
}

export default async function setup(project: TestProject) {
  const intake = await startIntakeServer({ seed });
  project.provide("intake", intake.connection);
  return () => intake.stop();
}
