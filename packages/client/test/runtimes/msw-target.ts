// The suite's target as the server's msw handlers, made inside the runtime under test: the same
// core as the HTTPS server, intercepted by msw's setupServer (Node, Bun, Deno) or setupWorker
// (a browser), whichever the caller starts the handlers with.
import type { HttpHandler } from "msw";
import { createIntakeHandlers } from "@intake/server/msw";
import { SUITE_ADMIN_TOKEN, SUITE_SEED, type SuiteTarget } from "./suite.js";

export function mswTarget(): { handlers: HttpHandler[]; target: SuiteTarget; close(): Promise<void> } {
  const mock = createIntakeHandlers({ seed: SUITE_SEED, adminToken: SUITE_ADMIN_TOKEN });
  return {
    handlers: mock.handlers,
    target: { baseUrl: mock.baseUrl, adminUrl: mock.adminUrl, adminToken: SUITE_ADMIN_TOKEN },
    close: () => mock.intake.close(),
  };
}
