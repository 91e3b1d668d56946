/**
 * The model endpoint's answers, read no further than a cap: past it the body's stream is cancelled
 * (the connection closed, nothing more read) and reading it fails with `TooLarge`. An answer longer
 * than a message may be is refused anyway; without a cap an endpoint could make the server hold
 * megabytes per lead until the whole body had come.
 */

/**
 * Room for a message's 4096 characters written as JSON escapes (12 bytes for a character outside
 * the BMP), a hand-off's arguments, a reasoning model's thinking within the token cap, and the
 * completion's other fields.
 */
export const MAX_ANSWER_BYTES = 256 * 1024;

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Reading a body past the cap. Its message stands where the endpoint's words would (the client
 * makes an error status's body, unread, into this text).
 */
export class TooLarge extends Error {
  constructor(readonly cap: number) {
    super(`a body over ${sizeOf(cap)}, which the server stopped reading`);
    this.name = "TooLarge";
  }
}

/** "256 KiB (262144 bytes)". */
export const sizeOf = (bytes: number) => `${bytes / 1024} KiB (${bytes} bytes)`;

/** `fetch` with every response's body cut past `cap` bytes. */
export function cappedFetch(fetch: Fetch, cap: number): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    const capped = new Response(cut(response.body, cap, Number(response.headers.get("content-length") ?? NaN)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(capped, "url", { value: response.url });
    return capped;
  };
}

/** The stream, erroring with TooLarge (and the source cancelled) once more than `cap` bytes came, or at once when it says it holds more. */
function cut(source: ReadableStream<Uint8Array>, cap: number, declared: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (declared > cap) return stop(controller);
      const { done, value } = await reader.read();
      if (done) return controller.close();
      size += value.byteLength;
      if (size > cap) return stop(controller);
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });

  async function stop(controller: ReadableStreamDefaultController<Uint8Array>) {
    controller.error(new TooLarge(cap));
    await reader.cancel().catch(() => {});
  }
}

/** Whether the error, or one it was caused by, is TooLarge. */
export function tooLargeIn(error: unknown): TooLarge | undefined {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof TooLarge) return cause;
  }
  return undefined;
}
