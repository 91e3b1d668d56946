/**
 * A fetch that trusts a server's certificate, for the tests: undici's own fetch with an Agent. Node's
 * fetch takes no dispatcher from another undici major than its own (Node 26's is not the 6 installed
 * here), and node:https can lose an answer sent while the request is still being written (a body
 * over the limit), which undici reads as it writes. A Request (the client passes one) is unpacked,
 * as undici's fetch knows only its own Request class.
 */
import { Agent, fetch as undiciFetch } from "undici";

export type CertFetch = ((input: Request | string | URL, init?: RequestInit) => Promise<Response>) & { close(): Promise<void> };

export function certFetch(certificate: string): CertFetch {
  const dispatcher = new Agent({ connect: { ca: certificate } });
  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    if (!(input instanceof Request))
      return (await undiciFetch(input, { ...init, dispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
    const unpacked = {
      method: input.method,
      headers: [...input.headers],
      body: input.body ? await input.arrayBuffer() : undefined,
      signal: input.signal,
      redirect: input.redirect,
    };
    return (await undiciFetch(input.url, { ...unpacked, ...init, dispatcher } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
  };
  return Object.assign(fetch, { close: () => dispatcher.close() });
}
