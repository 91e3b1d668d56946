/**
 * `admin.waitForDelivery`: polls until a matching delivery has finished, and when it cannot, says
 * why. Under a virtual clock a delivery whose next attempt is due later waits for someone to
 * advance the clock, so polling would only run into the test runner's timeout: the wait stops at
 * once and names the call that moves the clock. Under a real clock it waits up to `timeoutMs`,
 * which by default stays under the runners' own 5 s, so the error a test shows is this one.
 */
import type { components } from "../generated/admin.js";

type Schemas = components["schemas"];
type Delivery = Schemas["Delivery"];

/** vitest's and jest's default test timeout is 5000 ms: a wait that gives up first says what it saw. */
export const DEFAULT_WAIT_MS = 4000;

export interface WaitForDeliveryOptions {
  /** Real milliseconds to wait. Default 4000, under the 5000 ms vitest and jest give a test. */
  timeoutMs?: number | undefined;
  /** Real milliseconds between looks. Default 20. */
  intervalMs?: number | undefined;
  /** The state wanted. Default: finished (delivered or failed); `pending` accepts one still being retried. */
  state?: Delivery["state"] | undefined;
}

/**
 * A wait that ended without its delivery. `reason` is `"clock"` when every matching delivery waits
 * for a virtual time (advance the clock), `"timeout"` when `timeoutMs` passed; `deliveries` are
 * the matching ones as they were then.
 */
export class DeliveryWaitError extends Error {
  override name = "DeliveryWaitError";
  constructor(
    message: string,
    readonly reason: "clock" | "timeout",
    readonly deliveries: Delivery[],
  ) {
    super(message);
  }
}

/** The admin calls a wait makes. */
export interface WaitCalls {
  settle(): Promise<unknown>;
  deliveries(): Promise<Delivery[]>;
  clock(): Promise<Schemas["Clock"]>;
  jobs(): Promise<Array<Schemas["Job"]>>;
}

export async function waitForDelivery(
  calls: WaitCalls,
  match: (delivery: Delivery) => boolean,
  options: WaitForDeliveryOptions = {},
): Promise<Delivery> {
  const { timeoutMs = DEFAULT_WAIT_MS, intervalMs = 20, state } = options;
  const wanted = state ? `in state ${state}` : "finished";
  const deadline = Date.now() + timeoutMs;
  // A real clock stays real: it is read once, and again only for the message.
  let mode: Schemas["Clock"]["mode"] | undefined;
  for (;;) {
    // Settling waits for attempts in flight, up to the webhook timeout (10 s): no longer than this wait's own.
    const settled = await within(calls.settle(), deadline - Date.now());
    const matching = (await calls.deliveries()).filter((delivery) => match(delivery));
    const found = matching.find((d) => (state ? d.state === state : d.state !== "pending"));
    if (found) return found;
    const retrying = matching.filter((d) => d.state === "pending" && d.nextAttemptAt !== null);
    if (settled && retrying.length && mode !== "real") {
      const clock = await calls.clock();
      mode = clock.mode;
      const now = Date.parse(clock.now);
      if (mode === "virtual" && retrying.every((d) => Date.parse(d.nextAttemptAt!) > now)) {
        throw new DeliveryWaitError(stuckMessage(wanted, retrying, clock.now), "clock", matching);
      }
    }
    if (Date.now() > deadline) throw await timedOut(calls, `No matching delivery ${wanted} within ${timeoutMs} ms.`, matching);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether `work` ended within `ms` (its failure is thrown); what it does after is left to it. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every matching delivery waits for a virtual time: what each waits for, and the call that runs it. */
function stuckMessage(wanted: string, retrying: Delivery[], now: string): string {
  const soonest = retrying.map((d) => d.nextAttemptAt!).sort()[0]!;
  return [
    `No matching delivery can be ${wanted} until the virtual clock is advanced: the server's clock is virtual, at ${now}, and nothing runs before the time it is advanced to.`,
    ...retrying.map((d) => `  ${describe(d, Date.parse(now))}`),
    `Advance the clock to run the next attempt: \`await admin.advanceClock({ to: "${soonest}" })\` (POST /__admin/clock/advance), then wait again` +
      `; or pass \`state: "pending"\` to take the delivery as it is.`,
  ].join("\n");
}

/** The timeout's message: the matching deliveries (or all, when none matched), and work waiting on a virtual clock. */
async function timedOut(calls: WaitCalls, headline: string, matching: Delivery[]): Promise<DeliveryWaitError> {
  const clock = await calls.clock();
  const now = Date.parse(clock.now);
  const shown = matching.length ? matching : await calls.deliveries();
  const seen = shown.length ? shown.map((d) => describe(d, now)).join("; ") : "none";
  const lines = [`${headline} ${matching.length ? "Matching deliveries" : "Deliveries"}: ${seen}.`];
  if (clock.mode === "virtual") {
    const later = (await calls.jobs()).filter((job) => job.runAt !== null && Date.parse(job.runAt) > now);
    if (later.length) {
      const soonest = later[0]!;
      lines.push(
        `The server's clock is virtual, at ${clock.now}: ${later.length} job${later.length === 1 ? " waits" : "s wait"} for a later time (the soonest, ${soonest.kind}, at ${soonest.runAt}). ` +
          `Advance the clock to run ${later.length === 1 ? "it" : "them"}: \`await admin.advanceClock({ to: "${soonest.runAt}" })\` (POST /__admin/clock/advance).`,
      );
    }
  }
  return new DeliveryWaitError(lines.join("\n"), "timeout", matching);
}

/** `whd_1 (reply to URL): pending after 1 attempt, last error "HTTP 500", next attempt due at T (in 4.5 s)`. */
function describe(delivery: Delivery, now: number): string {
  const attempts = delivery.attempts.length;
  const parts = [
    `${delivery.id} (${delivery.kind}${delivery.url ? ` to ${delivery.url}` : ""}): ${delivery.state} after ${attempts} attempt${attempts === 1 ? "" : "s"}`,
  ];
  if (delivery.lastError) parts.push(`last error ${JSON.stringify(clip(delivery.lastError))}`);
  if (delivery.state === "pending" && delivery.nextAttemptAt) {
    const inMs = Date.parse(delivery.nextAttemptAt) - now;
    parts.push(
      `next attempt due at ${delivery.nextAttemptAt}${inMs > 0 ? ` (in ${(inMs / 1000).toFixed(1)} s)` : " (due now: under way, or waiting its turn)"}`,
    );
  }
  return parts.join(", ");
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
