import { BadRequestError } from "@intake/client";
import { describe, expect } from "vitest";
import { client, json, raw } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const contacts: Register = (target, options) => {
  const { it, direct } = cases(options);
  const acme = () => client(target(), "query", KEYS.acme);
  const acmeBearer = () => client(target(), "bearer", KEYS.acme);
  const contactCount = async () => (await target().harness.admin("GET", "/contacts?accountId=acc_acme")).body.length as number;

  describe("POST /contacts", () => {
    it("creates a contact (201) with an id, the fields sent, and createdAt in ISO 8601 UTC", async () => {
      const contact = await acme().contacts.create({
        phone: "+14155550123",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
      });
      expect(contact).toMatchObject({
        phone: "+14155550123",
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        customFields: {},
      });
      expect(contact.id).toMatch(/^ct_/);
      expect(contact.createdAt).toMatch(ISO_UTC);
      const journal = await target().harness.admin("GET", "/journal?operationId=createContact");
      expect(journal.body.at(-1).status).toBe(201);
    });

    it("the Bearer form takes snake_case fields", async () => {
      const contact = await acmeBearer().contacts.create({
        phone_number: "+14155550124",
        first_name: "Grace",
        last_name: "Hopper",
        email: "grace@example.com",
      });
      expect(contact).toMatchObject({ phone: "+14155550124", firstName: "Grace", lastName: "Hopper", email: "grace@example.com" });
    });

    it("absent fields are null", async () => {
      const contact = await acme().contacts.create({ email: "only@example.com" });
      expect(contact).toMatchObject({ phone: null, firstName: null, lastName: null, email: "only@example.com" });
    });

    it("stores the phone number in E.164, whatever its formatting", async () => {
      const contact = await acme().contacts.create({ phone: "+44 20 7946 0958" });
      expect(contact.phone).toBe("+442079460958");
      const same = await acme().contacts.create({ phone: "+44 20-7946-0958" });
      expect(same.id).toBe(contact.id);
    });

    it("a known phone number returns the existing contact (200), unchanged, and makes no duplicate", async () => {
      const first = await acme().contacts.create({ phone: "+14155550123", firstName: "Ada" });
      const response = await acme().raw.POST("/contacts", {
        body: { phone: "+1 415 555 0123", firstName: "Someone else", email: "else@example.com" },
      });
      expect(response.response.status).toBe(200);
      expect(response.data).toEqual(first);
      expect(await contactCount()).toBe(1);
    });

    it("the same phone through the Bearer form is the same contact", async () => {
      const first = await acme().contacts.create({ phone: "+14155550123" });
      const again = await acmeBearer().contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
      expect(again.id).toBe(first.id);
    });

    it("an email-only create with a known email returns that contact (200)", async () => {
      const first = await acme().contacts.create({ email: "Ada@Example.com" });
      const response = await acme().raw.POST("/contacts", { body: { email: "ada@example.com" } });
      expect(response.response.status).toBe(200);
      expect(response.data?.id).toBe(first.id);
    });

    it("a new phone number with a known email is a new contact: the phone number is the identity", async () => {
      const first = await acme().contacts.create({ email: "ada@example.com" });
      const second = await acme().contacts.create({ phone: "+14155550123", email: "ada@example.com" });
      expect(second.id).not.toBe(first.id);
    });

    it("stores custom fields and returns them", async () => {
      const contact = await acme().contacts.create({
        phone: "+14155550123",
        customFields: { utm_source: "ads", score: 7, vip: true, note: null },
      });
      expect(contact.customFields).toEqual({ utm_source: "ads", score: 7, vip: true, note: null });
      const found = await acme().contacts.find({ phoneNumber: "+14155550123" });
      expect(found?.customFields).toEqual(contact.customFields);
    });

    direct("neither phone nor email is 400 VALIDATION_ERROR", async () => {
      await expect(acme().contacts.create({ firstName: "Ada" } as never)).rejects.toMatchObject({
        status: 400,
        code: "VALIDATION_ERROR",
        message: "Either phone or email is required.",
      });
      expect(await contactCount()).toBe(0);
    });

    it.each([
      ["4155550123", "without +"],
      ["+999 123 456", "with an unknown country code"],
      ["+1 415", "too short for its country"],
      ["phone", "that is not a number"],
    ])("%s (%s) is 400 INVALID_PHONE saying it must include a valid country code", async (phone) => {
      const error = await acme()
        .contacts.create({ phone })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error).toMatchObject({ status: 400, code: "INVALID_PHONE" });
      expect((error as Error).message).toMatch(/must include a valid country code|is not a possible number for country code/);
      expect(await contactCount()).toBe(0);
    });

    it.each(["+14155550126 ext 5", "+14155550126;ext=9", "+1 415 555 0126 x12"])(
      "%s, a number with an extension, is 400 INVALID_PHONE (E.164 cannot hold it)",
      async (phone) => {
        const error = await acme()
          .contacts.create({ phone })
          .catch((e: unknown) => e);
        expect(error).toMatchObject({ status: 400, code: "INVALID_PHONE" });
        expect((error as Error).message).toMatch(
          /has an extension \(\d+\), which E\.164 cannot hold: send the number alone \(\+14155550126\)\./,
        );
        expect(await contactCount()).toBe(0);
      },
    );

    it.each([
      ["+14155550126 abc", "+14155550126"],
      ["+14155550127 x", "+14155550127"],
    ])("%s, a number with other text, is 400 INVALID_PHONE naming the number to send", async (phone, number) => {
      const error = await acme()
        .contacts.create({ phone })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        status: 400,
        code: "INVALID_PHONE",
        message: `Phone number ${JSON.stringify(phone)} holds text besides the number: send the number alone (${number}).`,
      });
      expect(await contactCount()).toBe(0);
    });

    it("the Bearer form's phone_number is checked the same way", async () => {
      await expect(acmeBearer().contacts.create({ phone_number: "4155550123" })).rejects.toMatchObject({ code: "INVALID_PHONE" });
    });

    direct("an email that is not an email is 400 naming the field", async () => {
      await expect(acme().contacts.create({ email: "not-an-email" })).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        message: "email must be a valid email address.",
      });
    });

    direct("the other form's spelling is 400 WRONG_FIELD_SPELLING naming the expected field", async () => {
      await expect(acme().contacts.create({ phone_number: "+14155550123" } as never)).rejects.toMatchObject({
        code: "WRONG_FIELD_SPELLING",
        message: "Unexpected field phone_number: with ?apiKey= the body is camelCase; send phone instead.",
      });
      await expect(acmeBearer().contacts.create({ phone: "+14155550123", first_name: "Ada" } as never)).rejects.toMatchObject({
        code: "WRONG_FIELD_SPELLING",
        message: "Unexpected field phone: with Authorization: Bearer the body is snake_case; send phone_number instead.",
      });
      await expect(acmeBearer().contacts.create({ email: "a@example.com", firstName: "Ada" } as never)).rejects.toMatchObject({
        code: "WRONG_FIELD_SPELLING",
        message: expect.stringContaining("send first_name instead"),
      });
      expect(await contactCount()).toBe(0);
    });

    direct("an unknown field is 400 naming it and what is allowed", async () => {
      await expect(acme().contacts.create({ phone: "+14155550123", utm_source: "ads" } as never)).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        message: "Unknown field utm_source. Allowed: phone, email, firstName, lastName, customFields.",
      });
      await expect(acme().contacts.create({ phoneNumber: "+14155550123" } as never)).rejects.toMatchObject({
        message: expect.stringContaining("Unknown field phoneNumber: did you mean phone?"),
      });
    });

    direct("id and createdAt are the service's to give: a create that sends them is 400, and nothing is stored", async () => {
      for (const field of ["id", "createdAt"]) {
        await expect(
          acme().contacts.create({ phone: "+14155550123", [field]: field === "id" ? "ct_mine" : "2020-01-01T00:00:00.000Z" } as never),
          field,
        ).rejects.toMatchObject({
          status: 400,
          code: "VALIDATION_ERROR",
          message: `Unknown field ${field}. Allowed: phone, email, firstName, lastName, customFields.`,
        });
      }
      expect(await contactCount()).toBe(0);
    });

    it("names are stored trimmed", async () => {
      const contact = await acmeBearer().contacts.create({ phone_number: "+14155550125", first_name: "  Bo  ", last_name: "\tLi " });
      expect(contact).toMatchObject({ firstName: "Bo", lastName: "Li" });
    });

    direct("custom fields: at most 50 keys, spelt custom_fields in the Bearer form", async () => {
      const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
      expect((await acme().contacts.create({ phone: "+14155550126", customFields: fields(50) })).customFields).toEqual(fields(50));
      await expect(acme().contacts.create({ phone: "+14155550127", customFields: fields(51) })).rejects.toMatchObject({
        status: 400,
        code: "VALIDATION_ERROR",
        message: "customFields may have at most 50 entries.",
      });
      expect((await acmeBearer().contacts.create({ phone_number: "+14155550128", custom_fields: { plan: "pro" } })).customFields).toEqual({
        plan: "pro",
      });
      await expect(
        acmeBearer().contacts.create({ phone_number: "+14155550129", customFields: { plan: "pro" } } as never),
      ).rejects.toMatchObject({
        status: 400,
        code: "WRONG_FIELD_SPELLING",
      });
      expect(await contactCount()).toBe(2);
    });

    direct("custom fields must be flat", async () => {
      await expect(acme().contacts.create({ phone: "+14155550123", customFields: { nested: { a: 1 } } } as never)).rejects.toMatchObject({
        code: "VALIDATION_ERROR",
        message: "customFields.nested must be a string, number, boolean or null.",
      });
    });
  });

  describe("GET /contacts", () => {
    it("finds by phone number, normalised, with { success, contactId, contact }", async () => {
      const created = await acme().contacts.create({ phone: "+14155550123", firstName: "Ada" });
      const { data, response } = await acme().raw.GET("/contacts", { params: { query: { phoneNumber: "+1 (415) 555-0123" } } });
      expect(response.status).toBe(200);
      expect(data).toEqual({ success: true, contactId: created.id, contact: created });
    });

    it("finds by email, ignoring case", async () => {
      const created = await acme().contacts.create({ email: "Ada@Example.com" });
      await expect(acmeBearer().contacts.find({ email: "ada@example.COM" })).resolves.toEqual(created);
    });

    it("no match is 404 CONTACT_NOT_FOUND", async () => {
      const { response, error } = await acme().raw.GET("/contacts", { params: { query: { email: "nobody@example.com" } } });
      expect(response.status).toBe(404);
      expect(error).toEqual({ error: { code: "CONTACT_NOT_FOUND", message: "No contact with email nobody@example.com." } });
      await expect(acme().contacts.find({ phoneNumber: "+14155550199" })).resolves.toBeNull();
    });

    direct("neither or both of phoneNumber and email is 400", async () => {
      const neither = await json(await raw(target(), `/contacts?apiKey=${KEYS.acme}`));
      expect(neither).toMatchObject({
        status: 400,
        body: { error: { code: "VALIDATION_ERROR", message: expect.stringContaining("phoneNumber or by email") } },
      });
      const both = await json(await raw(target(), `/contacts?apiKey=${KEYS.acme}&phoneNumber=%2B14155550123&email=a%40example.com`));
      expect(both).toMatchObject({
        status: 400,
        body: { error: { code: "VALIDATION_ERROR", message: "Give phoneNumber or email, not both." } },
      });
    });

    direct("phone_number as the query parameter is 400 WRONG_FIELD_SPELLING", async () => {
      const response = await json(
        await raw(target(), `/contacts?phone_number=%2B14155550123`, { headers: { authorization: `Bearer ${KEYS.acme}` } }),
      );
      expect(response).toMatchObject({
        status: 400,
        body: {
          error: {
            code: "WRONG_FIELD_SPELLING",
            message: "Unknown query parameter phone_number: it is spelled phoneNumber in every auth form.",
          },
        },
      });
    });

    it("an unparseable phone number is 400 INVALID_PHONE", async () => {
      await expect(acme().contacts.find({ phoneNumber: "555-0123" })).rejects.toMatchObject({ status: 400, code: "INVALID_PHONE" });
    });

    direct("a + sent unencoded in the query (read as a space) gets a hint", async () => {
      const response = await json(await raw(target(), `/contacts?apiKey=${KEYS.acme}&phoneNumber=+14155550123`));
      expect(response.body.error).toEqual({
        code: "INVALID_PHONE",
        message:
          "Phone number must include a valid country code, starting with + (for example +14155550123). In a query string, send + as %2B.",
      });
    });
  });
};
