/**
 * The ajv the server's validators are compiled with, and the one way to let go of what they
 * checked: a validator keeps nothing of a request past its check.
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export type Ajv = InstanceType<typeof Ajv2020.default>;

export function createAjv(options: { coerceTypes?: boolean } = {}): Ajv {
  // verbose: an anyOf error then carries its alternatives, which `translate` counts.
  const ajv = new Ajv2020.default({ allErrors: true, verbose: true, strict: false, validateFormats: true, coerceTypes: options.coerceTypes ?? false });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Clears the errors every validator of `ajv` left on itself. ajv keeps a validator's errors on it
 * (`validate.errors`) until its next call, the validators of the schemas it references as well as
 * the one called, and verbose errors hold the values they judged: the last body each refused (or
 * that failed one branch of an anyOf) would stay in memory for the process's life. The validators
 * are ajv's own list of those it compiled (`scope`), a few dozen.
 */
export function releaseChecked(ajv: Ajv): void {
  for (const validate of (ajv.scope.get().validate ?? []) as Array<{ errors?: unknown }>) if (validate.errors) validate.errors = null;
}
