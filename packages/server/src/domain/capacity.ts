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
  const most = domain.limits.capacity[kind];
  const held = kind === "contacts" ? domain.store.contact.size : domain.store.message.size;
  if (held < most) return;
  throw new HttpError(
    507,
    "SANDBOX_FULL",
    `This sandbox holds the most ${kind} it can (${most.toLocaleString("en-US")}), so nothing of this request was kept. Reset it (POST /__admin/reset), or ask its operator for another sandbox.`,
  );
}
