// What a packed package.json promises and its tarball must keep: every file its entry points
// name is in the tarball, and no export condition is one only this repository's tools set.
// Used by check-packages.mjs on the tarballs npm would publish.
import { execFileSync } from "node:child_process";
import { DEVELOPMENT_CONDITIONS } from "./publish-manifest.mjs";

/** The problems of one tarball's manifest, each a sentence; none when it is sound. */
export function packedManifestProblems(tarball) {
  const files = new Set(
    execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, "")),
  );
  const manifest = JSON.parse(execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" }));
  const problems = [];
  const conditions = [...conditionsOf(manifest.exports)].filter((condition) => DEVELOPMENT_CONDITIONS.has(condition));
  if (conditions.length)
    problems.push(`its exports name the development condition ${conditions.join(", ")}, which only this repository's tools set`);
  const named = [
    manifest.main,
    manifest.module,
    manifest.types,
    manifest.typings,
    ...(typeof manifest.bin === "string" ? [manifest.bin] : Object.values(manifest.bin ?? {})),
    ...leaves(manifest.exports),
    ...leaves(manifest.typesVersions),
  ].filter((path) => typeof path === "string" && !path.includes("*"));
  const missing = [...new Set(named.map((path) => path.replace(/^\.\//, "")))].filter((path) => !files.has(path));
  if (missing.length) problems.push(`its package.json names ${missing.join(", ")}, which the tarball does not hold`);
  return problems;
}

/** Every condition name in an exports map (keys that are not subpaths). */
function* conditionsOf(value) {
  if (!value || typeof value !== "object") return;
  for (const [key, inner] of Object.entries(value)) {
    if (!key.startsWith(".")) yield key;
    yield* conditionsOf(inner);
  }
}

/** The file paths a map of entry points names, whatever its conditions. */
function leaves(value) {
  if (typeof value === "string") return [value];
  if (!value || typeof value !== "object") return [];
  return Object.values(value).flatMap(leaves);
}
