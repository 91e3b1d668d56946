/**
 * The admin event stream (GET /__admin/events, text/event-stream) read with fetch, so the token
 * goes in a header and never in a URL, and parsed with eventsource-parser. Pages reload what they
 * show when an event comes, and when the stream comes back after a break (events may have been missed).
 */
import { createParser } from "eventsource-parser";
import { useEffect, useRef } from "preact/hooks";
import { ADMIN_BASE, token, type Schemas } from "./api.js";

/** An event of the stream, or the dashboard's own word that it may have missed some (a reconnect). */
export type LiveEvent = Schemas["AdminEvent"] | { type: "reconnect"; at: string; accountId: string | null };

/** Whether the event concerns this contact. */
export const about = (event: LiveEvent, contactId: string) => "contactId" in event && event.contactId === contactId;

type Listener = (event: LiveEvent) => void;

const RETRY_MS = 1000;

const listeners = new Set<Listener>();
let running: { accountId: string | null; stop: () => void } | undefined;

/** Runs the stream for one account (null: all) while anything listens. */
function connect(accountId: string | null): () => void {
  const abort = new AbortController();
  let lastEventId: string | undefined;
  const dispatch = (event: LiveEvent) => listeners.forEach((listener) => listener(event));

  const run = async () => {
    while (!abort.signal.aborted) {
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${token.get() ?? ""}`, accept: "text/event-stream" };
        if (lastEventId) headers["last-event-id"] = lastEventId;
        const query = accountId ? `?accountId=${encodeURIComponent(accountId)}` : "";
        const response = await fetch(`${ADMIN_BASE}/events${query}`, { headers, signal: abort.signal, cache: "no-store" });
        if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
        const parser = createParser({
          onEvent(message) {
            if (message.id) lastEventId = message.id;
            try {
              dispatch(JSON.parse(message.data) as LiveEvent);
            } catch {
              // A line that is not JSON is not an event the dashboard knows.
            }
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        if (abort.signal.aborted) return;
      }
      // The stream ended (a restart, a network blip): pick up where it left off.
      dispatch({ type: "reconnect", at: new Date().toISOString(), accountId });
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void run();
  return () => abort.abort();
}

/**
 * Calls `onEvent` for the account's events (all accounts' when null), coalescing the events that
 * arrive together (one read of the stream) into one call, so a page reloads once for them.
 */
export function useLive(accountId: string | null, onEvent: (events: LiveEvent[]) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    let pending: LiveEvent[] = [];
    let queued = false;
    let live = true;
    const listener: Listener = (event) => {
      pending.push(event);
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        const batch = pending;
        pending = [];
        queued = false;
        if (live) handler.current(batch);
      });
    };
    listeners.add(listener);
    if (running?.accountId !== accountId) {
      running?.stop();
      running = { accountId, stop: connect(accountId) };
    }
    return () => {
      listeners.delete(listener);
      live = false;
      if (listeners.size === 0) {
        running?.stop();
        running = undefined;
      }
    };
  }, [accountId]);
}
