/** Reads a JSON request body: the right content type, within the size limit, valid JSON. */
import { badRequest } from "./errors.js";

export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type");
  if (!type || !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type.trim())) {
    throw badRequest(
      "UNSUPPORTED_CONTENT_TYPE",
      `Send the body as JSON with Content-Type: application/json${type ? ` (got ${type.slice(0, 100)})` : " (no Content-Type was sent)"}.`,
    );
  }
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readCapped(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("INVALID_JSON", "The request body is not valid UTF-8 text.");
  }
  if (text.trim() === "") throw badRequest("INVALID_JSON", "The request body is empty; send a JSON object.");
  if (nesting(text) > MAX_NESTING) {
    throw badRequest("INVALID_JSON", `The request body nests objects or arrays more than ${MAX_NESTING} levels deep; no operation takes that.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest("INVALID_JSON", `The request body is not valid JSON: ${(error as Error).message}.`);
  }
}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Not awaited: on a tee'd body (msw clones requests) a cancel waits for the other branch.
      void reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number) {
  return badRequest("PAYLOAD_TOO_LARGE", `The request body is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB.`);
}

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
