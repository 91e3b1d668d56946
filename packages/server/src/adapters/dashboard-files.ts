/** The dashboard's built files on disk, read once each and kept. */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { DashboardFiles } from "../http/steps/serve-dashboard.js";

/**
 * Where they are: beside the bundled adapter (dist/dashboard, as packed: the server's build copies
 * them there), or, running from the TypeScript sources (tests), where @intake/dashboard builds them.
 */
const CANDIDATES = [new URL("./dashboard/", import.meta.url), new URL("../../../dashboard/dist/", import.meta.url)];

/** The files in `folder` (default: the built dashboard); undefined when it holds no index.html. */
export function dashboardFiles(folder?: string): DashboardFiles | undefined {
  const root = folder ?? CANDIDATES.map((url) => fileURLToPath(url)).find((path) => existsSync(`${path}index.html`));
  if (!root || !existsSync(`${root.replace(/\/?$/, "/")}index.html`)) return undefined;
  const base = root.replace(/\/?$/, "/");
  const cache = new Map<string, Promise<string | undefined>>();
  return {
    read(name) {
      let file = cache.get(name);
      if (!file) {
        // Names are checked by the core (no "..", no slashes past assets/).
        file = readFile(`${base}${name}`, "utf8").catch(() => {
          // Only files found are kept: names asked for in vain do not pile up.
          cache.delete(name);
          return undefined;
        });
        cache.set(name, file);
      }
      return file;
    },
  };
}
