/**
 * The admin event stream (GET /__admin/events), through the client's events(): read with fetch, so
 * the token goes in a header and never in a URL. Pages reload what they show when an event comes,
 * when the whole state was replaced (a reset, a seed, a snapshot), and when the stream comes back
 * after a break (events may have been missed).
 *
 * One stream for the tab, of every account: the server's `?accountId=` leaves out the events of no
 * account (the clock, a state replaced), and one stream means choosing another account loses no
 * event. Each page picks its account's events here.
 */
import type { AdminEvent, EventSubscription } from "@intake/server/admin-client";
import { useEffect, useRef } from "preact/hooks";
import { admin } from "./admin.js";

/** The dashboard's own word that the stream broke and came back: events may have been missed. */
type Reconnected = { type: "reconnect"; at: string; accountId: null };

/** What a page hears: an event of the stream (the wire's type, as the server declares it), or a reconnect. */
type Heard = AdminEvent | Reconnected;

/** Events of these types. */
export const ofType =
  (...types: AdminEvent["type"][]) =>
  (event: AdminEvent) =>
    types.includes(event.type);

/** Events that concern this contact. */
export const about = (contactId: string) => (event: AdminEvent) => "contactId" in event && event.contactId === contactId;

type Listener = (event: Heard) => void;

const RETRY_MS = 1000;

const listeners = new Set<Listener>();
let stopRunning: (() => void) | undefined;

/** Runs the stream while anything listens. */
function connect(): () => void {
  const abort = new AbortController();
  let lastEventId: number | undefined;
  const dispatch = (event: Heard) => listeners.forEach((listener) => listener(event));

  const run = async () => {
    while (!abort.signal.aborted) {
      let subscription: EventSubscription | undefined;
      try {
        subscription = await admin().events({ lastEventId, signal: abort.signal });
        for await (const { event } of subscription) dispatch(event);
      } catch {
        // Refused, cut off or stopped: whether it was stopped decides below.
      }
      lastEventId = subscription?.lastEventId ?? lastEventId;
      if (abort.signal.aborted) return;
      // The stream ended (a restart, a network blip): pick up where it left off.
      dispatch({ type: "reconnect", at: new Date().toISOString(), accountId: null });
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void run();
  return () => abort.abort();
}

/**
 * Reloads what a page shows (each of `reloads`) when an event it `shows` comes for the account
 * (any account when null; events of no account, such as the clock's, count for every account),
 * when the whole state is replaced, and when the stream comes back after a break.
 */
export function useReloadOn(accountId: string | null, shows: (event: AdminEvent) => boolean, ...reloads: (() => void)[]): void {
  const touches = (event: Heard): boolean => {
    // Every page reads all it shows again.
    if (event.type === "reconnect" || event.type === "state.replaced") return true;
    return (accountId === null || event.accountId === null || event.accountId === accountId) && shows(event);
  };
  useLive((events) => {
    if (events.some(touches)) reloads.forEach((reload) => reload());
  });
}

/**
 * Calls `onEvent` with the events as they come, coalescing those that arrive together into one
 * call, so a page reloads once for them. The subscription hands over a read's events one promise at
 * a time, so they are gathered until the next task, not microtask.
 */
function useLive(onEvent: (events: Heard[]) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    let pending: Heard[] = [];
    let queued = false;
    let live = true;
    const listener: Listener = (event) => {
      pending.push(event);
      if (queued) return;
      queued = true;
      setTimeout(() => {
        const batch = pending;
        pending = [];
        queued = false;
        if (live) handler.current(batch);
      });
    };
    listeners.add(listener);
    stopRunning ??= connect();
    return () => {
      listeners.delete(listener);
      live = false;
      if (listeners.size === 0) {
        stopRunning?.();
        stopRunning = undefined;
      }
    };
  }, []);
}
