// Preloaded into a CLI child (--import): at exit, names on stderr the packages it loaded through
// require, which is how the server's CommonJS dependencies (@mswjs/data, selfsigned) load.
import { createRequire } from "node:module";

const cache = createRequire(import.meta.url).cache;
process.on("exit", () => {
  const packages = new Set(
    Object.keys(cache)
      .map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1])
      .filter(Boolean),
  );
  process.stderr.write(`loaded packages: ${JSON.stringify([...packages].sort())}\n`);
});
