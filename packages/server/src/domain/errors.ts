/**
 * The admin API's errors (its contract's codes). /v1's are the contract's own codes
 * (shared/errors.ts): where the two APIs refuse the same thing, each says it in its own words.
 */
import { HttpError } from "../shared/errors.js";

export type AdminErrorCode = "VALIDATION_ERROR" | "NOT_FOUND" | "CONFLICT" | "UNAUTHORIZED";

export const invalid = (message: string) => new HttpError<AdminErrorCode>(400, "VALIDATION_ERROR", message);
export const conflict = (message: string) => new HttpError<AdminErrorCode>(409, "CONFLICT", message);
export const missing = (what: string, id: string) => new HttpError<AdminErrorCode>(404, "NOT_FOUND", `No ${what} with id ${id}.`);
export const notIn = (message: string) => new HttpError<AdminErrorCode>(404, "NOT_FOUND", message);

/** The value, or the error thrown: `store.contact.get(id) ?? fail(missing("contact", id))`. */
export function fail(error: Error): never {
  throw error;
}
