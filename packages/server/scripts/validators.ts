/**
 * The server's validators, compiled here rather than when it runs (see src/shared/built-validators.ts):
 * one ES module of ajv's standalone code per way of checking, each exporting its validators by the
 * key the server looks them up by, and a `release()` that clears their errors. The keys are the
 * server's own: its modules ask this file's compilers for each validator (every operation of
 * both contracts in every auth form, every kind of record), as they ask the built modules at run
 * time, so the two cannot drift.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { OpenApiDocument } from "@intake/spec";
import Ajv2020, { _ } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import addFormats from "ajv-formats";
import type { Validators } from "../src/shared/built-validators.js";

/** The modules written to src/generated/, without their .ts. */
export const VALIDATOR_MODULES = [
  "validators-body",
  "validators-parameters",
  "validators-records-quick",
  "validators-records-full",
] as const;
type ModuleName = (typeof VALIDATOR_MODULES)[number];

interface AjvOptions {
  coerceTypes?: boolean;
  quick?: boolean;
  finiteNumbers?: boolean;
  formats?: "full" | "fast";
}

/**
 * An Ajv for the contracts' schemas. By default it reports every error, each with its schema
 * (`verbose`: an anyOf error then carries its alternatives, which `schemaError` counts); `quick`
 * stops at the first and keeps nothing, for a pass over many values that are expected to pass.
 * A number past a double's range (JSON.parse's Infinity) is a number unless `finiteNumbers`:
 * callers name it in words of its own (shared/finite.ts). Formats are checked in ajv-formats'
 * full mode (a date-time's day must exist) unless `formats` is "fast" (their shape only).
 */
function createAjv(options: AjvOptions = {}) {
  const all = !options.quick;
  const formats = options.formats === "fast" ? "fastFormats" : "fullFormats";
  const ajv = new Ajv2020.default({
    allErrors: all,
    verbose: all,
    strict: false,
    strictNumbers: options.finiteNumbers ?? false,
    validateFormats: true,
    coerceTypes: options.coerceTypes ?? false,
    // The schemas are the contracts', which the build lints (npm run lint:spec).
    validateSchema: false,
    // The code as source, an ES module's exports, one statement a line (a readable diff); each
    // format is read from ajv-formats' table of them, imported by name.
    code: { source: true, esm: true, lines: true, formats: formats === "fastFormats" ? _`fastFormats` : _`fullFormats` },
  });
  addFormats.default(ajv, { mode: options.formats ?? "full" });
  return ajv;
}

type Ajv = ReturnType<typeof createAjv>;

/**
 * Compiles each schema asked for and keeps it under its key; a schema asked for under several
 * keys (a parameter every form shares) is compiled once.
 */
class Compiler implements Validators {
  /** A schema's JSON -> the id it was added to ajv under. */
  private readonly ids = new Map<string, string>();
  /** Each key's id. */
  readonly keys = new Map<string, string>();

  constructor(readonly ajv: Ajv) {}

  get(key: string, schema: Record<string, unknown>) {
    const json = JSON.stringify(schema);
    let id = this.ids.get(json);
    if (id === undefined) {
      id = `schema${this.ids.size}`;
      this.ids.set(json, id);
      this.ajv.addSchema(structuredClone(schema), id);
    }
    const known = this.keys.get(key);
    if (known !== undefined && known !== id) throw new Error(`Two different schemas asked for under the key "${key}"`);
    this.keys.set(key, id);
    return this.ajv.getSchema(id)!;
  }

  release() {}

