/**
 * The feed as a server-sent events stream (text/event-stream), a web ReadableStream, so the
 * fetch-style core serves it as msw and the node adapter do any answer. Each event is
 * `id:` / `event:` / `data:` (one JSON line) and a blank line; a `: keep-alive` comment keeps
 * proxies and idle timers from closing a quiet stream.
 *
 * Bounded: a subscriber's unread events queue up to `maxQueued`; one more and the stream fails
 * (its connection is closed) rather than growing without end. The reader reconnects with
 * Last-Event-ID and replays what the feed still holds.
 */
import type { EventFeed, FeedEntry } from "./feed.js";

export interface StreamOptions {
  /** Only this account's events. */
  accountId?: string;
  /** Replay the held events after this id first (Last-Event-ID). */
  after?: number;
  keepAliveMs: number;
  maxQueued: number;
}

export const STREAM_DEFAULTS = { keepAliveMs: 15_000, maxQueued: 10_000 };

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");

/** Each event's frame, encoded once however many streams send it. */
const frames = new WeakMap<FeedEntry, Uint8Array>();

export function frameOf(entry: FeedEntry): Uint8Array {
  let frame = frames.get(entry);
  if (!frame) {
    frame = encoder.encode(`id: ${entry.id}\nevent: ${entry.type}\ndata: ${JSON.stringify(entry.event())}\n\n`);
    frames.set(entry, frame);
  }
  return frame;
}

export class SlowSubscriberError extends Error {
  override name = "SlowSubscriberError";
}

export function eventStream(feed: EventFeed, options: StreamOptions): ReadableStream<Uint8Array> {
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let unsubscribe = () => {};
        const timer = setInterval(() => {
          if ((controller.desiredSize ?? 0) > 0) controller.enqueue(KEEP_ALIVE);
        }, options.keepAliveMs);
        stop = () => {
          unsubscribe();
          clearInterval(timer);
        };
        // A stream left open does not keep the process alive (Node; browsers have no unref).
        (timer as { unref?: () => void }).unref?.();
        if (options.after !== undefined) for (const entry of feed.since(options.after, options.accountId)) controller.enqueue(frameOf(entry));
        unsubscribe = feed.subscribe({
          accountId: options.accountId,
          deliver(entry) {
            if ((controller.desiredSize ?? 1) <= 0) {
              stop();
              controller.error(new SlowSubscriberError(`The subscriber fell more than ${options.maxQueued} events behind; reconnect with Last-Event-ID.`));
              return;
            }
            controller.enqueue(frameOf(entry));
          },
          end() {
            stop();
            controller.close();
          },
        });
      },
      cancel() {
        stop();
      },
    },
    new CountQueuingStrategy({ highWaterMark: options.maxQueued }),
  );
}
