// The suite in a browser page. Against the reference server the page is served from the server's
// own origin (so no CORS is involved); with msw, the page starts the handlers in msw's service
// worker first. The test calls window.__runSuite and reads what it answers.
import { setupWorker } from "msw/browser";
import { mswTarget } from "./msw-target.js";
import { createIntakeClient } from "@intake/client";
import { probeConnections, runClientSuite, SUITE_KEY, type CheckResult, type SuiteTarget } from "./suite.js";

declare global {
  interface Window {
    __runSuite?: (target: SuiteTarget | "msw") => Promise<CheckResult[]>;
    __probeConnections?: typeof probeConnections;
    __lookUpThrough?: (baseUrl: string) => Promise<{ name: string; message: string; calls: number }>;
  }
}

window.__runSuite = async (target) => {
  if (target !== "msw") return runClientSuite(target);
  const mock = mswTarget();
  const worker = setupWorker(...mock.handlers);
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "error", quiet: true });
  try {
    return await runClientSuite(mock.target);
  } finally {
    worker.stop();
    await mock.close();
  }
};

window.__probeConnections = probeConnections;

// A browser gives a refused redirect as an opaque answer of status 0, with no Location: the one
// runtime where the client cannot read the redirect it refuses. The test answers baseUrl with one.
window.__lookUpThrough = async (baseUrl) => {
  let calls = 0;
  const client = createIntakeClient({ auth: "query", apiKey: SUITE_KEY, baseUrl, fetch: (request) => (calls++, fetch(request)) });
  const error = (await client.contacts.find({ email: "a@example.com" }).then(
    () => new Error("no error"),
    (e: unknown) => e,
  )) as Error;
  return { name: error.name, message: error.message, calls };
};
