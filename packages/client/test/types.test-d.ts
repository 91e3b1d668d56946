// Type-level proof that each auth form's client offers only its operations, in its spelling.
// Run by vitest's typecheck mode and by `tsc --noEmit`: an unused @ts-expect-error fails both.
import { createIntakeClient, type AuthForm, type Contact, type WithRequestId } from "@intake/client";
import type { components } from "@intake/spec";
import { describe, expectTypeOf, it } from "vitest";

const base = { apiKey: "k", baseUrl: "https://api.intake.test/v1" };
const query = createIntakeClient({ ...base, auth: "query" });
const header = createIntakeClient({ ...base, auth: "header" });
const bearer = createIntakeClient({ ...base, auth: "bearer" });

describe("operations per auth form", () => {
  it("query form: contacts, lists, messages; no sub-account credits", () => {
    expectTypeOf(query).toHaveProperty("contacts");
    expectTypeOf(query).toHaveProperty("lists");
    expectTypeOf(query).toHaveProperty("messages");
    // @ts-expect-error /subaccounts/credits takes the x-api-key header form only
    void query.subaccounts;
    // @ts-expect-error not in the query form's view of the contract
    void query.raw.POST("/subaccounts/credits", { body: { email: "a@b.co", amount: 1 } });
  });

  it("header form: sub-account credits only", () => {
    expectTypeOf(header).toHaveProperty("subaccounts");
    // @ts-expect-error contacts are not shown with the header form
    void header.contacts;
    // @ts-expect-error not in the header form's view
    void header.raw.POST("/contacts", { body: { phone: "+14155550123" } });
  });

  it("bearer form: contacts and lists; no custom-channel messages", () => {
    expectTypeOf(bearer).toHaveProperty("contacts");
    expectTypeOf(bearer).toHaveProperty("lists");
    // @ts-expect-error the custom-channel endpoints take the query form
    void bearer.messages;
    // @ts-expect-error not in the bearer form's view
    void bearer.raw.POST("/incoming_custom_channel_message", {
      body: { customData: { messageSid: "s", fromId: "f", toId: "t", body: "b" } },
    });
  });
});

describe("field spelling per auth form", () => {
  it("query form is camelCase", () => {
    void query.contacts.create({ phone: "+14155550123", firstName: "Ada" });
    // @ts-expect-error snake_case belongs to the bearer form
    void query.contacts.create({ phone_number: "+14155550123" });
    void query.lists.addContact("lst_1", { contactId: "ct_1" });
    // @ts-expect-error contact_id belongs to the bearer form
    void query.lists.addContact("lst_1", { contact_id: "ct_1" });
  });

  it("bearer form is snake_case", () => {
    void bearer.contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
    // @ts-expect-error phone is the query form's spelling
    void bearer.contacts.create({ phone: "+14155550123" });
    void bearer.lists.addContact("lst_1", { contact_id: "ct_1" });
    // @ts-expect-error contactId is the query form's spelling
    void bearer.lists.addContact("lst_1", { contactId: "ct_1" });
    // @ts-expect-error the raw client is narrowed the same way
    void bearer.raw.POST("/contacts", { body: { phone: "+14155550123" } });
  });
});

describe("a spelling of the other form names the field to use", () => {
  // tsc quotes the forbidden field's type: Type 'string' is not assignable to type '"phone_number
  // is the bearer form's spelling: use phone"', for a literal and for a variable alike
  // (type-messages.test.ts reads tsc's messages; scripts/check-strict-types.mjs too, packed).
  it("query form: phone_number, first_name and contact_id, in a variable too", () => {
    const contact = { phone_number: "+14155550123", first_name: "Ada" };
    // @ts-expect-error the bearer form's spelling
    void query.contacts.create(contact);
    const member = { contact_id: "ct_1" };
    // @ts-expect-error the bearer form's spelling
    void query.lists.addContact("lst_1", member);
  });

  it("bearer form: phone, customFields and contactId, in a variable too", () => {
    const contact = { phone: "+14155550123", customFields: {} };
    // @ts-expect-error the query form's spelling
    void bearer.contacts.create(contact);
    const member = { contactId: "ct_1" };
    // @ts-expect-error the query form's spelling
    void bearer.lists.addContact("lst_1", member);
  });

  it("a right body in a variable is taken", () => {
    const contact = { phone: "+14155550123", firstName: "Ada" };
    void query.contacts.create(contact);
    const member = { contact_id: "ct_1" };
    void bearer.lists.addContact("lst_1", member);
  });
});

