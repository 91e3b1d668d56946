/**
 * Checks the request against its operation's contract: query, path and header parameters, then
 * the JSON body. Its text is kept before the body is checked, so the journal shows what a refused
 * request sent.
 */
import { readJson } from "./body.js";
import type { Step } from "./compose.js";
import type { Checked, Context, Routed } from "./context.js";
import type { OperationValidator } from "./validation.js";

/** `validatorFor` picks the operation's validator from what the steps before found (`Needs`: the auth form's spelling, on /v1). */
export function validateRequest<Needs = unknown>(validatorFor: (context: Context & Routed & Needs) => OperationValidator, maxBodyBytes: number): Step<Routed & Needs, Checked> {
  return async function validateRequest(context, next) {
    const { request, route } = context;
    const validator = validatorFor(context);
    const query = validator.query(context.url);
    const params = validator.path(context.params);
    validator.header(request.headers);
    // An optional body sent empty is no body, whichever adapter the request came through.
    const sent = route.takesBody && (route.bodyRequired || (await request.bytes(maxBodyBytes)).byteLength > 0);
    let body: unknown;
    if (sent) {
      const read = await readJson(request, maxBodyBytes);
      context.bodyText = read.text;
      validator.body(read.value);
      body = read.value;
    }
    return next(Object.assign(context, { input: { query, params, body } }));
  };
}
