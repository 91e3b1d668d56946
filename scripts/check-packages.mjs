// After `npm run build`: each published package passes publint, loads through both `import` and
// `require` from its dist (not the TypeScript sources), and exposes the same names both ways.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const packages = ["@intake/spec", "@intake/client", "@intake/server"];
let failed = false;

for (const name of packages) {
  const dir = `packages/${name.split("/")[1]}`;
  try {
    execFileSync(process.execPath, ["node_modules/publint/src/cli.js", dir, "--strict"], { stdio: "pipe" });
  } catch (error) {
    failed = true;
    console.error(`${name}: publint failed\n${error.stdout}${error.stderr}`);
    continue;
  }
  const esm = Object.keys(await import(name)).sort();
  const cjs = Object.keys(require(name)).filter((key) => key !== "__esModule").sort();
  if (esm.length === 0 || JSON.stringify(esm) !== JSON.stringify(cjs)) {
    failed = true;
    console.error(`${name}: ESM exports [${esm}] differ from CJS exports [${cjs}]`);
  } else {
    console.log(`${name}: publint ok; ${esm.length} exports via import and require`);
  }
}
process.exit(failed ? 1 : 0);
