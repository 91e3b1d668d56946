import { describe, expect } from "vitest";
import { client, json, raw } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

export const auth: Register = (target, options) => {
  const { it, direct } = cases(options);
  const contactBody = { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ phone: "+14155550123" }) };

  describe("authentication", () => {
    direct("no key is 401 MISSING_API_KEY naming the forms the operation takes", async () => {
      const response = await json(await raw(target(), "/contacts", contactBody));
      expect(response).toMatchObject({
        status: 401,
        body: {
          error: {
            code: "MISSING_API_KEY",
            message:
              "Missing API key: POST /contacts takes it as the query parameter ?apiKey=<API_KEY> or the header Authorization: Bearer <API_KEY>.",
          },
        },
      });
      const receive = await json(await raw(target(), "/incoming_custom_channel_message", contactBody));
      expect(receive.body).toEqual({
        error: "Missing API key: POST /incoming_custom_channel_message takes it as the query parameter ?apiKey=<API_KEY>.",
      });
    });

    direct("every operation without a key is 401 MISSING_API_KEY in its shape, and changes nothing", async () => {
      const { records } = (await target().harness.admin("GET", "/snapshot")).body;
      const post = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const operations: Array<[string, RequestInit]> = [
        ["/contacts", post({ phone: "+14155550123" })],
        ["/contacts?email=a%40example.com", {}],
        ["/lists/lst_acme/contacts", post({ contactId: "ct_1" })],
        ["/send_custom_channel_message", post({ customData: { fromId: "u", customChannel: "c", body: "x" } })],
        ["/subaccounts/credits", post({ email: "one@northwind.example", amount: 1 })],
      ];
      for (const [path, init] of operations) {
        const response = await json(await raw(target(), path, init));
        expect([response.status, response.body.error.code], path).toEqual([401, "MISSING_API_KEY"]);
      }
      const receive = await json(
        await raw(
          target(),
          "/incoming_custom_channel_message",
          post({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } }),
        ),
      );
      expect(receive).toMatchObject({ status: 401, body: { error: expect.stringMatching(/^Missing API key/) } });
      expect((await target().harness.admin("GET", "/snapshot")).body.records).toEqual(records);
    });

    it("an unknown key is 401 INVALID_API_KEY, in each operation's shape", async () => {
      await expect(client(target(), "query", "ik_unknown_key_0000000").contacts.create({ phone: "+14155550123" })).rejects.toMatchObject({
        status: 401,
        code: "INVALID_API_KEY",
        // The interface's place for a key, and this server's way to make one.
        message: expect.stringMatching(
          /Settings > Account > API Key \(on the reference server: POST \/__admin\/accounts\/\{id\}\/api-key, or \/__dashboard\/settings\)/,
        ),
      });
      const receive = await client(target(), "query", "ik_unknown_key_0000000")
        .messages.receive({ customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } })
        .catch((e: { status: number; code: unknown; message: string }) => e);
      expect(receive).toMatchObject({ status: 401, code: undefined, message: expect.stringContaining("Invalid API key") });
    });

    it("a new key invalidates the old one at once", async () => {
      await client(target(), "query", KEYS.acme).contacts.create({ phone: "+14155550123" });
      const rotated = await target().harness.admin("POST", "/accounts/acc_acme/api-key");
      expect(rotated.status).toBe(200);
      const next = rotated.body.apiKey as string;
      expect(next).not.toBe(KEYS.acme);
      await expect(client(target(), "query", KEYS.acme).contacts.find({ phoneNumber: "+14155550123" })).rejects.toMatchObject({
        status: 401,
        code: "INVALID_API_KEY",
      });
      await expect(client(target(), "bearer", next).contacts.find({ phoneNumber: "+14155550123" })).resolves.toMatchObject({
        phone: "+14155550123",
      });
    });

    direct("a key in a form the operation does not take is 401 WRONG_AUTH_FORM", async () => {
      const header = await json(
        await raw(target(), "/contacts", { ...contactBody, headers: { ...contactBody.headers, "x-api-key": KEYS.acme } }),
      );
      expect(header.body.error).toEqual({
        code: "WRONG_AUTH_FORM",
        message:
          "POST /contacts takes the API key as the query parameter ?apiKey=<API_KEY> or the header Authorization: Bearer <API_KEY>, not as the header x-api-key: <API_KEY>.",
      });
      const bearerOnSend = await json(
        await raw(target(), "/send_custom_channel_message", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${KEYS.acme}` },
          body: JSON.stringify({ customData: { fromId: "u", customChannel: "c", body: "x" } }),
        }),
      );
      expect(bearerOnSend.body.error.code).toBe("WRONG_AUTH_FORM");
    });

    direct("apiKey given twice in the query is 401", async () => {
      const twice = await json(await raw(target(), `/contacts?apiKey=${KEYS.acme}&apiKey=${KEYS.globex}&email=a%40example.com`));
      expect(twice.body.error).toEqual({ code: "INVALID_API_KEY", message: "apiKey is given more than once in the query; send it once." });
    });

    direct("a key header sent twice (x-api-key, Authorization) is 401, not read as its first copy", async () => {
      const grant = JSON.stringify({ email: "nobody@example.com", amount: 1 });
      const headers = new Headers([
        ["content-type", "application/json"],
        ["x-api-key", KEYS.agency],
        ["x-api-key", KEYS.otherAgency],
      ]);
      const twice = await json(await raw(target(), "/subaccounts/credits", { method: "POST", headers, body: grant }));
      expect(twice.status).toBe(401);
      expect(twice.body.error.code).toBe("INVALID_API_KEY");
      const bearer = new Headers([
        ["authorization", `Bearer ${KEYS.acme}`],
        ["authorization", `Bearer ${KEYS.globex}`],
      ]);
      const twiceBearer = await json(await raw(target(), "/contacts?email=a%40example.com", { headers: bearer }));
      expect(twiceBearer.status).toBe(401);
      expect(twiceBearer.body.error.code).toBe("INVALID_API_KEY");
    });

    direct("a key in two places is 401", async () => {
      const both = await json(
        await raw(target(), `/contacts?apiKey=${KEYS.acme}`, {
          ...contactBody,
          headers: { ...contactBody.headers, authorization: `Bearer ${KEYS.acme}` },
        }),
      );
      expect(both.body.error).toMatchObject({ code: "WRONG_AUTH_FORM", message: expect.stringContaining("in one place only") });
    });

    direct("an Authorization header that is not Bearer is 401 saying so", async () => {
      const basic = await json(
        await raw(target(), "/contacts", { ...contactBody, headers: { ...contactBody.headers, authorization: `Basic ${KEYS.acme}` } }),
      );
      expect(basic.body.error).toEqual({ code: "INVALID_API_KEY", message: "The Authorization header must be 'Bearer <API_KEY>'." });
    });
  });

  describe("tenancy: each key sees only its account's data", () => {
    it("contacts, lists and message ids are per account", async () => {
      const acme = client(target(), "query", KEYS.acme);
      const globex = client(target(), "query", KEYS.globex);
      const ada = await acme.contacts.create({ phone: "+14155550123", email: "ada@example.com" });
      await expect(globex.contacts.find({ phoneNumber: "+14155550123" })).resolves.toBeNull();
      await expect(globex.contacts.find({ email: "ada@example.com" })).resolves.toBeNull();
      await expect(globex.lists.addContact("lst_globex", { contactId: ada.id })).rejects.toMatchObject({ code: "CONTACT_NOT_FOUND" });
      await expect(globex.lists.addContact("lst_acme", { contactId: ada.id })).rejects.toMatchObject({ code: "LIST_NOT_FOUND" });
      const theirs = await globex.contacts.create({ phone: "+14155550123" });
      expect(theirs.id).not.toBe(ada.id);
      await expect(
        globex.messages.send({ customData: { fromId: "u", customChannel: "c", body: "x", campaignId: "cmp_acme" } }),
      ).rejects.toMatchObject({ code: "CAMPAIGN_NOT_FOUND" });
      const a = await acme.messages.receive({ customData: { messageSid: "SM-1", fromId: "u", toId: "t", body: "x" } });
      const g = await globex.messages.receive({ customData: { messageSid: "SM-1", fromId: "u", toId: "t", body: "x" } });
      expect(g).toEqual({ success: true, messageId: expect.not.stringMatching(a.messageId) });
    });
  });
};
