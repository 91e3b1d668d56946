// Structural checks of openapi.yaml beyond what the linter knows: the interface's rules and the
// design's decisions that every consumer (client types, server validation, prism) relies on.
import { AUTH_SCHEMES, authFormView, document, listOperations, schemesOf } from "@intake/spec";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";

type Json = Record<string, unknown>;
type Response = { content?: Record<string, { schema?: Json; examples?: Record<string, Json> }>; headers?: Json; $ref?: string };

const operations = listOperations(document);
const components = document.components as Record<string, Record<string, unknown>>;
const resolve = <T>(node: T & { $ref?: string }): T =>
  node.$ref ? (components[node.$ref.split("/")[2]!]![node.$ref.split("/")[3]!] as T) : node;
const responsesOf = (operationId: string) => {
  const op = operations.find((o) => o.operation.operationId === operationId)!.operation;
  return Object.fromEntries(Object.entries(op.responses as Record<string, Response>).map(([status, r]) => [status, resolve(r)]));
};

describe("operations and auth forms", () => {
  it("has the six operations of the interface with operationIds", () => {
    expect(operations.map(({ method, path, operation }) => `${method.toUpperCase()} ${path} ${operation.operationId}`)).toEqual([
      "GET /contacts findContact",
      "POST /contacts createContact",
      "POST /lists/{listId}/contacts addContactToList",
      "POST /send_custom_channel_message sendCustomChannelMessage",
      "POST /incoming_custom_channel_message receiveCustomChannelMessage",
      "POST /subaccounts/credits grantSubaccountCredits",
    ]);
  });

  it("attaches the security schemes as DESIGN.md lists them", () => {
    const security = Object.fromEntries(operations.map(({ operation }) => [operation.operationId, schemesOf(operation)]));
    expect(security).toEqual({
      findContact: ["apiKeyQuery", "bearerAuth"],
      createContact: ["apiKeyQuery", "bearerAuth"],
      addContactToList: ["apiKeyQuery", "bearerAuth"],
      sendCustomChannelMessage: ["apiKeyQuery"],
      receiveCustomChannelMessage: ["apiKeyQuery"],
      grantSubaccountCredits: ["apiKeyHeader"],
    });
    expect(components.securitySchemes).toMatchObject({
      apiKeyQuery: { type: "apiKey", in: "query", name: "apiKey" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
      bearerAuth: { type: "http", scheme: "bearer" },
    });
  });

  it("the server is https://{host}/v1", () => {
    expect((document.servers as Array<{ url: string }>).map((s) => s.url)).toEqual(["https://{host}/v1"]);
  });
});

describe("auth-form views", () => {
  const view = (form: keyof typeof AUTH_SCHEMES) =>
    listOperations(authFormView(document, AUTH_SCHEMES[form])).map(({ operation }) => ({
      id: operation.operationId,
      body: (operation.requestBody as { content?: Record<string, { schema: Json }> } | undefined)?.content?.["application/json"]?.schema,
      security: operation.security,
    }));

  it("query form: five operations, camelCase bodies", () => {
    const ops = view("query");
    expect(ops.map((o) => o.id)).toEqual([
      "findContact",
      "createContact",
      "addContactToList",
      "sendCustomChannelMessage",
      "receiveCustomChannelMessage",
    ]);
    expect(ops.find((o) => o.id === "createContact")!.body).toEqual({ $ref: "#/components/schemas/ContactInput" });
    expect(ops.find((o) => o.id === "addContactToList")!.body).toEqual({ $ref: "#/components/schemas/ListMemberInput" });
    expect(ops.every((o) => JSON.stringify(o.security) === JSON.stringify([{ apiKeyQuery: [] }]))).toBe(true);
  });

  it("bearer form: contacts and lists, snake_case bodies", () => {
    const ops = view("bearer");
    expect(ops.map((o) => o.id)).toEqual(["findContact", "createContact", "addContactToList"]);
    expect(ops.find((o) => o.id === "createContact")!.body).toEqual({ $ref: "#/components/schemas/ContactInputSnake" });
    expect(ops.find((o) => o.id === "addContactToList")!.body).toEqual({ $ref: "#/components/schemas/ListMemberInputSnake" });
  });

  it("header form: sub-account credits only", () => {
    expect(view("header").map((o) => o.id)).toEqual(["grantSubaccountCredits"]);
  });

  it("views drop the webhooks and the spelling map", () => {
    const bearer = authFormView(document, "bearerAuth");
    expect(bearer.webhooks).toBeUndefined();
    expect(JSON.stringify(bearer.paths)).not.toContain("x-intake-body-by-auth");
  });
});

describe("error shapes and statuses", () => {
  const schemaRef = (r: Response) => (r.content?.["application/json"]?.schema as { $ref?: string } | undefined)?.$ref;

  it("every operation answers 400, 401, 429 and 500", () => {
    for (const { operation } of operations) {
      expect(Object.keys(responsesOf(operation.operationId!)), operation.operationId).toEqual(
        expect.arrayContaining(["400", "401", "429", "500"]),
      );
    }
  });

  it("the receive endpoint's errors are { error: string }; every other operation's are { error: { code, message } }", () => {
    for (const { operation } of operations) {
      const expected = operation.operationId === "receiveCustomChannelMessage" ? "ReceiveError" : "ApiError";
      for (const [status, response] of Object.entries(responsesOf(operation.operationId!))) {
        if (Number(status) >= 400)
          expect(schemaRef(response), `${operation.operationId} ${status}`).toBe(`#/components/schemas/${expected}`);
      }
    }
    expect((components.schemas as Json).ReceiveError).toMatchObject({ properties: { error: { type: "string" } } });
  });

  it("429 carries Retry-After and RateLimit-* headers on every operation", () => {
    for (const { operation } of operations) {
      expect(Object.keys(responsesOf(operation.operationId!)["429"]!.headers ?? {}).sort()).toEqual([
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "Retry-After",
        "X-Request-Id",
      ]);
    }
  });

  it("every response of every operation declares X-Request-Id", () => {
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(responsesOf(operation.operationId!))) {
        expect(Object.keys(response.headers ?? {}), `${operation.operationId} ${status}`).toContain("X-Request-Id");
      }
    }
  });

  it("the receive endpoint documents 405 with Allow", () => {
    expect(Object.keys(responsesOf("receiveCustomChannelMessage")["405"]!.headers!).sort()).toEqual(["Allow", "X-Request-Id"]);
  });

  it("error codes include the interface's and the design's", () => {
    const codes = ((components.schemas as Json).ErrorCode as { enum: string[] }).enum;
    expect(codes).toEqual(
      expect.arrayContaining([
        "INVALID_PHONE",
        "CONTACT_NOT_FOUND",
        "NOT_AGENCY",
        "SUBACCOUNT_NOT_FOUND",
        "BODY_TOO_LONG",
        "HTTPS_REQUIRED",
      ]),
    );
  });
});

