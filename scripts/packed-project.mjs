// A new project depending on the packed tarballs, installable offline: its lockfile pins every
// dependency as this repository's package-lock.json does, so `npm ci --offline` takes them from
// the npm cache and needs no registry metadata. Used by check-packages.mjs and
// check-strict-types.mjs.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findInLockfile } from "./lockfile.mjs";
import { dirOf, PACKAGES } from "./pack-local.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Writes package.json and package-lock.json into `folder`, with the tarballs (in PACKAGES' order)
 * copied beside them. `devDependencies`: names of packages the repository has installed (at its
 * root) that the project needs too, at the repository's versions (`@types/node` for a type check).
 */
export function writePackedProject(folder, tarballs, { devDependencies = [] } = {}) {
  const locked = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")).packages;
  const dependencies = {};
  const entries = {};
  // A workspace's own node_modules goes under the package's folder in the installed tree.
  const installedAt = (key) => key.replace(/^packages\/([^/]+)\//, "node_modules/@intake/$1/");
  const add = (from, wanted) => {
    for (const dependency of Object.keys(wanted ?? {})) {
      const found = findInLockfile(locked, from, dependency);
      if (!found) throw new Error(`${dependency} (a dependency of ${from || "the project"}) is not in package-lock.json`);
      if (locked[found].link || entries[installedAt(found)]) continue;
      const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = locked[found];
      entries[installedAt(found)] = entry;
      add(found, { ...entry.dependencies, ...entry.optionalDependencies });
    }
  };
  for (const [index, name] of PACKAGES.entries()) {
    const file = basename(tarballs[index]);
    copyFileSync(tarballs[index], join(folder, file));
    // npm ci links the bins the lockfile lists.
    const { version, license, dependencies: wanted, peerDependencies, peerDependenciesMeta, bin } = locked[dirOf(name)];
    dependencies[name] = `file:${file}`;
    entries[`node_modules/${name}`] = {
      version,
      resolved: `file:${file}`,
      license,
      dependencies: wanted,
      ...(bin ? { bin } : {}),
      ...(peerDependencies ? { peerDependencies, peerDependenciesMeta } : {}),
    };
    add(dirOf(name), wanted);
  }
  // The project's own msw, the server's peer dependency, at the version this repository tests.
  dependencies.msw = `^${locked["node_modules/msw"].version}`;
  add("", { msw: dependencies.msw });
  const dev = Object.fromEntries(devDependencies.map((name) => [name, locked[`node_modules/${name}`]?.version ?? "*"]));
  add("", dev);
  const manifest = {
    name: "intake-packed-check",
    version: "0.0.0",
    private: true,
    type: "module",
    dependencies,
    ...(devDependencies.length ? { devDependencies: dev } : {}),
  };
  writeFileSync(join(folder, "package.json"), JSON.stringify(manifest, null, 2));
  const top = { name: manifest.name, version: manifest.version, dependencies, ...(devDependencies.length ? { devDependencies: dev } : {}) };
  const lockfile = {
    name: manifest.name,
    version: manifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: { "": top, ...entries },
  };
  writeFileSync(join(folder, "package-lock.json"), JSON.stringify(lockfile, null, 2));
}
