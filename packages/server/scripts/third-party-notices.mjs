// The end of the server's build, with copy-dashboard.mjs: the licences of the packages bundled
// into dist (the store library and what it loads, tsup.config.ts), in dist/THIRD-PARTY-NOTICES.md,
// as their licences ask of a copy. Which packages they are is read from the bundle itself: esbuild
// marks each bundled file with its path.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const dist = join(root, "dist");

/** Each bundled package's folder (paths in the marks are relative to this package's folder), by name. */
const bundled = new Map();
for (const file of readdirSync(dist).filter((name) => name.endsWith(".js"))) {
  for (const [, folder, name] of readFileSync(join(dist, file), "utf8").matchAll(/^\/\/ ((?:\.\.\/)*node_modules\/((?:@[^/]+\/)?[^/]+))\//gm)) bundled.set(name, join(root, folder));
}

const sections = [...bundled].sort(([a], [b]) => a.localeCompare(b)).map(([name, folder]) => {
  const { version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  const file = readdirSync(folder).find((entry) => /^licen[cs]e/i.test(entry));
  const text = file ? readFileSync(join(folder, file), "utf8").trim() : `${license} (the package ships no licence file; its package.json names the licence)`;
  return `## ${name} ${version} (${license})\n\n\`\`\`\n${text}\n\`\`\`\n`;
});

if (sections.length === 0 && existsSync(join(dist, "index.js"))) {
  console.error("@intake/server: no bundled package found in dist; tsup.config.ts bundles the store library, so the build is not the one expected.");
  process.exit(1);
}
writeFileSync(
  join(dist, "THIRD-PARTY-NOTICES.md"),
  `# Third-party notices\n\n@intake/server's build includes the following packages (the store library, @mswjs/data, and what it loads), under their licences.\n\n${sections.join("\n")}`,
);