describe("required rules from the contract", () => {
  it("a contact needs a phone or an email", () => {
    void query.contacts.create({ email: "a@b.co" });
    // @ts-expect-error neither phone nor email
    void query.contacts.create({ firstName: "Ada" });
  });

  it("find takes exactly one of phoneNumber and email", () => {
    void query.contacts.find({ phoneNumber: "+14155550123" });
    void bearer.contacts.find({ email: "a@b.co" });
    // @ts-expect-error both
    void query.contacts.find({ phoneNumber: "+14155550123", email: "a@b.co" });
    // @ts-expect-error neither
    void query.contacts.find({});
  });

  it("receive needs messageSid or id, fromId, toId and body; messageType is text or reaction", () => {
    void query.messages.receive({ customData: { messageSid: "s", fromId: "f", toId: "t", body: "b" } });
    void query.messages.receive({ customData: { id: "s", fromId: "f", toId: "t", body: "b" }, messageType: "reaction" });
    // @ts-expect-error no messageSid or id
    void query.messages.receive({ customData: { fromId: "f", toId: "t", body: "b" } });
    // @ts-expect-error fromId is required
    void query.messages.receive({ customData: { messageSid: "s", toId: "t", body: "b" } });
    // @ts-expect-error not a message type
    void query.messages.receive({ customData: { messageSid: "s", fromId: "f", toId: "t", body: "b" }, messageType: "sticker" });
  });

  it("send needs fromId, customChannel and body", () => {
    void query.messages.send({ customData: { fromId: "f", customChannel: "c", body: "b" } });
    // @ts-expect-error customChannel is required
    void query.messages.send({ customData: { fromId: "f", body: "b" } });
  });

  it("credits need email and a numeric amount", () => {
    void header.subaccounts.grantCredits({ email: "a@b.co", amount: 5 }, { idempotencyKey: "k" });
    // @ts-expect-error amount is a number
    void header.subaccounts.grantCredits({ email: "a@b.co", amount: "5" });
  });
});

describe("results are the contract's types", () => {
  it("resource methods resolve to the response data, with the answer's request id", () => {
    expectTypeOf(query.contacts.create).returns.resolves.toEqualTypeOf<WithRequestId<components["schemas"]["Contact"]>>();
    expectTypeOf(bearer.contacts.find).returns.resolves.toEqualTypeOf<WithRequestId<Contact> | null>();
    expectTypeOf(query.lists.addContact).returns.resolves.toEqualTypeOf<WithRequestId<components["schemas"]["ListMembership"]>>();
    expectTypeOf(query.messages.send).returns.resolves.toEqualTypeOf<
      WithRequestId<components["schemas"]["SendCustomChannelMessageResult"]>
    >();
    expectTypeOf(query.messages.receive).returns.resolves.toEqualTypeOf<
      WithRequestId<components["schemas"]["ReceiveCustomChannelMessageResult"]>
    >();
    expectTypeOf(header.subaccounts.grantCredits).returns.resolves.toEqualTypeOf<
      WithRequestId<components["schemas"]["GrantCreditsResult"]>
    >();
    expectTypeOf<WithRequestId<Contact>["_requestId"]>().toEqualTypeOf<string | undefined>();
  });

  it("a contact's absent fields are null", () => {
    expectTypeOf<Contact["phone"]>().toEqualTypeOf<string | null>();
  });
});

