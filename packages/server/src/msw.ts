/**
 * @intake/server/msw: the service as msw request handlers, the same core, behaviour and state
 * model as the HTTPS server, in-process. For `setupServer` in a Node test runner and `setupWorker`
 * in a browser page.
 *
 * ```ts
 * const { handlers, intake } = createIntakeHandlers({ seed, clock: "virtual", fetch: captureWebhooks });
 * const server = setupServer(...handlers);
 * ```
 *
 * Webhook deliveries (replies, auto-recharge requests) go through `fetch`: pass one to capture
 * them or send them to your own handler; by default they go through `globalThis.fetch`, which msw
 * also intercepts, so an `http.post(yourWebhookUrl, ...)` handler receives them. Those to the
 * server's own inbox (a webhook URL `/__inbox/<accountId>`) are answered in process, through
 * neither.
 */
import type { HttpHandler } from "msw";
import { mswHandlers } from "./adapters/msw.js";
import { createIntake, type Intake, type IntakeOptions } from "./app.js";

export interface IntakeHandlersOptions extends IntakeOptions {
  /** Requests per API key per minute. Default 0 (off) here, as in startIntakeServer: tests call often with few keys. */
  rateLimit?: number | undefined;
  /** The origin the handlers answer for. Default `https://api.intake.test`; the API is at `<origin>/v1`. */
  origin?: string | undefined;
}

export interface IntakeHandlers {
  handlers: HttpHandler[];
  intake: Intake;
  /** `<origin>/v1`, for the client's baseUrl. */
  baseUrl: string;
  /** `<origin>/__admin`. */
  adminUrl: string;
}

export const DEFAULT_ORIGIN = "https://api.intake.test";

export function createIntakeHandlers(options: IntakeHandlersOptions = {}): IntakeHandlers {
  const origin = new URL(options.origin ?? DEFAULT_ORIGIN).origin;
  const intake = createIntake({ ...options, rateLimit: options.rateLimit ?? 0 });
  return { handlers: mswHandlers(intake.fetch, origin), intake, baseUrl: `${origin}/v1`, adminUrl: `${origin}/__admin` };
}
