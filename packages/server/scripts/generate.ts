/**
 * Regenerates src/generated/ from admin-openapi.yaml (its types and the document as data) and,
 * with openapi.yaml, the server's validators compiled ahead (scripts/validators.ts). Run with the
 * @intake/source condition (package.json), so @intake/spec is its sources, as just generated.
 */
import { fileURLToPath } from "node:url";
import { document, type OpenApiDocument } from "@intake/spec";
import { banner, documentModule, emit, readYaml, typesOf } from "../../../scripts/codegen.js";
import { placeholdersFor, validatorModules } from "./validators.js";

const doc = await readYaml<OpenApiDocument>(fileURLToPath(new URL("../admin-openapi.yaml", import.meta.url)));
const header = banner("packages/server/scripts/generate.ts from admin-openapi.yaml");
const outDir = new URL("../src/generated/", import.meta.url);
const label = "packages/server/src/generated";
await emit(
  outDir,
  {
    "admin.ts": header + (await typesOf(doc)),
    "admin-document.ts":
      header + documentModule("adminDocument", doc, 'import type { OpenApiDocument } from "@intake/spec";', "OpenApiDocument"),
  },
  label,
);
await placeholdersFor(outDir, label);
await emit(
  outDir,
  await validatorModules(document, doc, banner("packages/server/scripts/generate.ts from openapi.yaml and admin-openapi.yaml")),
  label,
);
