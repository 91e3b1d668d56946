// A real refused connection, without msw in the way.
import { ConnectionError, type LogEntry } from "@intake/client";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { API_KEY } from "./support/fixtures.js";
import { createIntakeClient } from "@intake/client";

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe("a refused connection", () => {
  it("is retried (nothing was sent), then thrown as ConnectionError with its code", async () => {
    const entries: LogEntry[] = [];
    const intake = createIntakeClient({
      auth: "query",
      apiKey: API_KEY,
      baseUrl: `https://127.0.0.1:${await closedPort()}/v1`,
      retry: { initialDelayMs: 1, maxDelayMs: 2 },
      logger: (entry) => entries.push(entry),
    });
    const error = await intake.messages.send({ customData: { fromId: "u", customChannel: "c", body: "b" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe("ECONNREFUSED");
    expect((error as Error).message).toMatch(
      /^POST https:\/\/127\.0\.0\.1:\d+\/v1\/send_custom_channel_message\?apiKey=\[REDACTED\] failed: fetch failed/,
    );
    expect(entries.filter((e) => e.event === "request")).toHaveLength(3);
  });
});
