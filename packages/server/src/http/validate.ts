/**
 * Checks the request against its operation's contract: query, path and header parameters, then
 * the JSON body. Its text is kept before the body is checked, so the journal shows what a refused
 * request sent.
 */
import { readJson } from "./body.js";
import type { Context, Step } from "./pipeline.js";
import type { OperationValidator } from "./validation.js";

export function validate(validatorFor: (context: Context) => OperationValidator, maxBodyBytes: number): Step {
  return async (context, next) => {
    const { request, route } = context;
    const validator = validatorFor(context);
    const query = validator.query(context.url);
    const params = validator.path(context.params ?? {});
    validator.header(request.headers);
    // An optional body sent empty is no body, whichever adapter the request came through.
    const sent = route!.takesBody && (route!.bodyRequired || (await request.bytes(maxBodyBytes)).byteLength > 0);
    let body: unknown;
    if (sent) {
      const read = await readJson(request, maxBodyBytes);
      context.bodyText = read.text;
      validator.body(read.value);
      body = read.value;
    }
    context.input = { query, params, body };
    return next();
  };
}