  /** The module: ajv's standalone code of every schema kept, and the key -> validator map. */
  module(header: string): string {
    if (this.keys.size === 0) throw new Error("No validators were asked for");
    const ids = [...new Set(this.keys.values())];
    let code = standaloneCode.default(this.ajv, Object.fromEntries(ids.map((id) => [id, id])));
    // Each id's export names its function; the module exports the map instead.
    const functionOf = new Map<string, string>();
    code = code.replace(/^export const (schema\d+) = (validate\d+);\n/gm, (_line, id: string, name: string) => {
      functionOf.set(id, name);
      return "";
    });
    code = code.replace(/^"use strict";\n/, "");
    const imports: string[] = [];
    const runtime = [
      { code: 'require("ajv/dist/runtime/ucs2length").default', name: "ucs2length", from: "../shared/ucs2length.js" },
      { code: 'require("ajv/dist/runtime/equal").default', name: "equal", from: "fast-deep-equal", asDefault: true },
    ];
    for (const { code: required, name, from, asDefault } of runtime) {
      if (!code.includes(required)) continue;
      code = code.split(required).join(name);
      imports.push(asDefault ? `import ${name} from "${from}";` : `import { ${name} } from "${from}";`);
    }
    // ajv gathers a referenced schema's errors by copying all of them so far (see gatherErrors).
    const concat = /vErrors = vErrors === null \? (validate\d+)\.errors : vErrors\.concat\(\1\.errors\);/g;
    if (concat.test(code)) {
      code = code.replace(concat, (_line, name: string) => `vErrors = gatherErrors(vErrors, ${name}.errors);`);
      imports.push('import { gatherErrors } from "../shared/gather-errors.js";');
    }
    if (code.includes(".concat("))
      throw new Error("ajv's standalone code gathers errors in a way scripts/validators.ts does not know: make it call gatherErrors");
    for (const formats of ["fastFormats", "fullFormats"]) {
      if (new RegExp(`\\b${formats}\\b`).test(code)) imports.push(`import { ${formats} } from "ajv-formats/dist/formats.js";`);
    }
    // Anything else ajv's code would take from its runtime is new here: say so rather than ship a require.
    const left = /require\([^)]*\)/.exec(code);
    if (left) throw new Error(`ajv's standalone code requires ${left[0]}: map it to an import in packages/server/scripts/validators.ts`);
    if (functionOf.size !== ids.length) throw new Error(`ajv exported ${functionOf.size} of ${ids.length} validators`);
    const all = [...new Set([...code.matchAll(/\bfunction (validate\d+)\(/g)].map((match) => match[1]!))];
    const entries = [...this.keys].map(([key, id]) => `  [${JSON.stringify(key)}, ${functionOf.get(id)}],`);
    return [
      header.trimEnd(),
      "/* eslint-disable */",
      "// @ts-nocheck: ajv's standalone code, JavaScript; the exports at the end say their types.",
      'import type { ValidateFunction } from "ajv";',
      ...imports.sort(),
      "",
      code.trim(),
      "",
      "/** The validators, by the key the server looks each one up by. */",
      "export const validators: ReadonlyMap<string, ValidateFunction> = new Map([",
      ...entries,
      "]);",
      "",
      "/** Every validator here, those of referenced schemas included: each keeps its last errors. */",
      `const every = [${all.join(", ")}];`,
      "",
      "/** Clears the errors the validators left on themselves (a verbose error holds the value it judged). */",
      "export function release(): void {",
      "  for (const validate of every) if (validate.errors) validate.errors = null;",
      "}",
      "",
    ].join("\n");
  }
}

/** An Ajv with a document's components registered as `base`, as the schemas' references name them. */
function compilerFor(options: AjvOptions, documents: Record<string, OpenApiDocument>): Compiler {
  const ajv = createAjv(options);
  for (const [base, doc] of Object.entries(documents)) ajv.addSchema({ $id: base, components: structuredClone(doc.components) }, base);
  return new Compiler(ajv);
}

/**
 * The modules' text, from the /v1 contract (`api`) and the admin contract (`admin`): the server's
 * modules are loaded here (after the admin document was generated), each with the documents given.
 */
export async function validatorModules(api: OpenApiDocument, admin: OpenApiDocument, header: string): Promise<Record<string, string>> {
  const { apiValidatorMakers } = await import("../src/api/validators.js");
  const { adminValidatorMakers } = await import("../src/admin/validators.js");
  const { recordSchemas } = await import("../src/domain/records-check.js");

  const documents = { intake: api, admin };
  const operations = { bodies: compilerFor({}, documents), parameters: compilerFor({ coerceTypes: true }, documents) };
  for (const makers of [apiValidatorMakers(api, operations), adminValidatorMakers(admin, operations)]) {
    for (const make of makers.values()) make();
  }
  const records = {
    quick: compilerFor({ quick: true, finiteNumbers: true, formats: "fast" }, { admin }),
    full: compilerFor({ formats: "fast" }, { admin }),
  };
  for (const compiler of Object.values(records)) {
    for (const [kind, schema] of Object.entries(recordSchemas(admin))) compiler.get(kind, schema);
  }
  const compilers: Record<ModuleName, Compiler> = {
    "validators-body": operations.bodies,
    "validators-parameters": operations.parameters,
    "validators-records-quick": records.quick,
    "validators-records-full": records.full,
  };
  return Object.fromEntries(Object.entries(compilers).map(([name, compiler]) => [`${name}.ts`, compiler.module(header)]));
}

/**
 * The server's modules import the built ones: one missing (a fresh checkout that lost it, a
 * deleted file) is written as an empty one first, so they load and it can be generated. With
 * --check, a missing one is reported instead.
 */
export async function placeholdersFor(outDir: URL, label: string): Promise<void> {
  const missing = VALIDATOR_MODULES.filter((name) => !existsSync(new URL(`${name}.ts`, outDir)));
  if (!missing.length) return;
  if (process.argv.includes("--check")) {
    console.error(
      `${label} is out of date (${missing.map((name) => `${name}.ts`).join(", ")} missing).\nRun \`npm run generate\` and commit the result.`,
    );
    process.exit(1);
  }
  const empty = "export const validators = new Map();\nexport function release(): void {}\n";
  for (const name of missing) await writeFile(new URL(`${name}.ts`, outDir), empty);
}
