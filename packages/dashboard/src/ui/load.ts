/** A page's data and its actions: loading state, errors, busy while running. */
import { useCallback, useLayoutEffect, useRef, useState } from "preact/hooks";

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  reload: () => void;
}

/**
 * Loads with `load` now and whenever `deps` change; reload() loads again, keeping what is shown
 * meanwhile. Reloads asked for while one runs make one more after it, not one each: a burst of
 * events costs a page two loads, and what it shows is never older than the last event.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error }>({});
  const latest = useRef(0);
  const running = useRef(false);
  const again = useRef(false);
  const start = useCallback(() => {
    const ticket = ++latest.current;
    running.current = true;
    again.current = false;
    const current = () => ticket === latest.current;
    load()
      .then(
        (data) => current() && setState({ data }),
        (error: Error) => current() && setState((previous) => ({ data: previous.data, error })),
      )
      .finally(() => {
        if (!current()) return;
        running.current = false;
        if (again.current) startRef.current();
      });
  }, deps);
  const startRef = useRef(start);
  startRef.current = start;
  // Before the first paint, not after it: the request is on its way while the page draws.
  useLayoutEffect(() => {
    setState({});
    start();
  }, [start]);
  const reload = useCallback(() => {
    if (running.current) again.current = true;
    else startRef.current();
  }, []);
  return { data: state.data, error: state.error, reload };
}

export interface Action {
  busy: boolean;
  error: Error | undefined;
  run: (action: () => Promise<unknown>) => Promise<boolean>;
}

/** An action's error, shown where it was taken; busy while it runs. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (thrown) {
      setError(thrown as Error);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
