/** The dashboard's built files, from the Worker's static assets (wrangler.toml's [assets]), for the core to serve under each sandbox. */
import type { Intake } from "@intake/server";

type DashboardFiles = NonNullable<Parameters<Intake["serveDashboard"]>[0]>;

export function assetFiles(assets: Fetcher): DashboardFiles {
  return {
    async read(name) {
      // Any origin does: the binding serves by path. Names are checked by the core (no "..").
      const response = await assets.fetch(`https://assets.local/${name}`);
      return response.ok ? response.text() : undefined;
    },
  };
}