describe("examples", () => {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "intake", components });
  const validate = (schema: Json, value: unknown) => {
    const check = schema.$ref ? ajv.getSchema(`intake${schema.$ref}`)! : ajv.compile({ ...schema, $defs: undefined });
    return check(value) ? [] : check.errors!;
  };
  const examplesOf = (media?: { examples?: Record<string, Json> }) =>
    Object.entries(media?.examples ?? {}).map(([name, e]) => [name, resolve<Json>(e).value] as const);
  const bodySchemaOf = (id: string, scheme: string) => {
    const view = authFormView(document, scheme as never);
    return (
      listOperations(view).find((o) => o.operation.operationId === id)!.operation.requestBody as {
        content: Record<string, { schema: Json }>;
      }
    ).content["application/json"]!.schema;
  };

  it("every operation has request (where it takes a body) and response examples, and each validates against its schema", () => {
    for (const { operation } of operations) {
      const id = operation.operationId!;
      const media = (operation.requestBody as { content?: Record<string, { schema: Json; examples?: Record<string, Json> }> } | undefined)
        ?.content?.["application/json"];
      if (media) {
        expect(examplesOf(media).length, `${id} request examples`).toBeGreaterThan(0);
        for (const [name, value] of examplesOf(media)) {
          // Where two spellings exist, each example must be valid in its own auth form's view.
          const scheme = name === "snake_case" ? "bearerAuth" : "apiKeyQuery";
          const schema = operation["x-intake-body-by-auth"] ? bodySchemaOf(id, scheme) : media.schema;
          expect(validate(schema, value), `${id} request example ${name}`).toEqual([]);
        }
      }
      for (const [status, response] of Object.entries(responsesOf(id))) {
        const content = response.content?.["application/json"];
        if (!content) continue;
        expect(examplesOf(content).length, `${id} ${status} examples`).toBeGreaterThan(0);
        for (const [name, value] of examplesOf(content)) {
          expect(validate(content.schema as Json, value), `${id} ${status} ${name}`).toEqual([]);
        }
      }
    }
  });

  it("a snake_case example is invalid in the camelCase view and the reverse", () => {
    const camel = bodySchemaOf("createContact", "apiKeyQuery");
    const snake = bodySchemaOf("createContact", "bearerAuth");
    expect(validate(camel, { phone_number: "+14155550123" })).not.toEqual([]);
    expect(validate(snake, { phone: "+14155550123" })).not.toEqual([]);
    expect(validate(camel, { firstName: "Ada" })).not.toEqual([]);
  });
});

describe("webhooks", () => {
  const webhook = (name: string) => (document.webhooks as Record<string, { post: Json }>)[name]!.post;
  const payload = (name: string) => (components.schemas as Record<string, { required: string[] }>)[name]!.required;

  it("the reply webhook carries the interface's six fields and the signature headers", () => {
    expect(payload("ReplyWebhookPayload").sort()).toEqual(["body", "channel", "contactId", "messageId", "toId", "userId"]);
    const headers = (webhook("customChannelReply").parameters as Array<{ $ref: string }>).map((p) => p.$ref.split("/").at(-1));
    expect(headers).toEqual(["WebhookId", "WebhookTimestamp", "WebhookSignature"]);
  });

  it("the auto-recharge webhook carries idempotency_key", () => {
    expect(payload("AutoRechargeWebhookPayload")).toContain("idempotency_key");
  });
});
