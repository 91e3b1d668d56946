/** Records as the contract shows them. */
import type { components } from "@intake/spec";
import type { ContactRecord } from "../store/models.js";

export function toContact(record: ContactRecord): components["schemas"]["Contact"] {
  return {
    id: record.id,
    firstName: record.firstName,
    lastName: record.lastName,
    phone: record.phone,
    email: record.email,
    customFields: record.customFields ? (JSON.parse(record.customFields) as Record<string, string | number | boolean | null>) : {},
    createdAt: record.createdAt,
  };
}

/** Custom fields as stored: their JSON text, or null when there are none. */
export function storedCustomFields(fields: Record<string, unknown> | null | undefined): string | null {
  return fields && Object.keys(fields).length ? JSON.stringify(fields) : null;
}

/** A name or email as stored: trimmed, and absent when empty. */
export function clean(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
