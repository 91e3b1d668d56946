/** The dashboard's few building blocks: loading state, errors, fields, links, times. */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api.js";
import { follow, href } from "./router.js";

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

/** An action's error, shown where it was taken; busy while it runs. */
export function useAction(): { busy: boolean; error: Error | undefined; run: (action: () => Promise<unknown>) => Promise<boolean> } {
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

export function ErrorNote({ error }: { error: Error | undefined }) {
  if (!error) return null;
  const code = error instanceof ApiError && error.code ? `${error.code}: ` : "";
  return (
    <p class="error" role="alert">
      {code}
      {error.message}
    </p>
  );
}

export function Page({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Intake dashboard`;
  }, [title]);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title">{title}</h1>
        {actions ? <div class="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Loading<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.data !== undefined) {
    return (
      <>
        <ErrorNote error={loaded.error} />
        {children(loaded.data)}
      </>
    );
  }
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  return <p class="muted" aria-live="polite">Loading…</p>;
}

export function Link({ to, query, children, current }: { to: string; query?: Record<string, string | undefined>; children: ComponentChildren; current?: boolean }) {
  return (
    <a href={href(to, query)} onClick={follow} aria-current={current ? "page" : undefined}>
      {children}
    </a>
  );
}

let fieldIds = 0;
/** A labelled control: the label names it for screen readers and clicks. */
export function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string) => ComponentChildren }) {
  const id = useRef(`f${++fieldIds}`).current;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id)}
      {hint ? <small class="muted">{hint}</small> : null}
    </div>
  );
}

export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  return <time dateTime={at}>{at.replace("T", " ").replace(/\.\d+Z$/, "Z")}</time>;
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

/** The value of a form's control by name. */
export function formValue(form: HTMLFormElement, name: string): string {
  const element = form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null;
  return element?.value ?? "";
}

export function formChecked(form: HTMLFormElement, name: string): boolean {
  return (form.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false;
}

export function contactName(contact: { firstName: string | null; lastName: string | null; phone: string | null; email: string | null; id: string }): string {
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  return name || contact.phone || contact.email || contact.id;
}
