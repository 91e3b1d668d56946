// The root's vitest projects with msw 3 as the peer, for scripts/test-node-lines.mjs on the lines
// msw 3 runs on (Node 22.12+): `msw` and its subpaths resolve to the msw in MSW_DIR (installed by
// that script into .cache/msw3/), the workspace's msw 2 left as it is.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import root from "../vitest.config.js";

const dir = process.env.MSW_DIR;
if (!dir) throw new Error("MSW_DIR: the folder of the msw to test with (its package.json's folder)");
const exports = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).exports as Record<string, string | { default?: string }>;
const alias = Object.entries(exports)
  .filter(([subpath, target]) => !subpath.includes("*") && typeof target === "object" && target.default)
  .map(([subpath, target]) => ({
    find: new RegExp(`^msw${subpath.slice(1).replaceAll("/", "\\/")}$`),
    replacement: join(dir, (target as { default: string }).default),
  }));

type Project = { resolve?: object };
const projects = (root.test?.projects ?? []) as Project[];
export default defineConfig({
  test: { projects: projects.map((project) => ({ ...project, resolve: { ...project.resolve, alias } })) as never },
});
