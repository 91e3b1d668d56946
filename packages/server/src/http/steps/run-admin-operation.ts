import { answerOf, type HeaderReader, type Result } from "../../contract/exchange.js";
import type { Step } from "../compose.js";
import type { Checked, Routed } from "../context.js";

/** An admin operation, by operationId, on its checked input. */
export type AdminOperation = (call: {
  body: unknown;
  query: Record<string, unknown>;
  params: Record<string, string>;
  headers: HeaderReader;
}) => Result | Promise<Result>;

/** Runs the route's admin operation on the checked input. */
export function runAdminOperation(operation: (operationId: string) => AdminOperation): Step<Routed & Checked> {
  return async function runAdminOperation(context) {
    const { query, params, body } = context.input;
    return answerOf(await operation(context.route.operationId)({ body, query, params, headers: context.request.headers }), context.headers);
  };
}
