/**
 * Template text with the contact's names: `{{firstName}}` (or "there") and `{{lastName}}`, the
 * placeholders shared/placeholders.ts lets a campaign's texts hold.
 */
import type { ContactRecord } from "../store/models.js";

export function render(template: string, contact: ContactRecord): string {
  return template
    .replace(/\{\{\s*firstName\s*\}\}/g, contact.firstName ?? "there")
    .replace(/\{\{\s*lastName\s*\}\}/g, contact.lastName ?? "")
    .replace(/[ \t]{2,}/g, " ")
    .replace(/ ([,.!?])/g, "$1")
    .trim();
}
