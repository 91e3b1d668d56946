// The suite in workerd (Cloudflare Workers' runtime, through miniflare), bundled by esbuild as
// wrangler would. The test posts the target; the worker's outgoing fetches leave through
// miniflare's outbound service, which hands them to the reference server. A post to
// /connections probes failed connections instead, on workerd's own network.
import { probeConnections, runClientSuite, type ConnectionProbe, type SuiteTarget } from "./suite.js";

export default {
  async fetch(request: Request): Promise<Response> {
    if (new URL(request.url).pathname === "/connections")
      return Response.json(await probeConnections((await request.json()) as ConnectionProbe));
    const target = (await request.json()) as SuiteTarget;
    return Response.json(await runClientSuite(target));
  },
};
