// After `npm run build`: the packed packages, installed as a user installs them, type-check the
// READMEs' TypeScript snippets and the examples' sources under the settings new projects use:
// `tsc --init`'s own (made at check time, by the TypeScript version installed here), and strict
// with exactOptionalPropertyTypes and noUncheckedIndexedAccess for module node16, nodenext and
// esnext with bundler resolution. And a spelling of the other auth form is an error whose
// message names the field to use.
//
// A snippet is checked as a module of its own; the names it uses without declaring them come from
// scripts/strict-types/context.ts. A block opened as ```ts fragment is not checked (none is today).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { packedBuild } from "./pack-local.mjs";
import { writePackedProject } from "./packed-project.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsc = join(root, "node_modules/typescript/bin/tsc");
const READMES = ["README.md", "packages/client/README.md", "packages/server/README.md"];
const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  target: "es2022",
  types: ["node"],
  noEmit: true,
  skipLibCheck: true,
};
const CONFIGS = {
  "tsc --init": { extends: "./init/tsconfig.json", compilerOptions: { types: ["node"], noEmit: true } },
  "strict, node16": { compilerOptions: { ...STRICT, module: "node16", moduleResolution: "node16" } },
  "strict, nodenext": { compilerOptions: { ...STRICT, module: "nodenext", moduleResolution: "nodenext" } },
  "strict, bundler": { compilerOptions: { ...STRICT, module: "esnext", moduleResolution: "bundler" } },
};
// The query form's client given the Bearer form's spelling: tsc's message must name `phone`.
const WRONG_SPELLING = `import { createIntakeClient } from "@intake/client";
const intake = createIntakeClient({ auth: "query", apiKey: process.env.INTAKE_API_KEY, baseUrl: "https://api.example.com/v1" });
await intake.contacts.create({ phone_number: "+14155550123" });
`;
const EXPECTED = "phone_number is the bearer form's spelling: use phone";

