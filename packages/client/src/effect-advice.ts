/**
 * What to tell a caller whose call failed without an answer to trust (a 5xx, a timeout, a
 * connection lost or aborted mid-request) and was not retried because repeating it could double
 * its effect: that it may have taken effect, and how to find out or repeat it safely.
 */
import type { paths } from "@intake/spec";

const ADVICE: Partial<Record<keyof paths, (headers: Headers) => string>> = {
  "/contacts": () => "Look the contact up (contacts.find({ email })) before creating it again.",
  "/lists/{listId}/contacts": () => "Adding the contact again is harmless: a member already on the list answers added: false.",
  "/send_custom_channel_message": () => "Sending it again may record the message twice: check the conversation first.",
  "/subaccounts/credits": (headers) =>
    headers.has("idempotency-key")
      ? "Repeat it with the same idempotencyKey: the service grants once per key."
      : "Check the sub-account's balance before granting again; pass idempotencyKey next time, so a repeat grants once.",
};

/** The sentence for an operation that may have taken effect; `path` is below the base URL (`/lists/lst_1/contacts`). */
export function uncertainEffect(path: string, headers: Headers): string {
  const template = path.startsWith("/lists/") ? "/lists/{listId}/contacts" : (path as keyof paths);
  const advice = ADVICE[template]?.(headers) ?? "Check whether it did before repeating it.";
  return ` It was not retried, as it may have taken effect: ${advice}`;
}
