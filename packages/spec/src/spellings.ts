/**
 * Which field of one body spelling is which of the other, where an operation takes its body in
 * two (`x-intake-body-by-auth`). The two schemas list their fields in the same order, so they
 * pair by position. The generator turns this into the `BodySpellings` type, from which the
 * client's type errors name the field to use.
 */
import { AUTH_SCHEMES, listOperations, type AuthForm, type OpenApiDocument } from "./auth-forms.js";

type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[]; anyOf?: Schema[]; oneOf?: Schema[] };

/** The fields a schema names at its top level, in order, through references and allOf/anyOf/oneOf. */
function fieldsOf(doc: OpenApiDocument, schema: Schema, into = new Set<string>()): Set<string> {
  const resolved = schema.$ref ? (doc.components?.schemas?.[schema.$ref.replace("#/components/schemas/", "")] as Schema) : schema;
  for (const name of Object.keys(resolved.properties ?? {})) into.add(name);
  for (const part of [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) fieldsOf(doc, part, into);
  return into;
}

export interface BodySpelling {
  path: string;
  method: string;
  /** Per form: each field of the other form's spelling, with this form's name for it (fields spelt alike left out). */
  otherToOwn: Partial<Record<AuthForm, Record<string, string>>>;
}

export function bodySpellings(doc: OpenApiDocument): BodySpelling[] {
  const forms = Object.fromEntries(Object.entries(AUTH_SCHEMES).map(([form, scheme]) => [scheme, form as AuthForm]));
  return listOperations(doc).flatMap(({ path, method, operation }) => {
    const byScheme = Object.entries(operation["x-intake-body-by-auth"] ?? {});
    if (byScheme.length !== 2) return [];
    const [[mine, mineSchema], [theirs, theirsSchema]] = byScheme as [[string, string], [string, string]];
    const a = [...fieldsOf(doc, { $ref: `#/components/schemas/${mineSchema}` })];
    const b = [...fieldsOf(doc, { $ref: `#/components/schemas/${theirsSchema}` })];
    const pairs = (from: string[], to: string[]) =>
      Object.fromEntries(from.map((name, i) => [name, to[i]!] as const).filter(([name, own]) => own && name !== own));
    return [{ path, method, otherToOwn: { [forms[mine]!]: pairs(b, a), [forms[theirs]!]: pairs(a, b) } }];
  });
}
