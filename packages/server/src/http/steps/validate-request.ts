/**
 * A request's input: its parameters and JSON body, read (the right content type, within the size
 * limit, valid JSON) and checked against its operation's contract. The body's text is kept before
 * it is checked, so the journal shows what a refused request sent.
 */
import { badRequest } from "../../shared/errors.js";
import type { Step } from "../compose.js";
import { add, type Checked, type Context, type Routed } from "../context.js";
import { tooLarge, type ApiRequest } from "../../contract/exchange.js";
import type { OperationValidator } from "../../contract/validation.js";

/** `validatorFor` picks the operation's validator from what the steps before found (`Needs`: the auth form's spelling, on /v1). */
export function validateRequest<Needs = unknown>(
  validatorFor: (context: Context & Routed & Needs) => OperationValidator,
  maxBodyBytes: number,
): Step<Routed & Needs, Checked> {
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
    return next(add(context, "input", { query, params, body }));
  };
}

/** The parsed body, and its text (what the journal keeps). */
export async function readJson(request: ApiRequest, maxBytes: number): Promise<{ value: unknown; text: string }> {
  const type = request.headers.get("content-type");
  if (!type || !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type.trim())) {
    throw badRequest(
      "UNSUPPORTED_CONTENT_TYPE",
      `Send the body as JSON with Content-Type: application/json${type ? ` (got ${type.slice(0, 100)})` : " (no Content-Type was sent)"}.`,
    );
  }
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await request.bytes(maxBytes);
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw badRequest("INVALID_JSON", "The request body is not valid UTF-8 text.");
  }
  // Scanned before it is parsed: a deeply nested text parses into some 30 bytes of heap a byte,
  // and validation and the operations recurse over what it parses into.
  if (nestsDeeper(text, MAX_NESTING)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (text.trim() === "") throw badRequest("INVALID_JSON", "The request body is empty; send a JSON object.");
    throw badRequest("INVALID_JSON", `The request body is not valid JSON: ${(error as Error).message}.`);
  }
  return { value, text };
}

// One decoder for every request: decode() with no stream option keeps no state between calls.
// ignoreBOM is false by default; Workers' types ask for it all the same.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Far deeper than any body of the contract, shallow enough that nothing recursing over it can overflow. */
const MAX_NESTING = 32;

const tooDeep = () =>
  badRequest("INVALID_JSON", `The request body nests objects or arrays more than ${MAX_NESTING} levels deep; no operation takes that.`);

/** Whether JSON text nests objects or arrays more than `levels` deep (strings skipped); stops once it does. */
function nestsDeeper(text: string, levels: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > levels) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}
