// httpPlatform, the adapter integrators adapt to their chat platform, against a stand-in for the
// platform's API on 127.0.0.1.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpPlatform, TINY_PNG } from "../src/platform.js";

const TOKEN = "platform-token-1";
const received: Array<{ method: string; url: string; authorization: string | undefined; body: string }> = [];
let server: Server;
let apiUrl: string;

beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    received.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    if (req.url === "/api/messages") return void res.writeHead(body.includes("refuse me") ? 503 : 201).end();
    if (req.url === "/api/attachments/photo%201")
      return void res.writeHead(200, { "content-type": "image/png; charset=binary" }).end(TINY_PNG);
    if (req.url === "/api/attachments/untyped") return void res.writeHead(200).end(TINY_PNG);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("httpPlatform", () => {
  const platform = () => httpPlatform(apiUrl, TOKEN);

  it("sends a message with its token, and downloads an attachment with its content type", async () => {
    await platform().sendToUser("user-7", "Hello");
    expect(received.at(-1)).toEqual({
      method: "POST",
      url: "/api/messages",
      authorization: `Bearer ${TOKEN}`,
      body: '{"to":"user-7","text":"Hello"}',
    });
    const attachment = await platform().download("photo 1");
    expect(attachment.contentType).toBe("image/png");
    expect(Buffer.from(attachment.bytes)).toEqual(Buffer.from(TINY_PNG));
  });

  it("says what failed when the platform refuses, or serves an attachment without a content type", async () => {
    await expect(platform().sendToUser("user-7", "refuse me")).rejects.toThrow("The platform answered 503 to sending a message.");
    await expect(platform().download("gone")).rejects.toThrow("The platform answered 404 to downloading attachment gone.");
    await expect(platform().download("untyped")).rejects.toThrow("Attachment untyped came without a content type.");
  });
});
