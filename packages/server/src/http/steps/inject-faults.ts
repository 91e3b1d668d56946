/**
 * The fault rules (faults/faults.ts) applied to a request: their latency, then a drop or an error
 * status, instead of the operation or after it.
 */
import type { ApiResponse } from "../../contract/exchange.js";
import type { Faults } from "../../faults/faults.js";
import { HttpError } from "../../shared/errors.js";
import type { Step } from "../compose.js";
import type { Routed } from "../context.js";

/**
 * Applies the fault rules that hit the request's operation: their latency, then a drop or an error
 * status, instead of the operation or (`when: after`) in place of its answer.
 */
export function injectFaults(faults: Faults): Step<Routed> {
  return async function injectFaults(context, next) {
    const fault = faults.pick(context.route.operationId);
    if (!fault) return next(context);
    context.fault = fault.ruleId;
    if (fault.latencyMs) await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
    if (fault.status === null && !fault.drop) return next(context);
    // The answer is lost whatever it was: the client cannot tell a success from a refusal either.
    const answered = fault.when === "after" ? await statusOf(next(context)) : undefined;
    if (fault.drop) {
      context.errorCode = "CONNECTION_DROPPED";
      return dropped();
    }
    throw injected(fault.status ?? 500, fault.retryAfter, fault.ruleId, answered);
  };
}

/** The status the operation answered, refused or not, so the fault's message can say whether it was applied. */
async function statusOf(answer: Promise<ApiResponse>): Promise<number> {
  try {
    return (await answer).status;
  } catch (error) {
    return error instanceof HttpError ? error.status : 500;
  }
}

/** No answer: the connection is closed. */
const dropped = (): ApiResponse => ({ status: 0, headers: {}, body: null, drop: true });

function injected(status: number, retryAfter: number, ruleId: string, answered: number | undefined): HttpError {
  const applied =
    answered === undefined
      ? ""
      : answered < 300
        ? " after the operation was applied"
        : ` after the operation answered ${answered}, nothing applied (that answer replaced)`;
  const message = `Injected fault ${ruleId}${applied}: ${status}. See GET /__admin/faults.`;
  const wait: Record<string, string> = status === 429 || status === 503 ? { "retry-after": String(retryAfter) } : {};
  return new HttpError(status, status === 429 ? "RATE_LIMITED" : "INTERNAL_ERROR", message, wait);
}
