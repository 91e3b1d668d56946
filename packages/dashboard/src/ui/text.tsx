/** Values shown as text: links within the dashboard, times, durations, JSON, a contact's name, channels. */
import type { ComponentChildren } from "preact";
import { follow, href } from "../router/router.js";

export function Link({
  to,
  query,
  children,
  current,
}: {
  to: string;
  query?: Record<string, string | undefined>;
  children: ComponentChildren;
  current?: boolean;
}) {
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

export function contactName(contact: {
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  email: string | null;
  id: string;
}): string {
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  return name || contact.phone || contact.email || contact.id;
}

/** A duration in real milliseconds, as a person reads it: "< 1 ms", "3.4 ms", "120 ms", "1.25 s". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1) return "< 1 ms";
  // The unit follows the figure as rounded: 9.97 ms reads "10 ms" and 999.6 ms "1.00 s", never "1000 ms".
  if (ms < 9.95) return `${ms.toFixed(1)} ms`;
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** The contact a record is about (a link to its conversation), by name; its id when the record carries no name. */
export function ContactLink({ contact, id }: { contact: { id: string; name: string } | null | undefined; id?: string | null }) {
  const to = contact?.id ?? id;
  if (!to) return <span class="muted">—</span>;
  return <Link to={`/contacts/${to}`}>{contact?.name ?? to}</Link>;
}

/** The built-in channels, by the name a person reads. */
export const BUILT_IN_CHANNELS = {
  messaging_app: "Messaging app",
  sms: "SMS",
  photo_social: "Photo-sharing social network",
  chat_app: "Chat app",
} as const;

export type BuiltInChannel = keyof typeof BUILT_IN_CHANNELS;

export const isBuiltIn = (channel: string): channel is BuiltInChannel => Object.hasOwn(BUILT_IN_CHANNELS, channel);

/** A custom channel spelled out: its label in quotes, and the contact's sender id on it. */
export function customChannelName(label: string | null, fromId?: string | null): string {
  return `Custom channel${label ? ` “${label}”` : ""}${fromId ? `, sender id ${fromId}` : ""}`;
}
