/** Values shown as text: links within the dashboard, times, JSON, a contact's name. */
import type { ComponentChildren } from "preact";
import { follow, href } from "../router/router.js";

export function Link({ to, query, children, current }: { to: string; query?: Record<string, string | undefined>; children: ComponentChildren; current?: boolean }) {
  return (
    <a href={href(to, query)} onClick={follow} aria-current={current ? "page" : undefined}>
      {children}
    </a>
  );
}

export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  return <time dateTime={at}>{at.replace("T", " ").replace(/\.\d+Z$/, "Z")}</time>;
}

export function Json({ value }: { value: unknown }) {
  return <pre class="json">{JSON.stringify(value, null, 2)}</pre>;
}

export function contactName(contact: { firstName: string | null; lastName: string | null; phone: string | null; email: string | null; id: string }): string {
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  return name || contact.phone || contact.email || contact.id;
}
