/** A page's frame: its title and actions, what is loading, errors and notes. */
import { AdminApiError } from "@intake/server/admin-client";
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import type { Loaded } from "./load.js";

export function ErrorNote({ error }: { error: Error | undefined }) {
  if (!error) return null;
  const code = error instanceof AdminApiError && error.code ? `${error.code}: ` : "";
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
  return (
    <p class="muted" aria-live="polite">
      Loading…
    </p>
  );
}

/** What a piece of the page says it has done. */
export function Note({ children }: { children: ComponentChildren }) {
  return (
    <p role="status" class="note">
      {children}
    </p>
  );
}
