/** A real HTTP webhook receiver on 127.0.0.1 that records what it gets and answers as told. */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";

export interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number };

export interface Receiver {
  url: string;
  received: Received[];
  /** How many requests were in flight at most at one time. */
  maxConcurrent: number;
  answer(fn: (request: Received, index: number) => Answer): void;
  /** Throws unless the request carries a valid Standard Webhooks signature for this secret. */
  verify(request: Received, secret: string): unknown;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let respond: (request: Received, index: number) => Answer = () => ({ status: 200 });
  let inFlight = 0;
  const state = { maxConcurrent: 0 };
  const received: Received[] = [];
  const server = createServer((req, res) => {
    inFlight++;
    state.maxConcurrent = Math.max(state.maxConcurrent, inFlight);
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request: Received = {
        method: req.method ?? "",
        headers: req.headers,
        body,
        json: body ? JSON.parse(body) : undefined,
        at: Date.now(),
      };
      received.push(request);
      const answer = respond(request, received.length - 1);
      setTimeout(() => {
        inFlight--;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body ?? "");
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks/intake`,
    received,
    get maxConcurrent() {
      return state.maxConcurrent;
    },
    answer(fn) {
      respond = fn;
    },
    verify(request, secret) {
      return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
