/**
 * Request validation from the contract: for each operation and auth form, the body schema of
 * that form's view, and the operation's query, path and header parameters. Their validators are
 * compiled when the package is built (shared/built-validators.ts), each known by a key said here
 * (`intake createContact bearer body`, `admin listContacts query limit`). Failures become 400s that
 * name the field and say what was expected; a field in the other auth form's spelling is called
 * out as such.
 */
import type { AuthForm, listOperations, OpenApiDocument } from "@intake/spec";
import type { ValidateFunction } from "ajv";
import { badRequest, type HttpError } from "../shared/errors.js";
import { fieldPath } from "../shared/field-path.js";
import { nearestName } from "../shared/nearest-name.js";
import { nonFinite, notFinite } from "../shared/finite.js";
import * as builtBodies from "../generated/validators-body.js";
import * as builtParameters from "../generated/validators-parameters.js";
import { built, type Validators } from "../shared/built-validators.js";
import { describe, schemaError } from "../shared/schema-errors.js";
import type { HeaderReader } from "./exchange.js";

type Schema = Record<string, unknown>;

interface FieldTree {
  /** Fields other than these are refused. */
  closed: boolean;
  fields: Map<string, FieldTree | null>;
  /** An array's items, when they are objects with a closed set of fields. */
  items?: FieldTree;
}

interface Parameter {
  name: string;
  in: "query" | "path" | "header";
  required: boolean;
  /** Validates `{ value }`, coercing query and path strings to the declared type. */
  check: ValidateFunction;
}

/** Checks one operation's request; failures throw 400s in words a person can act on. */
export interface OperationValidator {
  body(body: unknown): void;
  /** The query parameters other than the key, checked and coerced to their declared types. */
  query(url: URL): Record<string, unknown>;
  /** Path parameters, percent-decoded and checked. */
  path(params: Record<string, string>): Record<string, string>;
  header(headers: HeaderReader): void;
}

interface Spelling {
  form: AuthForm;
  /** The other form's field name -> this form's, where an operation has two spellings. */
  other: Map<string, string>;
}

const SPELLING: Record<AuthForm, string> = {
  query: "with ?apiKey= the body is camelCase",
  header: "with x-api-key the body is as documented",
  bearer: "with Authorization: Bearer the body is snake_case",
};

type OperationObject = ReturnType<typeof listOperations>[number]["operation"];

function resolver(doc: OpenApiDocument) {
  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref as string | undefined;
    if (!ref) return schema;
    const [, section, name] = ref.split("/").slice(1);
    return resolve((doc.components as Record<string, Record<string, Schema>>)[section!]![name!]!);
  };
  return resolve;
}

/**
 * Where an operation's validators come from: `bodies` reports every error, verbosely; `parameters`
 * checks a parameter wrapped as `{ value }`, coercing query and path strings to the declared type.
 * Their schemas' references are to the document's components registered as `base` (`intake#/components/...`).
 */
export interface OperationSchemas {
  bodies: Validators;
  parameters: Validators;
}

/** The validators built for the contracts' operations (npm run generate). */
export const builtOperationSchemas: OperationSchemas = {
  bodies: built(builtBodies, "validators-body"),
  parameters: built(builtParameters, "validators-parameters"),
};

