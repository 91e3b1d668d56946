/**
 * A state's capacity (a hosted sandbox's: its memory is bounded): a contact or message past it is
 * refused 507 SANDBOX_FULL, in the route's shape, and nothing of the request is kept. Messages the
 * service itself sends (the bot's replies, openings, follow-ups) are never refused: they follow
 * from contacts and messages already taken, which bound them.
 */
import { HttpError } from "../shared/errors.js";
import type { Domain } from "./domain.js";

/** No capacity: what a server on a machine of its own has. */
export const UNBOUNDED = { contacts: Number.POSITIVE_INFINITY, messages: Number.POSITIVE_INFINITY };

/** Throws SANDBOX_FULL when one more `kind` would go past the capacity. */
export function roomFor(domain: Domain, kind: "contacts" | "messages"): void {
  const held = kind === "contacts" ? domain.store.contact.size : domain.store.message.size;
  if (held >= domain.limits.capacity[kind]) throw full(domain, kind, "this request");
}

/** Throws SANDBOX_FULL when records restored whole (a snapshot) hold more than the capacity. */
export function roomForAll(domain: Domain, held: { contacts: number; messages: number }): void {
  for (const kind of ["contacts", "messages"] as const)
    if (held[kind] > domain.limits.capacity[kind]) throw full(domain, kind, "the snapshot");
}

function full(domain: Domain, kind: "contacts" | "messages", what: string) {
  return new HttpError(
    507,
    "SANDBOX_FULL",
    `This sandbox holds the most ${kind} it can (${domain.limits.capacity[kind].toLocaleString("en-US")}), so nothing of ${what} was kept. Reset it (POST /__admin/reset), or ask its operator for another sandbox.`,
  );
}