describe("options", () => {
  // Fails only under exactOptionalPropertyTypes: `npm run typecheck` compiles this file with tsconfig.exact.json, vitest's typecheck does not.
  it("every optional option takes undefined, as a value read from the environment may be", () => {
    const unset = process.env["INTAKE_TEST_UNSET"];
    const number = unset === undefined ? undefined : Number(unset);
    createIntakeClient({
      auth: "query",
      apiKey: unset,
      baseUrl: unset,
      fetch: undefined,
      timeoutMs: number,
      maxRetries: number,
      headers: undefined,
      logger: undefined,
      allowInsecureLoopback: undefined,
      retry: { maxRetries: number, initialDelayMs: number, maxDelayMs: number, maxRetryAfterMs: number },
    });
    void query.contacts.find({ email: "a@b.co" }, { signal: undefined, headers: undefined, timeoutMs: number, maxRetries: number });
    void header.subaccounts.grantCredits({ email: "a@b.co", amount: 5 }, { idempotencyKey: unset });
  });

  it("auth is one of the three forms", () => {
    // @ts-expect-error not an auth form
    createIntakeClient({ ...base, auth: "cookie" });
  });
});

describe("spelling holds for variables too, not only object literals", () => {
  it("a variable with the other form's field names does not type-check", () => {
    const camel = { email: "a@b.co", phone: "+14155550123" };
    const snake = { phone_number: "+14155550123", first_name: "Ada" };
    // @ts-expect-error phone is the query form's spelling
    void bearer.contacts.create(camel);
    // @ts-expect-error phone_number is the bearer form's spelling
    void query.contacts.create({ ...camel, ...snake });
    void bearer.contacts.create(snake);
    const member = { contactId: "ct_1" };
    // @ts-expect-error contactId is the query form's spelling
    void bearer.lists.addContact("lst_1", member);
  });
});

describe("media rule", () => {
  it("mediaUrl needs mediaContentType", () => {
    const base = { messageSid: "s", fromId: "f", toId: "t", body: "b" };
    void query.messages.receive({ customData: { ...base, mediaUrl: "https://f.example/a.png", mediaContentType: "image/png" } });
    void query.messages.receive({ customData: { ...base, mediaUrl: null } });
    // @ts-expect-error mediaContentType is required with mediaUrl
    void query.messages.receive({ customData: { ...base, mediaUrl: "https://f.example/a.png" } });
  });
});

describe("a client of any form narrows on auth", () => {
  it("auth discriminates the union", () => {
    const form = "header" as AuthForm;
    const client = createIntakeClient({ ...base, auth: form });
    // @ts-expect-error not every form has subaccounts
    void client.subaccounts;
    if (client.auth === "header") expectTypeOf(client).toHaveProperty("subaccounts");
    if (client.auth === "bearer") expectTypeOf(client).toHaveProperty("contacts");
  });
});

describe("verified webhooks", () => {
  it("narrow by type, with unknown for a shape the client does not know; the secret may be unset", async () => {
    const { verifyWebhook, createWebhookVerifier } = await import("@intake/client/webhooks");
    // process.env's values are string | undefined: an unset secret is a run-time error, not a type error.
    const secret: string | undefined = undefined as string | undefined;
    const event = verifyWebhook(secret, "{}", new Headers());
    expectTypeOf(createWebhookVerifier(secret)("{}", {})).toEqualTypeOf(event);
    if (event.type === "reply") expectTypeOf(event.payload.toId).toEqualTypeOf<string>();
    else if (event.type === "auto_recharge") expectTypeOf(event.payload.idempotency_key).toEqualTypeOf<string>();
    else {
      expectTypeOf(event.type).toEqualTypeOf<"unknown">();
      expectTypeOf(event.payload).toEqualTypeOf<unknown>();
    }
  });
});
