import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import ciSuiteExample from "./examples/ci-suite/vitest.config.js";

// The CLI keeps its certificate in the user's cache folder: the CLIs the tests start keep theirs
// in a folder of this run's own (workers and the processes they start inherit it), never in the home.
const certDir = mkdtempSync(join(tmpdir(), "intake-test-certs-"));
process.env.INTAKE_CERT_DIR = certDir;
process.once("exit", () => rmSync(certDir, { recursive: true, force: true }));

// Workspace packages resolve to their TypeScript sources (the "@intake/source" export condition),
// so tests never run against a stale build.
const conditions = ["@intake/source", ...defaultServerConditions];
const resolve = { conditions };
const ssr = { resolve: { conditions, externalConditions: ["@intake/source"] } };
// Projects do not inherit the root's test options.
const timeouts = { testTimeout: 20_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Most files wait on servers, child processes and browsers more than they compute: one more
    // at a time than the machine has cores (vitest's default is one fewer).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        resolve,
        ssr,
        test: {
          ...timeouts,
          name: "unit",
          include: [
            "packages/*/test/**/*.test.ts",
            "examples/*/test/**/*.test.ts",
            "examples/demos.test.ts",
            "bench/test/**/*.test.ts",
            "scripts/test/**/*.test.ts",
          ],
          exclude: ["**/*.contract.test.ts", "**/node_modules/**", "examples/ci-suite/**"],
          typecheck: {
            enabled: true,
            include: ["packages/*/test/**/*.test-d.ts"],
            tsconfig: "./tsconfig.json",
          },
        },
      },
      {
        // The CI-suite example with its own config (what an integrator writes), run from its folder.
        resolve,
        ssr,
        test: { ...ciSuiteExample.test, ...timeouts, name: "example-ci-suite", root: "examples/ci-suite" },
      },
      {
        // The same client calls against `prism mock openapi.yaml`: the spec's examples and the
        // client must agree. The global setup starts prism on a free port.
        resolve,
        ssr,
        test: {
          ...timeouts,
          name: "contract",
          include: ["packages/*/test/**/*.contract.test.ts", "examples/*/test/**/*.contract.test.ts"],
          globalSetup: ["packages/client/test/support/prism.global-setup.ts"],
        },
      },
    ],
  },
});
