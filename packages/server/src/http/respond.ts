export function json(status: number, body: unknown, headers: Headers): Response {
  headers.set("content-type", "application/json");
  headers.set("cache-control", "no-store");
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers });
}
