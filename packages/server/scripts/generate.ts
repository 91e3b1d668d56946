/** Regenerates src/generated/ from admin-openapi.yaml: its types and the document as data. */
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "@intake/spec";
import { banner, documentModule, emit, readYaml, typesOf } from "../../../scripts/codegen.js";

const doc = await readYaml<OpenApiDocument>(fileURLToPath(new URL("../admin-openapi.yaml", import.meta.url)));
const header = banner("packages/server/scripts/generate.ts from admin-openapi.yaml");
await emit(
  new URL("../src/generated/", import.meta.url),
  {
    "admin.ts": header + (await typesOf(doc)),
    "admin-document.ts": header + documentModule("adminDocument", doc, 'import type { OpenApiDocument } from "@intake/spec";', "OpenApiDocument"),
  },
  "packages/server/src/generated",
);
