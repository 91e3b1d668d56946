/**
 * Where the server is mounted on its origin: "" at the root (intake-server), `/s/<name>` for a
 * hosted sandbox. The server serves this page under it, so the page finds it in its own address.
 */
const at = location.pathname.indexOf("/__dashboard");
export const MOUNT = at > 0 ? location.pathname.slice(0, at) : "";
