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
