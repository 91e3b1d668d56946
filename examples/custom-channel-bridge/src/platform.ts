/**
 * Two `Platform`s: one over a chat platform's HTTP API (adapt the paths to yours), and one in
 * memory for the demo and the tests.
 */
import type { Platform } from "./bridge.js";

/** A platform whose API takes `POST {apiUrl}/messages` and serves `GET {apiUrl}/attachments/{id}`. */
export function httpPlatform(apiUrl: string, token: string): Platform {
  const base = apiUrl.replace(/\/$/, "");
  const authorization = `Bearer ${token}`;
  async function ok(response: Response, what: string) {
    if (!response.ok) throw new Error(`The platform answered ${response.status} to ${what}.`);
    return response;
  }
  return {
    async sendToUser(userId, text) {
      await ok(
        await fetch(`${base}/messages`, {
          method: "POST",
          headers: { authorization, "content-type": "application/json" },
          body: JSON.stringify({ to: userId, text }),
          signal: AbortSignal.timeout(8000),
        }),
        "sending a message",
      );
    },
    async download(attachmentId) {
      const response = await ok(
        await fetch(`${base}/attachments/${encodeURIComponent(attachmentId)}`, {
          headers: { authorization },
          signal: AbortSignal.timeout(15_000),
        }),
        `downloading attachment ${attachmentId}`,
      );
      const contentType = response.headers.get("content-type")?.split(";")[0]?.trim();
      if (!contentType) throw new Error(`Attachment ${attachmentId} came without a content type.`);
      return { bytes: new Uint8Array(await response.arrayBuffer()), contentType };
    },
  };
}

/** Keeps what it would send; serves the attachments it was given. */
export function memoryPlatform(attachments: Record<string, { bytes: Uint8Array; contentType: string }> = {}) {
  const sent: Array<{ userId: string; text: string }> = [];
  let refuseNext = 0;
  const platform: Platform & { sent: typeof sent; refuse(times: number): void } = {
    sent,
    /** The next `times` sends fail, as a platform that is down would. */
    refuse(times) {
      refuseNext = times;
    },
    async sendToUser(userId, text) {
      if (refuseNext > 0) {
        refuseNext--;
        throw new Error("The platform is unavailable.");
      }
      sent.push({ userId, text });
    },
    async download(attachmentId) {
      const found = attachments[attachmentId];
      if (!found) throw new Error(`No attachment ${attachmentId}.`);
      return found;
    },
  };
  return platform;
}

/** A 1×1 PNG, for demos and tests. */
export const TINY_PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64"),
);
