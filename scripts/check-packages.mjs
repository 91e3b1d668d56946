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
// Subpath entries load from dist too, each with what it is for.
const subpaths = {
  "@intake/client/webhooks": ["verifyWebhook", "WebhookVerificationError"],
  "@intake/server/node": ["serve", "DEMO_SEED"],
  "@intake/server/msw": ["createIntakeHandlers"],
  "@intake/server/testing": ["startIntakeServer", "connectIntake"],
  "@intake/server/connect": ["connectIntake", "trustingFetch", "createAdminClient"],
};
for (const [name, expected] of Object.entries(subpaths)) {
  const loaded = await import(name);
  const missing = expected.filter((key) => !(key in loaded));
  if (missing.length) {
    failed = true;
    console.error(`${name}: missing ${missing.join(", ")}`);
  } else {
    console.log(`${name}: loads from dist with ${expected.join(", ")}`);
  }
}
process.exit(failed ? 1 : 0);
