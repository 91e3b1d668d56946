/**
 * msw, as the Worker's bundle sees it (wrangler.toml's alias). @mswjs/data, the server's record
 * store, imports msw only to make request handlers from its models, which Intake never does; msw's
 * core would need browser globals Workers lack (localStorage, BroadcastChannel). Nothing here is
 * called; if something ever is, it says why it is missing.
 */
const missing = () => {
  throw new Error("msw is not part of the Intake Worker: @mswjs/data's request handlers are not used here.");
};

export const http = new Proxy({}, { get: missing });
export const graphql = new Proxy({}, { get: missing });
export const HttpResponse = new Proxy({}, { get: missing });
