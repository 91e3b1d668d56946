// Bundle size of @intake/client as an app would ship it: dist/index.js bundled with openapi-fetch,
// minified and gzipped. Fails above the budget. `--write` records the figures in the README, `--check`
// fails when the README's are not the ones measured;
// `--json` prints them as JSON (and leaves the verdict to the caller: the benchmark reports it).
import { build } from "esbuild";
import { readFile, writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";

const BUDGET = 12_000; // bytes, min+gzip, openapi-fetch included
const root = new URL("../", import.meta.url);

async function measure(entry, external = []) {
  const result = await build({
    entryPoints: [new URL(entry, root).pathname],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    write: false,
    external,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { min: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

const total = await measure("dist/index.js");
const own = await measure("dist/index.js", ["openapi-fetch"]);
const line = `${(total.gzip / 1000).toFixed(1)} kB min+gzip with openapi-fetch (${(own.gzip / 1000).toFixed(1)} kB of it the client's own code; ${(total.min / 1000).toFixed(1)} kB minified)`;
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ gzipBytes: total.gzip, ownGzipBytes: own.gzip, minBytes: total.min, budgetBytes: BUDGET, line }));
  process.exit(0);
}
console.log(`@intake/client: ${line}; budget ${(BUDGET / 1000).toFixed(1)} kB`);

// The README states the figures: `--write` records them, `--check` fails when they are not the ones measured.
const [write, check] = ["--write", "--check"].map((flag) => process.argv.includes(flag));
if (write || check) {
  const readme = new URL("README.md", root);
  const text = await readFile(readme, "utf8");
  const marked = /<!-- size -->[\s\S]*?<!-- \/size -->/;
  if (!marked.test(text)) throw new Error("README.md has no <!-- size --> ... <!-- /size --> section");
  const recorded = text.replace(marked, `<!-- size -->${line}, measured by \`npm run size\`.<!-- /size -->`);
  if (write) await writeFile(readme, recorded);
  else if (recorded !== text) {
    console.error("The size in README.md is not the one measured: run `npm run size -- --write` and commit README.md.");
    process.exit(1);
  }
}
if (total.gzip > BUDGET) {
  console.error(`Over budget by ${total.gzip - BUDGET} bytes.`);
  process.exit(1);
}
