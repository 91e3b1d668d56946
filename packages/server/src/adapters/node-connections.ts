/**
 * What the node adapter keeps of each connection: the answers open on it, in the order of their
 * requests, how it closes, and whose share of the connections it counts against. The server
 * closes a connection only once the answers to the requests it took on it are out, and takes no
 * request that comes after; the close lingers (see linger()). A stop closes every connection so.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * The responses each connection has open, in the order of their requests. Node writes a
 * connection's answers in that order; a dropped or refused request must wait for those before it.
 */
export const responsesOf = new WeakMap<Socket, Set<ServerResponse>>();

/** The last request node handed over on each connection: a parse error while it is incomplete is in its body. */
export const lastRequest = new WeakMap<Socket, IncomingMessage>();

/** Connections that take no further request: their last answer said `connection: close`, or they close. */
const closing = new WeakSet<Socket>();

/** Connections to close after the answer to the last request taken on them: one refused for its form, or all of them in a stop. */
const closeAfter = new WeakSet<Socket>();

/** Connections closing (see linger()). */
const lingering = new WeakSet<Socket>();

/** How long a closing connection waits for its client to close its side, and to send nothing more, before it is cut. */
const LINGER_MS = 2000;
const LINGER_IDLE_MS = 500;

/** Whether a request that node handed over on this connection is taken (handed to the core). */
export const takesRequests = (socket: Socket) => !closing.has(socket);

/** Keeps a request and its response as the connection's latest. */
export function track(req: IncomingMessage, res: ServerResponse) {
  const socket = req.socket;
  lastRequest.set(socket, req);
  let responses = responsesOf.get(socket);
  if (!responses) responsesOf.set(socket, (responses = new Set()));
  responses.add(res);
  res.once("close", () => responses.delete(res));
}

/** Until the answers to the requests before `own` on this connection (all of them, without it) are written, or the connection is gone. */
export async function answersBefore(socket: Socket, own?: ServerResponse): Promise<void> {
  const responses = responsesOf.get(socket);
  for (const res of [...(responses ?? [])]) {
    if (res === own) return;
    if (responses?.has(res)) await closeOf(res, socket);
  }
}

/**
 * Whether the answer `res` closes its connection (it then says `connection: close`, and node
 * closes the connection once it is written). A body not read whole leaves nothing to read the
 * next request from: its answer closes. A refused request (`refused`), or a stop, closes the
 * connection after the last request already taken on it: closing before would leave that one
 * unanswered.
 */
export function closesWith(socket: Socket, res: ServerResponse, cut: boolean, refused: boolean): boolean {
  if (refused) closeAfter.add(socket);
  let last: ServerResponse | undefined;
  for (const open of responsesOf.get(socket) ?? []) last = open;
  const closes = cut || (closeAfter.has(socket) && last === res);
  if (closes) closing.add(socket);
  return closes;
}

/**
 * Closes a connection: its side ends (after what is written), and what the client still sends is
 * read and dropped until it closes too, is silent for LINGER_IDLE_MS, or LINGER_MS pass. Closed at
 * once, with bytes unread or still coming, it would answer them with a reset, which can erase the
 * last answer at the client before it reads it. No request that comes meanwhile is taken.
 */
export function linger(socket: Socket) {
  closing.add(socket);
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  if (!socket.writableEnded) socket.end();
  socket.setTimeout(LINGER_IDLE_MS, () => socket.destroy());
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  socket.once("close", () => clearTimeout(cut));
}

/**
 * Node's http servers close a connection after an answer that says `connection: close` (or the
 * last answer once the client ended its side) with destroySoon(), which destroys it as soon as
 * the answer is written: it lingers instead.
 */
export function lingerOnClose(socket: Socket) {
  socket.destroySoon = () => linger(socket);
}

/**
 * A stop's part on one connection: every later answer closes it, once the answers to the
 * requests already taken are written (a request still arriving on a connection with answers
 * still open is taken, and answered, if it comes whole while the stop waits; on an idle one it is
 * not: the connection closes cleanly and nothing of that request happens); then it closes, and
 * this waits for it.
 */
export async function settle(socket: Socket): Promise<void> {
  closeAfter.add(socket);
  for (let open = responsesOf.get(socket); open?.size && !socket.destroyed;) await closeOf([...open].at(-1)!, socket);
  linger(socket);
  if (!socket.destroyed) await new Promise((resolve) => socket.once("close", resolve));
}

/** Until `res` closes (its answer written, or given up), or its connection does: a response queued behind others never closes on its own. */
function closeOf(res: ServerResponse, socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off("close", done);
      socket.off("close", done);
      resolve();
    };
    res.once("close", done);
    socket.once("close", done);
  });
}

/**
 * One client's share of the connections: a connection counts against its remote address while it
 * is open, and past `perClient` of them the client's next one is refused (false). A client is an
 * address: on loopback, 127.0.0.1 and 127.0.0.2 are two.
 */
export function clientShare(perClient: number): (socket: Socket) => boolean {
  const held = new Map<string, number>();
  return (socket) => {
    const client = socket.remoteAddress ?? "";
    const count = held.get(client) ?? 0;
    if (count >= perClient) return false;
    held.set(client, count + 1);
    socket.once("close", () => {
      const left = (held.get(client) ?? 1) - 1;
      if (left > 0) held.set(client, left);
      else held.delete(client);
    });
    return true;
  };
}
