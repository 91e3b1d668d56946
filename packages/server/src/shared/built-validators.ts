/**
 * Validators of the contracts' schemas, compiled when the package is built, not when it runs:
 * compiling is code generation (`new Function`), which Cloudflare Workers refuse, and it was most
 * of the CLI's start. packages/server/scripts/validators.ts compiles every validator the server
 * looks up into src/generated/validators-*.ts (`npm run generate`), one module per way of
 * checking (bodies, parameters, records quickly or in full).
 */
import type { ValidateFunction } from "ajv";

/** What a module of src/generated/validators-*.ts exports. */
export interface BuiltModule {
  /** Its validators, by the key the server looks each one up by. */
  readonly validators: ReadonlyMap<string, ValidateFunction>;
  /** Clears the errors its validators left on themselves (see `Validators.release`). */
  release(): void;
}

/**
 * Where the validators of one way of checking come from: at run time the built ones, looked up by
 * key; in the generator, ajv compiling each schema and keeping it under its key. The server's
 * code asks for each validator by key and schema through this, so the generator compiles exactly
 * the keys the server will look up.
 */
export interface Validators {
  /** The validator of `schema`, known by `key`. */
  get(key: string, schema: Record<string, unknown>): ValidateFunction;
  /**
   * Clears the errors every validator left on itself. A validator keeps its errors (`errors`)
   * until its next call, the validators of the schemas it references as well as the one called,
   * and verbose errors hold the values they judged: the last body each refused (or that failed one
   * branch of an anyOf) would stay in memory for the process's life.
   */
  release(): void;
}

/** The validators of a built module (`file`, for the error that says to regenerate it). */
export function built(module: BuiltModule, file: string): Validators {
  return {
    get(key) {
      const validator = module.validators.get(key);
      if (!validator) {
        throw new Error(
          `No validator "${key}" in packages/server/src/generated/${file}.ts: the contract changed since it was generated. Run \`npm run generate\`.`,
        );
      }
      return validator;
    },
    release: module.release,
  };
}
