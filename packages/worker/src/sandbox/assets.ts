/** The dashboard's built files, from the Worker's static assets (wrangler.toml's [assets]), for the core to serve under each sandbox. */
import type { DashboardFiles } from "@intake/server/hosting";

export function assetFiles(assets: Fetcher): DashboardFiles {
  return {
    async read(name) {
      // Any origin does: the binding serves by path. Names are checked by the core (no "..").
      const response = await assets.fetch(`https://assets.local/${name}`);
      return response.ok ? response.text() : undefined;
    },
  };
}
