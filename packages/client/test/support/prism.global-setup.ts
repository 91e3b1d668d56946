/** Starts `prism mock openapi.yaml` for the contract tests; they read its URL with inject("prismUrl"). */
import type { TestProject } from "vitest/node";
import { SPEC, startPrism } from "../../../../test-support/prism.js";

declare module "vitest" {
  export interface ProvidedContext {
    prismUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const prism = await startPrism(["mock", SPEC]);
  project.provide("prismUrl", `${prism.url}/v1`);
  return () => prism.stop();
}
