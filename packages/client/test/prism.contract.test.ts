// The client against `prism mock openapi.yaml`: prism validates each request against the
// contract and answers with the contract's examples, so these pass only if the client's requests
// and the spec's examples agree. Errors are selected with prism's `Prefer: code=` header.
import {
  AuthenticationError,
  BadRequestError,
  createIntakeClient,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  type IntakeClientOptions,
} from "@intake/client";
import { document, type AuthForm } from "@intake/spec";
import { describe, expect, inject, it } from "vitest";

type Example = { value?: unknown; $ref?: string };
const sharedExamples = document.components!.examples as Record<string, Example>;
const contactExample = sharedExamples["Contact"]!.value;

/** The first example of a response in the contract: what prism must serve for it. */
function example(path: string, method: string, status: string): unknown {
  const operation = document.paths[path]![method] as {
    responses: Record<string, { content: Record<string, { examples: Record<string, Example> }> }>;
  };
  const first = Object.values(operation.responses[status]!.content["application/json"]!.examples)[0]!;
  return first.$ref ? sharedExamples[first.$ref.split("/").at(-1)!]!.value : first.value;
}

function prism<F extends AuthForm>(auth: F, extra: Partial<IntakeClientOptions<F>> = {}) {
  return createIntakeClient({
    auth,
    apiKey: "ik_test_prism",
    baseUrl: inject("prismUrl").replace(/\/v1$/, ""),
    allowInsecureLoopback: true,
    maxRetries: 0,
    ...extra,
  });
}
const prefer = (code: number, example?: string) => ({ headers: { Prefer: `code=${code}${example ? `, example=${example}` : ""}` } });

describe("every operation, in each form that may call it", () => {
  it("createContact: query form (camelCase) and bearer form (snake_case), new (201) and existing (200)", async () => {
    await expect(
      prism("query").contacts.create({ phone: "+14155550123", firstName: "Ada", customFields: { utm_source: "ads" } }, prefer(201)),
    ).resolves.toEqual(contactExample);
    await expect(prism("bearer").contacts.create({ phone_number: "+14155550123", first_name: "Ada" }, prefer(201))).resolves.toEqual(
      contactExample,
    );
    await expect(prism("bearer").contacts.create({ email: "ada@example.com" }, prefer(200))).resolves.toEqual(
      example("/contacts", "post", "200"),
    );
  });

  it("findContact by phone and by email, found and not found", async () => {
    await expect(prism("query").contacts.find({ phoneNumber: "+14155550123" })).resolves.toEqual(contactExample);
    await expect(prism("bearer").contacts.find({ email: "ada@example.com" })).resolves.toEqual(contactExample);
    await expect(prism("query").contacts.find({ email: "nobody@example.com" }, prefer(404))).resolves.toBeNull();
  });

  it("addContactToList in both spellings, added (201) and already a member (200)", async () => {
    const added = example("/lists/{listId}/contacts", "post", "201");
    const already = example("/lists/{listId}/contacts", "post", "200");
    expect(added).toMatchObject({ added: true });
    expect(already).toMatchObject({ added: false });
    await expect(prism("query").lists.addContact("lst_Funnel2026", { contactId: "ct_7Hq2xK9mPw" }, prefer(201))).resolves.toEqual(added);
    await expect(prism("bearer").lists.addContact("lst_Funnel2026", { contact_id: "ct_7Hq2xK9mPw" }, prefer(201))).resolves.toEqual(added);
    await expect(prism("query").lists.addContact("lst_Funnel2026", { contactId: "ct_7Hq2xK9mPw" }, prefer(200))).resolves.toEqual(already);
  });

  it("sendCustomChannelMessage", async () => {
    const sent = await prism("query").messages.send({ customData: { fromId: "user-4821", customChannel: "acme-chat", body: "Hello" } });
    expect(sent).toEqual(example("/send_custom_channel_message", "post", "200"));
  });

  it("receiveCustomChannelMessage: text, media and reaction", async () => {
    const intake = prism("query");
    const received = example("/incoming_custom_channel_message", "post", "200");
    await expect(
      intake.messages.receive({ customData: { messageSid: "SM-1", fromId: "user-4821", toId: "acme", body: "Hi" } }),
    ).resolves.toEqual(received);
    await expect(
      intake.messages.receive({
        customData: {
          id: "SM-2",
          fromId: "user-4821",
          toId: "acme",
          body: "Invoice",
          mediaUrl: "https://files.example.com/i.pdf",
          mediaContentType: "application/pdf",
        },
      }),
    ).resolves.toEqual(received);
    await expect(
      intake.messages.receive({
        messageType: "reaction",
        customData: { messageSid: "SM-3", fromId: "user-4821", toId: "acme", body: "👍", reactionTo: "SM-1" },
      }),
    ).resolves.toEqual(received);
  });

  it("grantSubaccountCredits with an Idempotency-Key", async () => {
    await expect(
      prism("header").subaccounts.grantCredits(
        { email: "client-one@agency.example", amount: 500, description: "Recharge" },
        { idempotencyKey: "rch_1" },
      ),
    ).resolves.toEqual(example("/subaccounts/credits", "post", "200"));
  });
});

