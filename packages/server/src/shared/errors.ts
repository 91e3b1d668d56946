/**
 * Errors an operation or a pipeline step throws, and the shapes they leave in: the API's general
 * `{ error: { code, message } }` and the receive endpoint's `{ error: message }`, and the
 * dashboard's plain text (a person reads it in a browser).
 */
import type { ErrorCode } from "@intake/spec";

export type ErrorShape = "general" | "string" | "text";

export class HttpError<Code extends string = ErrorCode> extends Error {
  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: ErrorCode, message: string) => new HttpError(400, code, message);
export const notFound = (code: ErrorCode, message: string) => new HttpError(404, code, message);

/** The JSON body of an error in the API's shapes. */
export function errorBody(shape: Exclude<ErrorShape, "text">, error: HttpError<string>) {
  return shape === "string" ? { error: error.message } : { error: { code: error.code, message: error.message } };
}

/** What a client sees of an unexpected failure: nothing of its internals. */
export function internalError(): HttpError {
  return new HttpError(500, "INTERNAL_ERROR", "Internal error. Retry later.");
}
