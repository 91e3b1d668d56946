// Every Node version a published package's `engines` accepts is one each of its dependencies
// accepts too (their own `engines`, as the lockfile records them, through the whole production
// tree). A dependency that moves to a newer Node (as openai 7 and miniflare 4 did) would
// otherwise install with a warning and fail at run time for users on the oldest Node we name.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { findInLockfile } from "./lockfile.mjs";
import { dirOf, PACKAGES } from "./pack-local.mjs";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8")).packages;

/** The lockfile key of the package node would load for `name` from `from`, a workspace link followed. */
function resolve(from, name) {
  const key = findInLockfile(lock, from, name);
  return key && lock[key].link ? lock[key].resolved : key;
}

function checkEngines(dir) {
  const ours = lock[dir].engines?.node;
  if (!ours) return [`${dir}: package.json has no engines.node`];
  const problems = [];
  const seen = new Set();
  const visit = (key, path) => {
    if (seen.has(key)) return;
    seen.add(key);
    const entry = lock[key];
    const theirs = entry.engines?.node;
    if (key !== dir && theirs && !semver.subset(ours, theirs))
      problems.push(`${path.join(" > ")} needs Node ${theirs}; ${dir} says ${ours}`);
    // An optional peer is the user's choice to install (better-sqlite3 for a data file), with its own engines.
    const optional = new Set(
      Object.entries(entry.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional)
        .map(([name]) => name),
    );
    for (const name of Object.keys({ ...entry.dependencies, ...entry.peerDependencies }).filter((name) => !optional.has(name))) {
      const found = resolve(key, name);
      if (found) visit(found, [...path, `${name}@${lock[found].version}`]);
    }
  };
  visit(dir, [lock[dir].name]);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const dir of PACKAGES.map(dirOf)) {
    const problems = checkEngines(dir);
    if (problems.length) {
      failed = true;
      console.error(
        `${lock[dir].name}: its engines accept Node versions its dependencies do not:\n  ${problems.join("\n  ")}\nNarrow engines.node in ${dir}/package.json, or pick a dependency version that runs there.`,
      );
    } else {
      console.log(`${lock[dir].name}: every production dependency accepts engines.node ${lock[dir].engines.node}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
