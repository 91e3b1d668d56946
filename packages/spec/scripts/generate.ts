/**
 * Regenerates src/generated/ from the root openapi.yaml: the types of the whole contract, the
 * types of each auth form's view, and the document as data.
 */
import { fileURLToPath } from "node:url";
import { banner, documentModule, emit, readYaml, typesOf } from "../../../scripts/codegen.js";
import { AUTH_SCHEMES, authFormView, type OpenApiDocument } from "../src/auth-forms.js";

const doc = await readYaml<OpenApiDocument>(fileURLToPath(new URL("../../../openapi.yaml", import.meta.url)));
const header = banner("packages/spec/scripts/generate.ts from openapi.yaml");
const files: Record<string, string> = {
  "openapi.ts": header + (await typesOf(doc)),
  "document.ts": header + documentModule("document", doc, 'import type { OpenApiDocument } from "../auth-forms.js";', "OpenApiDocument"),
};
for (const [form, scheme] of Object.entries(AUTH_SCHEMES)) {
  files[`${form}.ts`] = header + (await typesOf(authFormView(doc, scheme), "./openapi.js"));
}
await emit(new URL("../src/generated/", import.meta.url), files, "packages/spec/src/generated");
