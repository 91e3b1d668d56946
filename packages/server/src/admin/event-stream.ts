/**
 * GET /__admin/events read with fetch (browsers cannot send the admin token with EventSource) and
 * eventsource-parser: the open stream as an async iterable of typed events.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import type { AdminEvent } from "../shared/admin-event.js";

export type { AdminEvent, AdminEventOf } from "../shared/admin-event.js";

/** One event of the stream, with its id (give it as `lastEventId` to resume after it). */
export interface ReceivedEvent {
  id: number;
  event: AdminEvent;
}

/** An open subscription: iterate it (`for await`), and `close()` it (or break out of the loop) when done. */
export interface EventSubscription extends AsyncIterable<ReceivedEvent> {
  /** The id of the last event received, to resume from after a disconnection. */
  readonly lastEventId: number | undefined;
  close(): void;
}

/** The events of an open text/event-stream body; `abort` ends the request under it. */
export function readEvents(body: ReadableStream<Uint8Array>, abort: () => void): EventSubscription {
  // Widened to what TextDecoderStream takes: TypeScript's DOM types do not see Uint8Array as one.
  const reader = (body as ReadableStream<BufferSource>)
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  let lastEventId: number | undefined;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void reader.cancel().catch(() => {});
    abort();
  };
  return {
    get lastEventId() {
      return lastEventId;
    },
    close,
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const { done, value } = await reader.read().catch((error: unknown) => {
            // Closed by us: the read the abort cut short is the end, not a failure.
            if (closed) return { done: true as const, value: undefined };
            throw error;
          });
          if (done) return;
          if (value.id !== undefined) lastEventId = Number(value.id);
          yield { id: Number(value.id), event: JSON.parse(value.data) as AdminEvent };
        }
      } finally {
        close();
      }
    },
  };
}
