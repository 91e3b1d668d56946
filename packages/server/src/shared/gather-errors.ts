/**
 * How the built validators (src/generated/validators-*.ts) gather the errors of a referenced
 * schema, such as a list's items. ajv's standalone code does it with `vErrors.concat(...)`, which
 * copies every error gathered so far for each item that fails: a list of many bad items cost time
 * in the square of its length, and memory for every error. The generator (scripts/validators.ts)
 * writes calls to this instead, which add in place and keep the first MAX_GATHERED: a value with
 * an error still fails, and schemaError picks what to report from the first ones.
 */
import type { ErrorObject } from "ajv";

/** Enough to hold every error of the first failing items, which is all a refusal reports. */
export const MAX_GATHERED = 100;

export function gatherErrors(gathered: ErrorObject[] | null, added: ErrorObject[] | null | undefined): ErrorObject[] {
  const into = gathered ?? [];
  if (!added) return into;
  for (let i = 0; i < added.length && into.length < MAX_GATHERED; i++) into.push(added[i]!);
  return into;
}