describe("prism enforces the contract on what the client sends", () => {
  it("an operation called with another form's key placement is 401", async () => {
    // The typed client cannot make this call; the raw client, cast, shows the contract refuses it.
    const raw = prism("query").raw as unknown as { POST: (path: string, init: object) => Promise<{ response: Response }> };
    const { response } = await raw.POST("/subaccounts/credits", { body: { email: "a@example.com", amount: 1 } });
    expect(response.status).toBe(401);
  });

  it("a body the contract forbids is 400 in the operation's shape", async () => {
    const error = await prism("query")
      .messages.receive({ customData: { messageSid: "SM-1", fromId: "u", toId: "t", body: "   " } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: undefined, message: "Message body cannot be empty." });
  });
});

describe("the spec's error examples become the client's error classes", () => {
  it("400 INVALID_PHONE", async () => {
    await expect(prism("query").contacts.create({ phone: "555" }, prefer(400, "invalidPhone"))).rejects.toMatchObject({
      name: "BadRequestError",
      code: "INVALID_PHONE",
    });
  });
  it("401", async () => {
    await expect(prism("bearer").contacts.create({ email: "a@example.com" }, prefer(401))).rejects.toBeInstanceOf(AuthenticationError);
  });
  it("403 NOT_AGENCY", async () => {
    await expect(prism("header").subaccounts.grantCredits({ email: "a@example.com", amount: 1 }, prefer(403))).rejects.toMatchObject({
      constructor: PermissionDeniedError,
      code: "NOT_AGENCY",
    });
  });
  it("404 LIST_NOT_FOUND and SUBACCOUNT_NOT_FOUND", async () => {
    await expect(prism("query").lists.addContact("lst_x", { contactId: "ct_1" }, prefer(404, "listNotFound"))).rejects.toMatchObject({
      constructor: NotFoundError,
      code: "LIST_NOT_FOUND",
    });
    await expect(prism("header").subaccounts.grantCredits({ email: "x@example.com", amount: 1 }, prefer(404))).rejects.toMatchObject({
      code: "SUBACCOUNT_NOT_FOUND",
    });
  });
  it("429 with Retry-After, in both shapes", async () => {
    const general = await prism("query")
      .contacts.create({ email: "a@example.com" }, prefer(429))
      .catch((e: unknown) => e);
    expect(general).toBeInstanceOf(RateLimitError);
    expect(general).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 12_000 });
    const receive = await prism("query")
      .messages.receive({ customData: { messageSid: "SM-9", fromId: "u", toId: "t", body: "hi" } }, prefer(429))
      .catch((e: unknown) => e);
    expect(receive).toBeInstanceOf(RateLimitError);
    expect(receive).toMatchObject({ code: undefined, retryAfterMs: 12_000 });
  });
  it("500", async () => {
    await expect(prism("query").contacts.find({ email: "a@example.com" }, prefer(500))).rejects.toMatchObject({
      constructor: ServerError,
      code: "INTERNAL_ERROR",
    });
  });
});
