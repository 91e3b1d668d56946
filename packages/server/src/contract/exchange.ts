/**
 * A request and a response as the core handles them: the little it reads and writes, so an
 * adapter can hand a request over without building a fetch Request (undici's costs several times
 * what the core does with a lookup). `intake.fetch` wraps these for fetch-style callers (msw).
 */
import { byteSize } from "../shared/byte-size.js";
import { badRequest, errorBody, type ErrorShape, type HttpError } from "../shared/errors.js";

/** Header lookup by name, case-insensitive (Headers has it; so does a node request's header map). */
export interface HeaderReader {
  get(name: string): string | null;
  /** Every header, names in lower case, repeated ones joined (Headers has it; the webhook inbox records them all). */
  entries?(): Iterable<[string, string]>;
}

export interface ApiRequest {
  method: string;
  url: URL;
  headers: HeaderReader;
  /**
   * The body's bytes, up to maxBytes + 1 of them (so a caller can tell it is too large); empty
   * when there is none. Read once: later calls give the same bytes.
   */
  bytes(maxBytes: number): Promise<Uint8Array>;
  /**
   * Set by an adapter for a request it cannot hand over as sent (headers over its limit, bytes
   * that are not HTTP, a target that is not a path): the core answers this error, in the shape of
   * the route the path names, with a request id, and journals it; nothing else is read. Its
   * status is 400 unless it says otherwise (417 for an Expect the server cannot meet).
   */
  refusal?: { status?: 400 | 417; code: "PAYLOAD_TOO_LARGE" | "VALIDATION_ERROR"; message: string };
  /**
   * Set by an adapter when the connection came from this machine (a loopback address): plain HTTP
   * is then accepted for the dashboard, the admin API and the inbox (never /v1), so a browser opens
   * the printed link with no certificate warning.
   */
  local?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** The JSON text; null for no body (or a stream). */
  body: string | null;
  /** A body sent as it comes, kept open until it ends (the live events); body is null then. */
  stream?: ReadableStream<Uint8Array>;
  /** Close the connection without an answer (a fault rule). */
  drop?: true;
}

/** What an operation answers: a 2xx status and its body. */
export interface Result {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as it comes instead of `body`, with `headers` saying its type (the live events). */
  stream?: ReadableStream<Uint8Array>;
}

/** The Date header for a time: the same text for a whole second, so it is written once a second. */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastDate.second) lastDate = { second, text: new Date(second * 1000).toUTCString() };
  return lastDate.text;
}
let lastDate = { second: NaN, text: "" };

export function jsonResponse(status: number, body: unknown, headers: Record<string, string>): ApiResponse {
  headers["content-type"] = "application/json";
  headers["cache-control"] = "no-store";
  return { status, headers, body: status === 204 ? null : JSON.stringify(body) };
}

export function textResponse(status: number, text: string, headers: Record<string, string>): ApiResponse {
  headers["content-type"] ??= "text/plain; charset=utf-8";
  headers["cache-control"] ??= "no-store";
  return { status, headers, body: text };
}

/** An error as the answer, in the route's shape: the one rule, for the core and for an adapter whose core failed. */
export function errorResponse(shape: ErrorShape, error: HttpError<string>, headers: Record<string, string>): ApiResponse {
  Object.assign(headers, error.headers);
  return shape === "text"
    ? textResponse(error.status, error.message, headers)
    : jsonResponse(error.status, errorBody(shape, error), headers);
}

/**
 * An operation's result as the answer, with the headers the request gathered. Its own headers go
 * on a copy: should the answer fail after all (its changes not saved), the error carries none.
 */
export function answerOf(result: Result, gathered: Record<string, string>): ApiResponse {
  const headers = result.headers ? { ...gathered, ...result.headers } : gathered;
  return result.stream
    ? { status: result.status, headers, body: null, stream: result.stream }
    : jsonResponse(result.status, result.body, headers);
}

export function fromFetchRequest(request: Request): ApiRequest {
  let read: Promise<Uint8Array> | undefined;
  return {
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    bytes: (maxBytes) => (read ??= readCapped(request, maxBytes)),
  };
}

export function toFetchResponse(response: ApiResponse): Response {
  return response.drop
    ? Response.error()
    : new Response(response.stream ?? response.body, { status: response.status, headers: response.headers });
}

/** Reads at most maxBytes + 1 bytes of a fetch body. */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    chunks.push(value);
    if (size > maxBytes) {
      // Not awaited: on a tee'd body (msw clones requests) a cancel waits for the other branch.
      void reader.cancel().catch(() => {});
      break;
    }
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

export function tooLarge(maxBytes: number) {
  return badRequest("PAYLOAD_TOO_LARGE", `The request body is larger than ${byteSize(maxBytes)}.`);
}
