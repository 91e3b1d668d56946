/**
 * A webhook receiver on 127.0.0.1 (node:http) that refuses one delivery in `failEvery` with 503
 * and `Retry-After: 0`, so a load that makes the server send webhooks includes its retries. It
 * does not verify signatures: its CPU is the benchmark's, shared with the load generator.
 */
import { createServer } from "node:http";

export interface FlakyReceiver {
  url: string;
  /** Deliveries received and refused since the last `reset`. */
  counts(): { received: number; refused: number };
  reset(): void;
  stop(): Promise<void>;
}

export async function startFlakyReceiver(failEvery = 5): Promise<FlakyReceiver> {
  let received = 0;
  let refused = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      if (received % failEvery === 0) {
        refused++;
        res.writeHead(503, { "retry-after": "0" }).end();
        return;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    counts: () => ({ received, refused }),
    reset: () => {
      received = 0;
      refused = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
