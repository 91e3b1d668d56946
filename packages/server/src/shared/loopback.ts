/** Names and addresses of this machine: what plain HTTP is accepted from (the dashboard's link) and to (webhooks). */

/** localhost, 127.0.0.0/8 or ::1, as the URL parser writes a host name (it turns 127.1 and 0x7f.0.0.1 into 127.0.0.1). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The host name a Host header names (`127.0.0.1:8443` → `127.0.0.1`), as the URL parser writes it; undefined when it names none. */
export function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** 127.0.0.0/8 and ::1, as node gives a peer's address (an IPv4 peer of a dual-stack socket as ::ffff:127.x.y.z). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || /^(?:::ffff:)?127\./.test(address);
}
