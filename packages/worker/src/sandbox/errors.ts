/** An error of the Worker's own (the operator API, a sandbox that is not there), answered in the API's general shape. */
export class OperatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** `{ error: { code, message } }`, as the service answers its errors. */
export function errorJson(error: OperatorError): Response {
  return Response.json(
    { error: { code: error.code, message: error.message } },
    { status: error.status, headers: { "cache-control": "no-store", ...error.headers } },
  );
}
