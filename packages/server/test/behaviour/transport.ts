import { describe, expect } from "vitest";
import { json, limitsOf, mebibytes, mountOf, raw } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

export const transport: Register = (target, options) => {
  const { it, direct } = cases(options);
  const stored = async () => {
    const { records } = (await target().harness.admin("GET", "/snapshot")).body;
    return JSON.stringify(records);
  };

  describe("transport and malformed requests", () => {
    direct("plain HTTP is 400 HTTPS_REQUIRED, in the route's shape", async ({ skip }) => {
      skip(target().name === "worker", "Cloudflare's edge ends TLS before the Worker: the Worker's tests send it http:// requests instead");
      const general = await json(await raw(target(), `/contacts?apiKey=${KEYS.acme}&email=a%40example.com`, { scheme: "http" }));
      expect(general.status).toBe(400);
      expect(general.body.error).toMatchObject({ code: "HTTPS_REQUIRED", message: expect.stringContaining("The API accepts HTTPS only") });
      const receive = await json(
        await raw(target(), `/incoming_custom_channel_message?apiKey=${KEYS.acme}`, {
          scheme: "http",
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } }),
        }),
      );
      expect(receive).toMatchObject({ status: 400, body: { error: expect.stringContaining("The API accepts HTTPS only") } });
      expect((await target().harness.admin("GET", "/messages")).body).toHaveLength(0);
    });

    direct("malformed JSON is 400 INVALID_JSON", async () => {
      const response = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: '{"phone": "+1415',
        }),
      );
      expect(response.body.error).toMatchObject({
        code: "INVALID_JSON",
        message: expect.stringContaining("The request body is not valid JSON"),
      });
      const empty = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, { method: "POST", headers: { "content-type": "application/json" }, body: "" }),
      );
      expect(empty.body.error).toEqual({ code: "INVALID_JSON", message: "The request body is empty; send a JSON object." });
      const receive = await json(
        await raw(target(), `/incoming_custom_channel_message?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{",
        }),
      );
      expect(receive).toMatchObject({ status: 400, body: { error: expect.stringContaining("not valid JSON") } });
    });

    direct("a body that is not UTF-8 text is 400 INVALID_JSON, and nothing is stored", async () => {
      const latin1 = new Uint8Array([
        ...new TextEncoder().encode('{"phone":"+14155550123","firstName":"Ren'),
        0xe9,
        ...new TextEncoder().encode('e"}'),
      ]);
      const response = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: latin1,
        }),
      );
      expect(response).toMatchObject({
        status: 400,
        body: { error: { code: "INVALID_JSON", message: "The request body is not valid UTF-8 text." } },
      });
      expect((await json(await raw(target(), `/contacts?apiKey=${KEYS.acme}&phoneNumber=%2B14155550123`))).status).toBe(404);
    });

    direct("JSON nested deeper than any body of the contract is 400 INVALID_JSON", async () => {
      const deep = `{"phone":"+14155550123","customFields":{"a":${"[".repeat(5000)}${"]".repeat(5000)}}}`;
      const response = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: deep,
        }),
      );
      expect(response.body.error).toEqual({
        code: "INVALID_JSON",
        message: "The request body nests objects or arrays more than 32 levels deep; no operation takes that.",
      });
      const receive = await json(
        await raw(target(), `/incoming_custom_channel_message?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: deep,
        }),
      );
      expect(receive.status).toBe(400);
      expect(typeof receive.body.error).toBe("string");
    });

    direct(
      "32 levels of nesting are read as JSON (then validated); 33 are refused as too deep, in a small body and in a large one",
      async () => {
        // A small body and a large one (over 64 Ki characters) are held to the same line.
        for (const padding of ["", "x".repeat(70_000)]) {
          const nested = (levels: number) =>
            `{"phone":"+14155550123","firstName":"${padding}","customFields":{"a":${"[".repeat(levels - 2)}${"]".repeat(levels - 2)}}}`;
          const send = (body: string) =>
            raw(target(), `/contacts?apiKey=${KEYS.acme}`, { method: "POST", headers: { "content-type": "application/json" }, body });
          const at32 = await json(await send(nested(32)));
          expect(at32.status).toBe(400);
          expect(at32.body.error.code).toBe("VALIDATION_ERROR");
          const at33 = await json(await send(nested(33)));
          expect(at33.body.error).toEqual({
            code: "INVALID_JSON",
            message: "The request body nests objects or arrays more than 32 levels deep; no operation takes that.",
          });
        }
      },
    );

    direct("a body that is not a JSON object is 400", async () => {
      const response = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "[1,2]",
        }),
      );
      expect(response.body.error).toEqual({ code: "VALIDATION_ERROR", message: "The request body must be a JSON object." });
    });

    direct("a content type other than JSON is 400 UNSUPPORTED_CONTENT_TYPE", async () => {
      const form = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "phone=%2B14155550123",
        }),
      );
      expect(form.body.error).toEqual({
        code: "UNSUPPORTED_CONTENT_TYPE",
        message: "Send the body as JSON with Content-Type: application/json (got application/x-www-form-urlencoded).",
      });
      const charset = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8" },
          body: '{"phone":"+14155550123"}',
        }),
      );
      expect(charset.status).toBe(201);
    });

    direct("a body over the limit (32 MiB on the server) is 400 PAYLOAD_TOO_LARGE", async () => {
      const { maxBodyBytes } = limitsOf(target());
      const body = JSON.stringify({ phone: "+14155550123", firstName: "x".repeat(maxBodyBytes + 1024 * 1024) });
      const response = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, { method: "POST", headers: { "content-type": "application/json" }, body }),
      );
      expect(response.body.error).toEqual({
        code: "PAYLOAD_TOO_LARGE",
        message: `The request body is larger than ${mebibytes(maxBodyBytes)}.`,
      });
    });

    direct("an unknown route is 404 NOT_FOUND; a known one with another method is 405 with Allow", async () => {
      const unknown = await json(await raw(target(), `/campaigns?apiKey=${KEYS.acme}`));
      const mount = mountOf(target());
      expect(unknown.body.error).toEqual({
        code: "NOT_FOUND",
        message: `No operation at GET ${mount}/v1/campaigns. Paths start with ${mount}/v1/, for example ${mount}/v1/contacts.`,
      });
      const noVersion = await json(await target().harness.fetch(`${target().harness.origin}/contacts?apiKey=${KEYS.acme}`));
      expect(noVersion.status).toBe(404);
      const wrong = await json(await raw(target(), `/contacts?apiKey=${KEYS.acme}`, { method: "DELETE" }));
      expect(wrong).toMatchObject({
        status: 405,
        body: { error: { code: "METHOD_NOT_ALLOWED", message: "Method DELETE is not allowed on /contacts; use GET or POST." } },
      });
      expect(wrong.headers.get("allow")).toBe("GET, POST");
      // Only the contract's methods: HEAD and OPTIONS too are 405 with Allow.
      for (const method of ["HEAD", "OPTIONS"]) {
        const other = await raw(target(), `/contacts?apiKey=${KEYS.acme}`, { method });
        expect([other.status, other.headers.get("allow")], method).toEqual([405, "GET, POST"]);
      }
    });

    direct("only /v1 is served: another version's path is 404 NOT_FOUND, and answers carry no deprecation headers", async () => {
      const v2 = await json(
        await target().harness.fetch(`${target().harness.origin}/v2/contacts?apiKey=${KEYS.acme}&email=a%40example.com`),
      );
      const mount = mountOf(target());
      expect(v2).toMatchObject({
        status: 404,
        body: {
          error: {
            code: "NOT_FOUND",
            message: `No operation at GET ${mount}/v2/contacts. Paths start with ${mount}/v1/, for example ${mount}/v1/contacts.`,
          },
        },
      });
      const v1 = await raw(target(), `/contacts?apiKey=${KEYS.acme}&email=a%40example.com`);
      expect([...v1.headers.keys()].filter((name) => /deprecation|sunset|api-version/i.test(name))).toEqual([]);
    });

    direct("no bad request changes stored data", async () => {
      const before = await stored();
      const key = `?apiKey=${KEYS.acme}`;
      const bad: Array<[string, RequestInit]> = [
        [
          `/contacts${key}`,
          { method: "POST", headers: { "content-type": "application/json" }, body: '{"phone":"4155550123","firstName":"Ada"}' },
        ],
        [`/contacts${key}`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"phone_number":"+14155550123"}' }],
        [
          `/lists/lst_acme/contacts${key}`,
          { method: "POST", headers: { "content-type": "application/json" }, body: '{"contactId":"ct_nope"}' },
        ],
        [
          `/send_custom_channel_message${key}`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"customData":{"fromId":"u","customChannel":"c","body":" "}}',
          },
        ],
        [
          `/send_custom_channel_message${key}`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"customData":{"fromId":"u","customChannel":"c","body":"x","campaignId":"cmp_nope"}}',
          },
        ],
        [
          `/incoming_custom_channel_message${key}`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: '{"customData":{"messageSid":"S","fromId":"u","toId":"t","body":"x","mediaUrl":"data:image/png;base64,AAAA","mediaContentType":"image/png"}}',
          },
        ],
        [`/incoming_custom_channel_message${key}`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" }],
        [
          "/subaccounts/credits",
          {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": KEYS.agency },
            body: '{"email":"one@northwind.example","amount":-1}',
          },
        ],
        [
          "/subaccounts/credits",
          {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": KEYS.acme },
            body: '{"email":"one@northwind.example","amount":1}',
          },
        ],
      ];
      for (const [path, init] of bad) {
        const response = await raw(target(), path, init);
        expect(response.status, path).toBeGreaterThanOrEqual(400);
        await response.arrayBuffer();
      }
      expect(await stored()).toBe(before);
    });

    it("a new contact and a new list member answer 201; a lookup, a known contact, a send, a receive and a grant 200", async () => {
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        raw(target(), path, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        }).then(json);
      const key = `?apiKey=${KEYS.acme}`;
      const created = await post(`/contacts${key}`, { phone: "+14155550123" });
      const statuses = [
        created.status,
        (await post(`/lists/lst_acme/contacts${key}`, { contactId: created.body.id })).status,
        (await json(await raw(target(), `/contacts${key}&phoneNumber=%2B14155550123`))).status,
        (await post(`/contacts${key}`, { phone: "+14155550123" })).status,
        (await post(`/send_custom_channel_message${key}`, { customData: { fromId: "u", customChannel: "c", body: "x" } })).status,
        (await post(`/incoming_custom_channel_message${key}`, { customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } }))
          .status,
        (await post("/subaccounts/credits", { email: "one@northwind.example", amount: 1 }, { "x-api-key": KEYS.agency })).status,
      ];
      expect(statuses).toEqual([201, 201, 200, 200, 200, 200, 200]);
    });

    it("every response carries a request id, and authenticated ones the rate-limit headers", async () => {
      const url = `${target().baseUrl}/contacts?apiKey=${KEYS.acme}&email=a%40example.com`;
      const response = await target().clientFetch(new Request(url));
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
      // Each its own: a prefix drawn at start (or a counter when deterministic), then a counter.
      const next = await target().clientFetch(new Request(url));
      expect(next.headers.get("x-request-id")).toMatch(/^req_/);
      expect(next.headers.get("x-request-id")).not.toBe(response.headers.get("x-request-id"));
      // The part drawn at start is shared; the counter after it moves.
      expect(next.headers.get("x-request-id")!.slice(0, 10)).toBe(response.headers.get("x-request-id")!.slice(0, 10));
      expect(response.headers.get("ratelimit-limit")).toBe("120");
      expect(Number(response.headers.get("ratelimit-remaining"))).toBeLessThan(120);
      expect(response.headers.get("content-type")).toBe("application/json");
    });

    direct("a JSON answer states its length rather than coming in chunks (node adapter)", async ({ skip }) => {
      skip(target().name !== "https", "framing is the node adapter's: msw hands the Response over without a wire");
      for (const path of [`/contacts?apiKey=${KEYS.acme}&email=nobody%40example.com`, `/contacts?apiKey=${KEYS.acme}&email=x`]) {
        const response = await raw(target(), path);
        const text = await response.text();
        expect(response.headers.get("transfer-encoding")).toBeNull();
        expect(Number(response.headers.get("content-length"))).toBe(new TextEncoder().encode(text).byteLength);
        expect(text.length).toBeGreaterThan(0);
      }
    });
  });
};
