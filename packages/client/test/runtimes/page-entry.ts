// The suite in a browser page. Against the reference server the page is served from the server's
// own origin (so no CORS is involved); with msw, the page starts the handlers in msw's service
// worker first. The test calls window.__runSuite and reads what it answers.
import { setupWorker } from "msw/browser";
import { mswTarget } from "./msw-target.js";
import { runClientSuite, type CheckResult, type SuiteTarget } from "./suite.js";

declare global {
  interface Window {
    __runSuite?: (target: SuiteTarget | "msw") => Promise<CheckResult[]>;
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