/** Makes the validators of a document's operations, against that document's components (registered as `base`). */
export function operationCompiler(doc: OpenApiDocument, base: string, { bodies, parameters: coercing }: OperationSchemas) {
  const resolve = resolver(doc);

  /** `name` says which operation (and auth form): the validators' keys start with it. */
  return function compile(
    name: string,
    operation: OperationObject,
    pathParameters: unknown[] = [],
    spelling?: Spelling,
  ): OperationValidator {
    const key = `${base} ${name}`;
    const bodySchema = operation.requestBody?.content?.["application/json"]?.schema as Schema | undefined;
    const bodyCheck = bodySchema && bodies.get(`${key} body`, absolutize(bodySchema, base) as Schema);
    const fields = bodySchema ? fieldTree(bodySchema, resolve) : null;
    const expectsArray = bodySchema !== undefined && resolve(bodySchema).type === "array";
    const parameters: Parameter[] = [...(pathParameters as Schema[]), ...((operation.parameters as Schema[] | undefined) ?? [])].map(
      (p) => {
        const parameter = resolve(p) as { name: string; in: Parameter["in"]; required?: boolean; schema?: Schema };
        const wrapped = { type: "object", properties: { value: absolutize(parameter.schema ?? {}, base) } };
        const check = coercing.get(`${key} ${parameter.in} ${parameter.name}`, wrapped);
        return { name: parameter.name, in: parameter.in, required: parameter.required ?? false, check };
      },
    );
    const inQuery = parameters.filter((p) => p.in === "query");
    const inPath = parameters.filter((p) => p.in === "path");
    const inHeader = parameters.filter((p) => p.in === "header");
    const checked = (parameter: Parameter, label: string, raw: string) => {
      const holder = { value: raw as unknown };
      try {
        if (!parameter.check(holder)) throw badRequest("VALIDATION_ERROR", describe(parameter.check.errors![0]!, label, raw));
      } finally {
        coercing.release();
      }
      // Coercion reads "1e400" as Infinity, which an integer with no maximum (offset) lets through.
      if (typeof holder.value === "number" && !Number.isFinite(holder.value)) throw badRequest("VALIDATION_ERROR", notFinite(label));
      return holder.value;
    };

    return {
      body(body) {
        if (!bodyCheck) return;
        if (expectsArray) {
          if (!Array.isArray(body)) throw badRequest("VALIDATION_ERROR", "The request body must be a JSON array.");
        } else if (typeof body !== "object" || body === null || Array.isArray(body)) {
          throw badRequest("VALIDATION_ERROR", "The request body must be a JSON object.");
        }
        checkFields(body, fields, "", spelling);
        try {
          if (!bodyCheck(body)) throw schemaError(bodyCheck.errors ?? []);
        } finally {
          bodies.release();
        }
        // After the schema, so a field with its own rule (a maximum, a type) is reported in its words.
        const infinite = nonFinite(body);
        if (infinite) throw badRequest("VALIDATION_ERROR", notFinite(fieldPath(infinite)));
      },
      query(url) {
        const declared = inQuery;
        const values: Record<string, unknown> = {};
        for (const [name, raw] of url.searchParams) {
          if (name === "apiKey") continue;
          const parameter = declared.find((p) => p.name === name);
          if (!parameter)
            throw unknownParameter(
              name,
              declared.map((p) => p.name),
            );
          if (name in values) throw badRequest("VALIDATION_ERROR", `Query parameter ${name} is given more than once.`);
          values[name] = checked(parameter, name, raw);
        }
        return values;
      },
      path(params) {
        const decoded: Record<string, string> = {};
        for (const parameter of inPath) {
          let value: string;
          try {
            value = decodeURIComponent(params[parameter.name] ?? "");
          } catch {
            throw badRequest("VALIDATION_ERROR", `Path parameter ${parameter.name} is not validly percent-encoded.`);
          }
          decoded[parameter.name] = String(checked(parameter, parameter.name, value));
        }
        return decoded;
      },
      header(headers) {
        for (const parameter of inHeader) {
          const value = headers.get(parameter.name);
          if (value === null) {
            if (parameter.required) throw badRequest("VALIDATION_ERROR", `Header ${parameter.name} is required.`);
            continue;
          }
          checked(parameter, `Header ${parameter.name}`, value);
        }
      },
    };
  };
}

/**
 * Each key's value, made by its maker on first use: most operations are never called in a run,
 * and a server that has validated nothing yet has not paid for their field trees.
 */
