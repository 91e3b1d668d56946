/**
 * Regenerates src/generated/ from the root openapi.yaml: the types of the whole contract, the
 * types of each auth form's view, and the document as data.
 */
import { fileURLToPath } from "node:url";
import { banner, documentModule, emit, readYaml, typesOf } from "../../../scripts/codegen.js";
import { AUTH_SCHEMES, authFormView, type OpenApiDocument } from "../src/auth-forms.js";
import { bodySpellings } from "../src/spellings.js";

const doc = await readYaml<OpenApiDocument>(fileURLToPath(new URL("../../../openapi.yaml", import.meta.url)));
const header = banner("packages/spec/scripts/generate.ts from openapi.yaml");
const files: Record<string, string> = {
  "openapi.ts": header + (await typesOf(doc)),
  "document.ts": header + documentModule("document", doc, 'import type { OpenApiDocument } from "../auth-forms.js";', "OpenApiDocument"),
};
for (const [form, scheme] of Object.entries(AUTH_SCHEMES)) {
  files[`${form}.ts`] = header + (await typesOf(authFormView(doc, scheme), "./openapi.js"));
}
files["spellings.ts"] = header + spellingsModule(doc);
await emit(new URL("../src/generated/", import.meta.url), files, "packages/spec/src/generated");

/** `BodySpellings`: per path and method with two body spellings, per form, the other spelling's fields with this form's names. */
function spellingsModule(doc: OpenApiDocument): string {
  const tree: Record<string, Record<string, unknown>> = {};
  for (const { path, method, otherToOwn } of bodySpellings(doc)) (tree[path] ??= {})[method] = otherToOwn;
  return `/** Where a body has two spellings: per auth form, each field of the other form's spelling, with this form's name for it. */\nexport interface BodySpellings ${typeLiteral(tree)}\n`;
}

/** A JSON value of objects and strings as a TypeScript type literal. */
function typeLiteral(value: unknown, indent = ""): string {
  if (typeof value === "string") return JSON.stringify(value);
  const members = Object.entries(value as object).map(
    ([key, item]) => `${indent}  ${JSON.stringify(key)}: ${typeLiteral(item, `${indent}  `)};`,
  );
  return `{\n${members.join("\n")}\n${indent}}`;
}
