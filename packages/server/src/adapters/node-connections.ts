/**
 * What the node adapter keeps per connection: the answers each has open, in the order of its
 * requests (node writes a connection's answers in that order, and a dropped or refused request
 * must wait for those before it), and what it learned of a connection node could not parse.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { once } from "node:events";
import type { Socket } from "node:net";
import type { HttpError } from "../shared/errors.js";

/**
 * The responses each connection has open, in the order of their requests. Node writes a
 * connection's answers in that order; a dropped or refused request must wait for those before it.
 */
export const responsesOf = new WeakMap<Socket, Set<ServerResponse>>();

/** The last request node handed over on each connection: a parse error while it is incomplete is in its body. */
export const lastRequest = new WeakMap<Socket, IncomingMessage>();

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
    if (responses?.has(res)) await once(res, "close");
  }
}

/** Until the answers already made on this connection are written: those still being handled are not waited for. */
export async function answersWritten(socket: Socket): Promise<void> {
  for (const res of [...(responsesOf.get(socket) ?? [])]) {
    if (res.writableEnded && !res.writableFinished) await once(res, "close");
  }
}

/** Connections already being refused. */
export const refused = new WeakSet<Socket>();

/** Connections whose request body node could not parse: the request is answered, then the connection closed. */
export const broken = new WeakSet<Socket>();

/** How to fail the body read under way on a connection, if one is: node's parse errors and timeouts arrive on the connection, not the request. */
export const bodyReaders = new WeakMap<Socket, (error: HttpError) => void>();

/** The request line a connection's first bytes open with. */
export const firstLines = new WeakMap<Socket, RequestLine>();

export interface RequestLine {
  method: string;
  path: string;
}
