import { describe, expect, it } from "vitest";
import "./support/msw-lifecycle.js";
import { API_KEY, client, contact, json, record, type Captured } from "./support/fixtures.js";

/** Every place in a request where the key could travel, and how often it appears there. */
function keyLocations(request: Captured) {
  const found: string[] = [];
  for (const [name, value] of request.url.searchParams) if (value.includes(API_KEY)) found.push(`query:${name}`);
  if (request.url.pathname.includes(API_KEY)) found.push("path");
  for (const [name, value] of Object.entries(request.headers)) if (value.includes(API_KEY)) found.push(`header:${name}`);
  if (request.body.includes(API_KEY)) found.push("body");
  return found;
}

describe("each auth form puts the key where it belongs and nowhere else", () => {
  it("query form: ?apiKey= only", async () => {
    const seen = record(() => json(contact, 201));
    await client("query").contacts.create({ phone: "+14155550123" });
    expect(keyLocations(seen[0]!)).toEqual(["query:apiKey"]);
    expect(seen[0]!.url.searchParams.get("apiKey")).toBe(API_KEY);
  });

  it("header form: x-api-key only, never the query", async () => {
    const seen = record(() => json({ success: true, sub_account_id: "sub_1", credits_added: 5, new_balance: 5 }));
    await client("header").subaccounts.grantCredits({ email: "one@agency.example", amount: 5 });
    expect(keyLocations(seen[0]!)).toEqual(["header:x-api-key"]);
    expect(seen[0]!.headers["x-api-key"]).toBe(API_KEY);
    expect(seen[0]!.url.search).toBe("");
  });

  it("bearer form: Authorization: Bearer only", async () => {
    const seen = record(() => json(contact, 201));
    await client("bearer").contacts.create({ phone_number: "+14155550123" });
    expect(keyLocations(seen[0]!)).toEqual(["header:authorization"]);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("the raw client places the key the same way", async () => {
    const seen = record(() => json({ success: true, contactId: contact.id, contact }));
    await client("bearer").raw.GET("/contacts", { params: { query: { email: "ada@example.com" } } });
    expect(keyLocations(seen[0]!)).toEqual(["header:authorization"]);
  });
});

describe("field spelling follows the auth form", () => {
  it("query form sends camelCase bodies", async () => {
    const seen = record((_, i) =>
      i === 0 ? json(contact, 201) : json({ success: true, listId: "lst_1", contactId: contact.id, added: true, message: "ok" }, 201),
    );
    const intake = client("query");
    await intake.contacts.create({ phone: "+14155550123", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
    await intake.lists.addContact("lst_1", { contactId: contact.id });
    expect(JSON.parse(seen[0]!.body)).toEqual({ phone: "+14155550123", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" });
    expect(seen[1]!.url.pathname).toBe("/v1/lists/lst_1/contacts");
    expect(JSON.parse(seen[1]!.body)).toEqual({ contactId: contact.id });
    expect(seen[0]!.headers["content-type"]).toBe("application/json");
  });

  it("bearer form sends snake_case bodies", async () => {
    const seen = record((_, i) =>
      i === 0 ? json(contact, 201) : json({ success: true, listId: "lst_1", contactId: contact.id, added: true, message: "ok" }, 201),
    );
    const intake = client("bearer");
    await intake.contacts.create({ phone_number: "+14155550123", first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" });
    await intake.lists.addContact("lst_1", { contact_id: contact.id });
    expect(JSON.parse(seen[0]!.body)).toEqual({
      phone_number: "+14155550123",
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
    });
    expect(JSON.parse(seen[1]!.body)).toEqual({ contact_id: contact.id });
  });
});

describe("resource methods return the response data", () => {
  it("contacts.create returns the contact", async () => {
    record(() => json(contact, 201));
    await expect(client("query").contacts.create({ email: "ada@example.com" })).resolves.toEqual(contact);
  });

  it("contacts.find sends phoneNumber or email and returns the contact", async () => {
    const seen = record(() => json({ success: true, contactId: contact.id, contact }));
    const intake = client("query");
    await expect(intake.contacts.find({ phoneNumber: "+14155550123" })).resolves.toEqual(contact);
    await intake.contacts.find({ email: "ada@example.com" });
    expect(seen[0]!.url.searchParams.get("phoneNumber")).toBe("+14155550123");
    expect(seen[0]!.url.searchParams.has("email")).toBe(false);
    expect(seen[1]!.url.searchParams.get("email")).toBe("ada@example.com");
  });

  it("contacts.find returns null for CONTACT_NOT_FOUND but throws for other 404s", async () => {
    record((_, i) =>
      i === 0
        ? json({ error: { code: "CONTACT_NOT_FOUND", message: "No contact." } }, 404)
        : json({ error: { code: "NOT_FOUND", message: "No such route." } }, 404),
    );
    const intake = client("query");
    await expect(intake.contacts.find({ email: "nobody@example.com" })).resolves.toBeNull();
    await expect(intake.contacts.find({ email: "nobody@example.com" })).rejects.toMatchObject({ name: "NotFoundError", code: "NOT_FOUND" });
  });

  it("messages.send and messages.receive post customData", async () => {
    const seen = record((_, i) =>
      i === 0
        ? json({ success: true, messageId: "msg_1", contactId: "ct_1", message: "sent" })
        : json({ success: true, messageId: "msg_2" }),
    );
    const intake = client("query");
    const sent = await intake.messages.send({ customData: { fromId: "user-1", customChannel: "acme-chat", body: "Hello" } });
    const received = await intake.messages.receive({
      messageType: "reaction",
      customData: { messageSid: "SM-1", fromId: "user-1", toId: "acme", body: "👍", reactionTo: "SM-0" },
    });
    expect(sent).toEqual({ success: true, messageId: "msg_1", contactId: "ct_1", message: "sent" });
    expect(received).toEqual({ success: true, messageId: "msg_2" });
    expect(seen.map((r) => r.url.pathname)).toEqual(["/v1/send_custom_channel_message", "/v1/incoming_custom_channel_message"]);
    expect(JSON.parse(seen[1]!.body)).toEqual({
      messageType: "reaction",
      customData: { messageSid: "SM-1", fromId: "user-1", toId: "acme", body: "👍", reactionTo: "SM-0" },
    });
  });

  it("subaccounts.grantCredits sends the Idempotency-Key header when given", async () => {
    const seen = record(() => json({ success: true, sub_account_id: "sub_1", credits_added: 500, new_balance: 742 }));
    const result = await client("header").subaccounts.grantCredits(
      { email: "one@agency.example", amount: 500, description: "Auto-recharge" },
      { idempotencyKey: "rch_001" },
    );
    await client("header").subaccounts.grantCredits({ email: "one@agency.example", amount: 1 });
    expect(result).toEqual({ success: true, sub_account_id: "sub_1", credits_added: 500, new_balance: 742 });
    expect(seen[0]!.headers["idempotency-key"]).toBe("rch_001");
    expect(seen[1]!.headers["idempotency-key"]).toBeUndefined();
  });

  it("per-call headers are sent", async () => {
    const seen = record(() => json(contact, 201));
    await client("query").contacts.create({ phone: "+14155550123" }, { headers: { "x-request-id": "req-42" } });
    expect(seen[0]!.headers["x-request-id"]).toBe("req-42");
  });
});

describe("an operation the auth form does not offer, called from plain JavaScript", () => {
  it("throws an error naming the forms that offer it, and sends nothing", () => {
    const seen = record(() => json(contact));
    const header = client("header") as unknown as { contacts: { find: unknown } };
    expect(() => header.contacts.find).toThrow(
      'contacts is not on a client made with auth: "header" (it has subaccounts): create one with auth: "query" or auth: "bearer" for contacts.',
    );
    const bearer = client("bearer") as unknown as { messages: unknown; subaccounts: unknown };
    expect(() => bearer.messages).toThrow(/create one with auth: "query" for messages\.$/);
    expect(() => bearer.subaccounts).toThrow(/create one with auth: "header" for subaccounts\.$/);
    expect(seen).toHaveLength(0);
  });

  it("the client still lists and spreads as its own resources only", () => {
    const header = client("header");
    expect(Object.keys(header).sort()).toEqual(["auth", "baseUrl", "raw", "subaccounts"]);
    expect("subaccounts" in { ...header }).toBe(true);
  });
});
