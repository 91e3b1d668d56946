/**
 * The feed as a server-sent events stream (text/event-stream), a web ReadableStream, so the
 * fetch-style core serves it as msw and the node adapter do any answer. Each event is
 * `id:` / `event:` / `data:` (one JSON line) and a blank line; a `: keep-alive` comment keeps
 * proxies and idle timers from closing a quiet stream.
 *
 * Bounded: a subscriber still more than `maxQueued` events behind a second after it went past
 * (or ten times as many at any moment) is dropped: its stream fails, its connection closes, and
 * what it held is let go. The second lets a reader that keeps up take a burst larger than the
 * bound (an import of many contacts happens in one go, before anyone can read). A dropped reader
 * reconnects with Last-Event-ID and replays what the feed still holds.
 */
import { unref } from "../shared/clock.js";
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

/** The limits, checked: a keep-alive of 0 would spin, a bound of 0 would drop every reader. */
export function checkedLimits<T extends { keepAliveMs: number; maxQueued: number }>(limits: T): T {
  for (const name of ["keepAliveMs", "maxQueued"] as const) {
    const value = limits[name];
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`liveEvents.${name} must be a whole number, 1 or more (got ${value}).`);
  }
  return limits;
}

/** How long a reader may stay past the bound before it is dropped. */
const CATCH_UP_MS = 1000;
/** Past this many times the bound, a reader is dropped at once. */
const HARD_FACTOR = 10;

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
        let check: ReturnType<typeof setTimeout> | undefined;
        const timer = setInterval(() => {
          if ((controller.desiredSize ?? 0) > 0) controller.enqueue(KEEP_ALIVE);
        }, options.keepAliveMs);
        unref(timer);
        stop = () => {
          unsubscribe();
          clearInterval(timer);
          clearTimeout(check);
        };
        const behind = () => options.maxQueued - (controller.desiredSize ?? 0);
        const drop = () => {
          stop();
          controller.error(
            new SlowSubscriberError(`The subscriber fell more than ${options.maxQueued} events behind; reconnect with Last-Event-ID.`),
          );
        };
        if (options.after !== undefined)
          for (const entry of feed.since(options.after, options.accountId)) controller.enqueue(frameOf(entry));
        unsubscribe = feed.subscribe({
          accountId: options.accountId,
          deliver(entry) {
            controller.enqueue(frameOf(entry));
            if (behind() > HARD_FACTOR * options.maxQueued) return drop();
            if (behind() > options.maxQueued && check === undefined) {
              check = setTimeout(() => {
                check = undefined;
                if (behind() > options.maxQueued) drop();
              }, CATCH_UP_MS);
              unref(check);
            }
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
