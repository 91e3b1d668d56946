/** The Worker's bindings (wrangler.toml) and its secret. */
import type { Sandbox } from "../sandbox/sandbox.js";
import type { SandboxRegistry } from "./registry.js";

export interface Env {
  SANDBOX: DurableObjectNamespace<Sandbox>;
  REGISTRY: DurableObjectNamespace<SandboxRegistry>;
  /** The dashboard's built files. */
  ASSETS: Fetcher;
  /** Who may create, list, reset and delete sandboxes: `wrangler secret put OPERATOR_TOKEN` (npm run deploy sets it). */
  OPERATOR_TOKEN?: string;
}