export function onFirstUse<T>(makers: Map<string, () => T>): (key: string) => T | undefined {
  const made = new Map<string, T>();
  return (key) => {
    if (!made.has(key)) {
      const make = makers.get(key);
      if (!make) return undefined;
      made.set(key, make());
    }
    return made.get(key);
  };
}

/**
 * `build(doc)`, made once per document: validators hold no state, so every Intake in a process
 * shares them.
 */
export function oncePerDocument<T>(build: (doc: OpenApiDocument) => T): (doc: OpenApiDocument) => T {
  const made = new WeakMap<OpenApiDocument, T>();
  return (doc) => {
    if (!made.has(doc)) made.set(doc, build(doc));
    return made.get(doc)!;
  };
}

/** Rewrites local `#/components/...` references to the registered document. */
function absolutize(schema: unknown, base: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => absolutize(s, base));
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && v.startsWith("#") ? base + v : absolutize(v, base),
    ]),
  );
}

/** The fields a schema allows (an array's, its items'), through references and combinators, and whether others are refused. */
function fieldTree(schema: Schema, resolve: (s: Schema) => Schema): FieldTree | null {
  const resolved = resolve(schema);
  if (resolved.type === "array" && resolved.items) {
    const items = fieldTree(resolved.items as Schema, resolve);
    return items ? { closed: false, fields: new Map(), items } : null;
  }
  const tree: FieldTree = { closed: false, fields: new Map() };
  let object = false;
  const visit = (node: Schema) => {
    const s = resolve(node);
    if (s.properties) {
      object = true;
      for (const [name, property] of Object.entries(s.properties as Record<string, Schema>)) {
        if (!tree.fields.has(name)) tree.fields.set(name, fieldTree(property, resolve));
      }
    }
    if (s.additionalProperties === false || s.unevaluatedProperties === false) tree.closed = true;
    for (const combinator of ["allOf", "anyOf", "oneOf"] as const) {
      for (const part of (s[combinator] as Schema[] | undefined) ?? []) visit(part);
    }
  };
  visit(schema);
  return object && tree.closed ? tree : null;
}

/** Refuses the first unknown field, at any depth (through objects and arrays), naming its path: `accounts[0].apikey`. */
function checkFields(value: unknown, tree: FieldTree | null, path: string, spelling: Spelling | undefined) {
  if (!tree || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    if (tree.items) value.forEach((item, i) => checkFields(item, tree.items!, `${path}[${i}]`, spelling));
    return;
  }
  const prefix = path ? `${path}.` : "";
  for (const [name, child] of Object.entries(value)) {
    const field = `${prefix}${name}`;
    if (tree.fields.has(name)) {
      checkFields(child, tree.fields.get(name) ?? null, field, spelling);
      continue;
    }
    if (!tree.closed) continue;
    const other = path === "" ? (spelling?.other ?? new Map<string, string>()) : new Map<string, string>();
    const own = other.get(name);
    if (own) throw badRequest("WRONG_FIELD_SPELLING", `Unexpected field ${field}: ${SPELLING[spelling!.form]}; send ${own} instead.`);
    const allowed = [...tree.fields.keys()];
    const near = nearestName(name, [...allowed, ...other.keys()], { misspelt: true });
    const suggestion = near ? (other.get(near) ?? near) : undefined;
    throw badRequest(
      "VALIDATION_ERROR",
      `Unknown field ${field}${suggestion ? `: did you mean ${prefix}${suggestion}?` : "."} Allowed${path ? ` in ${path}` : ""}: ${allowed.join(", ")}.`,
    );
  }
}

function unknownParameter(name: string, declared: string[]): HttpError {
  const near = nearestName(name, declared);
  if (near) {
    return badRequest("WRONG_FIELD_SPELLING", `Unknown query parameter ${name}: it is spelled ${near} in every auth form.`);
  }
  return badRequest("VALIDATION_ERROR", `Unknown query parameter ${name}. This operation takes: ${declared.join(", ") || "none"}.`);
}
