/**
 * Regenerates src/generated/ from the root openapi.yaml: the types of the whole contract, the
 * types of each auth form's view, and the document as data. With --check it writes nothing and
 * fails when a committed file differs from what the spec produces (CI runs it that way).
 */
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";
import { parse } from "yaml";
import { AUTH_SCHEMES, authFormView, type OpenApiDocument } from "../src/auth-forms.js";

const specPath = fileURLToPath(new URL("../../../openapi.yaml", import.meta.url));
const outDir = new URL("../src/generated/", import.meta.url);
const banner = "// Generated from openapi.yaml by packages/spec/scripts/generate.ts. Do not edit: run `npm run generate`.\n";

async function typesOf(doc: OpenApiDocument, view: boolean): Promise<string> {
  const ast = await openapiTS(doc as unknown as OpenAPI3, {
    rootTypes: !view,
    rootTypesNoSchemaPrefix: !view,
    alphabetize: false,
    // A field with a default (customData.status) is optional for the caller; the server fills it in.
    defaultNonNullable: false,
  });
  if (!view) return banner + astToString(ast);
  // A view shares the whole contract's components instead of declaring its own copy.
  const own = ast.filter((node) => !(ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) || !SHARED.has(node.name.text));
  return banner + 'import type { components } from "./openapi.js";\n\n' + astToString(own);
}

const SHARED = new Set(["components", "$defs"]);

async function render(): Promise<Record<string, string>> {
  const doc = parse(await readFile(specPath, "utf8")) as OpenApiDocument;
  const files: Record<string, string> = {
    "openapi.ts": await typesOf(doc, false),
    "document.ts":
      banner +
      'import type { OpenApiDocument } from "../auth-forms.js";\n\n' +
      `export const document: OpenApiDocument = ${JSON.stringify(doc, null, 2)};\n`,
  };
  for (const [form, scheme] of Object.entries(AUTH_SCHEMES)) {
    files[`${form}.ts`] = await typesOf(authFormView(doc, scheme), true);
  }
  return files;
}

async function main() {
  const check = process.argv.includes("--check");
  const files = await render();
  const stale: string[] = [];
  await mkdir(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const target = new URL(name, outDir);
    const current = await readFile(target, "utf8").catch(() => null);
    if (current === text) continue;
    if (check) stale.push(name);
    else await writeFile(target, text);
  }
  if (stale.length) {
    console.error(
      `packages/spec/src/generated is out of date with openapi.yaml (${stale.join(", ")}).\n` +
        "Run `npm run generate` and commit the result.",
    );
    process.exit(1);
  }
  console.log(check ? "generated files match openapi.yaml" : `generated ${Object.keys(files).length} files`);
}

await main();
