/** A page's data and its actions: loading state, errors, busy while running. */
import { useCallback, useLayoutEffect, useRef, useState } from "preact/hooks";

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  reload: () => void;
}

/** Loads with `load` now and whenever `deps` change; reload() loads again, keeping what is shown meanwhile. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error }>({});
  const latest = useRef(0);
  const run = useCallback(() => {
    const ticket = ++latest.current;
    load().then(
      (data) => ticket === latest.current && setState({ data }),
      (error: Error) => ticket === latest.current && setState((previous) => ({ data: previous.data, error })),
    );
  }, deps);
  // Before the first paint, not after it: the request is on its way while the page draws.
  useLayoutEffect(() => {
    setState({});
    run();
  }, [run]);
  return { data: state.data, error: state.error, reload: run };
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
