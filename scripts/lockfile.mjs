// Reading package-lock.json's `packages` as node resolves modules. Used by packed-project.mjs and
// check-engines.mjs.

/**
 * The key where node finds `name` from the package at key `from` ("" for the root): its own
 * node_modules, then each one above. Undefined when the lockfile has it nowhere on that path.
 */
export function findInLockfile(packages, from, name) {
  for (let at = from; ; at = at.includes("/node_modules/") ? at.slice(0, at.lastIndexOf("/node_modules/")) : "") {
    const key = `${at ? `${at}/` : ""}node_modules/${name}`;
    if (packages[key]) return key;
    if (!at) return undefined;
  }
}
