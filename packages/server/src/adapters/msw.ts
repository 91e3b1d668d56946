/**
 * The msw adapter: the service's fetch as msw request handlers for an origin. Its plain-HTTP twin
 * is answered too, so a request over http:// gets the service's HTTPS_REQUIRED refusal rather than
 * passing through to the network.
 */
import { http, type HttpHandler } from "msw";

export function mswHandlers(fetch: (request: Request) => Promise<Response>, origin: string): HttpHandler[] {
  // A fault that drops the connection answers Response.error(): msw makes it a network error.
  const answer = ({ request }: { request: Request }) => fetch(request);
  const plain = origin.replace(/^https:/, "http:");
  return [http.all(`${origin}/*`, answer), ...(plain !== origin ? [http.all(`${plain}/*`, answer)] : [])];
}