const started = Date.now();
const project = mkdtempSync(join(tmpdir(), "intake-strict-types-"));
let failed = false;
try {
  writePackedProject(project, packedBuild(), { devDependencies: ["@types/node", "undici", "vitest"] });
  execFileSync("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: project, stdio: "pipe" });
  const files = [...writeSnippets(project), ...copyExamples(project)];
  mkdirSync(join(project, "init"));
  execFileSync(process.execPath, [tsc, "--init"], { cwd: join(project, "init"), stdio: "pipe" });
  writeFileSync(join(project, "wrong", "spelling.ts"), WRONG_SPELLING);
  for (const [name, config] of Object.entries(CONFIGS)) {
    const file = `tsconfig.${name.replace(/\W+/g, "-")}.json`;
    writeFileSync(join(project, file), JSON.stringify({ ...config, include: ["snippets", "examples", "wrong"] }, null, 2));
    // One run for all: wrong/spelling.ts must fail with the message, and nothing else may fail.
    const out = runTsc(project, file);
    const errors = out.text.split(/\n(?=\S)/).filter((e) => e.trim());
    const others = errors.filter((e) => !e.startsWith("wrong/"));
    const wrong = errors.filter((e) => e.startsWith("wrong/"));
    if (others.length) {
      failed = true;
      console.error(`${name}: the snippets and examples do not type-check:\n${others.join("\n")}`);
    } else {
      console.log(
        `${name}: ${files.length} files type-check (${files.filter((f) => f.startsWith("snippets/")).length} README snippets, the rest examples/*/src)`,
      );
    }
    if (wrong.length !== 1 || !wrong[0].includes(EXPECTED)) {
      failed = true;
      console.error(
        `${name}: phone_number on a query-form client should be one error saying "${EXPECTED}"; tsc said:\n${wrong.join("\n") || "nothing"}`,
      );
    }
  }
  if (!failed) console.log(`phone_number on a query-form client: tsc says "${EXPECTED}" under each`);
} catch (error) {
  failed = true;
  console.error(`strict types: the check could not run: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`);
} finally {
  rmSync(project, { recursive: true, force: true });
}
console.log(`check-strict-types took ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : 0);

function runTsc(cwd, config) {
  try {
    return {
      status: 0,
      text: execFileSync(process.execPath, [tsc, "-p", config, "--pretty", "false"], { cwd, encoding: "utf8", stdio: "pipe" }),
    };
  } catch (error) {
    return { status: error.status ?? 1, text: `${error.stdout ?? ""}${error.stderr ?? ""}` };
  }
}

/** Each ```ts block of the READMEs as snippets/<readme>-<n>.ts, importing from context.ts what it does not declare. */
function writeSnippets(folder) {
  const dir = join(folder, "snippets");
  mkdirSync(join(folder, "wrong"), { recursive: true });
  mkdirSync(dir, { recursive: true });
  const contextFile = join(root, "scripts/strict-types/context.ts");
  writeFileSync(join(dir, "context.ts"), readFileSync(contextFile, "utf8"));
  const context = exportedNames(readFileSync(contextFile, "utf8"));
  const written = [];
  for (const readme of READMES) {
    const blocks = [...readFileSync(join(root, readme), "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
    const prefix = readme === "README.md" ? "root" : readme.split("/")[1];
    blocks.forEach((code, index) => {
      const bound = boundNames(code);
      const used = context.filter(({ name }) => !bound.has(name) && new RegExp(`\\b${name}\\b`).test(code));
      const imports = used.length
        ? `import { ${used.map(({ name, type }) => (type ? `type ${name}` : name)).join(", ")} } from "./context.js";\n`
        : "";
      const file = `snippets/${prefix}-${index + 1}.ts`;
      // Line numbers in tsc's messages are the README block's, plus one for the import line.
      writeFileSync(join(folder, file), `${imports}// ${readme}, \`\`\`ts block ${index + 1}\n${code}export {};\n`);
      written.push(file);
    });
  }
  return written;
}

/** examples/<name>/src, as each example's sources are. */
function copyExamples(folder) {
  const written = [];
  for (const name of readdirSync(join(root, "examples"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)) {
    const src = join(root, "examples", name, "src");
    let files;
    try {
      files = readdirSync(src).filter((f) => f.endsWith(".ts"));
    } catch {
      continue;
    }
    cpSync(src, join(folder, "examples", name, "src"), { recursive: true });
    written.push(...files.map((f) => `examples/${name}/src/${basename(f)}`));
  }
  return written;
}

function exportedNames(code) {
  const source = ts.createSourceFile("context.ts", code, ts.ScriptTarget.Latest);
  const names = [];
  for (const node of source.statements) {
    const exported = ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
      for (const element of node.exportClause.elements)
        names.push({ name: element.name.text, type: node.isTypeOnly || element.isTypeOnly });
    } else if (exported && ts.isVariableStatement(node)) {
      for (const declaration of node.declarationList.declarations) names.push({ name: declaration.name.getText(source), type: false });
    } else if (exported && (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name) {
      names.push({ name: node.name.text, type: false });
    } else if (exported && (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node))) {
      names.push({ name: node.name.text, type: true });
    }
  }
  return names;
}

/** The names a snippet declares or imports at its top level. */
function boundNames(code) {
  const source = ts.createSourceFile("snippet.ts", code, ts.ScriptTarget.Latest);
  const names = new Set();
  const bind = (name) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const node of source.statements) {
    if (ts.isImportDeclaration(node) && node.importClause) {
      const { name, namedBindings } = node.importClause;
      if (name) names.add(name.text);
      if (namedBindings && ts.isNamespaceImport(namedBindings)) names.add(namedBindings.name.text);
      else if (namedBindings) for (const element of namedBindings.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(node)) {
      for (const declaration of node.declarationList.declarations) bind(declaration.name);
    } else if (
      (ts.isFunctionDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isInterfaceDeclaration(node) ||
        ts.isTypeAliasDeclaration(node)) &&
      node.name
    ) {
      names.add(node.name.text);
    }
  }
  return names;
}
