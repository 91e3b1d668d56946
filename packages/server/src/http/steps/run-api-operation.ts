import type { Handler, OperationId, OperationInput, Success } from "../../api/types.js";
import { answerOf } from "../../contract/exchange.js";
import type { Domain } from "../../domain/domain.js";
import type { Step } from "../compose.js";
import type { Authenticated, Checked, Routed } from "../context.js";

/** The /v1 operations, by operationId. */
export type ApiOperations = { [Id in OperationId]: Handler<Id> };

/** Any /v1 operation, its input and answer those of every operation (the route says which it is). */
type AnyApiOperation = (input: OperationInput<OperationId>, domain: Domain) => Success<OperationId> | Promise<Success<OperationId>>;

/** Runs the route's /v1 operation on the checked input. */
export function runApiOperation(operations: ApiOperations, domain: Domain): Step<Routed & Authenticated & Checked> {
  return async function runApiOperation(context) {
    const operation = operations[context.route.operationId as OperationId] as AnyApiOperation;
    const { query, params, body } = context.input;
    const input = {
      account: context.account,
      form: context.auth.form,
      body: body as never,
      query: query as Record<string, string>,
      params,
      headers: context.request.headers,
    };
    return answerOf(await operation(input, domain), context.headers);
  };
}
