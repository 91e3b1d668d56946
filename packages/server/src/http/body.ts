/** Reads a JSON request body: the right content type, within the size limit, valid JSON. */
import { badRequest } from "./errors.js";
import { tooLarge, type ApiRequest } from "./exchange.js";

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
  // Each level of nesting takes two characters at least: a shorter text cannot be too deep.
  if (text.length > 2 * MAX_NESTING && nesting(text) > MAX_NESTING) {
    throw badRequest("INVALID_JSON", `The request body nests objects or arrays more than ${MAX_NESTING} levels deep; no operation takes that.`);
  }
  try {
    return { value: JSON.parse(text), text };
  } catch (error) {
    if (text.trim() === "") throw badRequest("INVALID_JSON", "The request body is empty; send a JSON object.");
    throw badRequest("INVALID_JSON", `The request body is not valid JSON: ${(error as Error).message}.`);
  }
}

// One decoder for every request: decode() with no stream option keeps no state between calls.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Far deeper than any body of the contract, shallow enough that nothing recursing over it can overflow. */
const MAX_NESTING = 32;

/** The deepest nesting of objects and arrays in JSON text, strings skipped. */
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) deepest = Math.max(deepest, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}
