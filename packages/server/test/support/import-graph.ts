/** What importing one of the package's entry points loads: its whole import graph, as esbuild bundles it. */
import { build } from "esbuild";

/**
 * The files the entry (a path under src/) loads, as `src/…` paths, and the packages, by name;
 * `external` packages are left out. Bundling for the browser fails on anything Node-only.
 */
export async function importGraph(
  entry: string,
  { platform, external = [] }: { platform: "node" | "browser"; external?: string[] },
): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [new URL(`../../${entry}`, import.meta.url).pathname],
    bundle: true,
    write: false,
    platform,
    format: "esm",
    metafile: true,
    external,
    logLevel: "silent",
  });
  const loaded = Object.keys(metafile.inputs).map(
    (path) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? path.replace(/^.*packages\/server\//, ""),
  );
  return [...new Set(loaded)].sort();
}
