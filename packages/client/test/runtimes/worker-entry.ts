// The suite in workerd (Cloudflare Workers' runtime, through miniflare), bundled by esbuild as
// wrangler would. The test posts the target; the worker's outgoing fetches leave through
// miniflare's outbound service, which hands them to the reference server.
import { runClientSuite, type SuiteTarget } from "./suite.js";

export default {
  async fetch(request: Request): Promise<Response> {
    const target = (await request.json()) as SuiteTarget;
    return Response.json(await runClientSuite(target));
  },
};
