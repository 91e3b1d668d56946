/**
 * The three ways a request may carry the API key, and the view of the contract that each one
 * sees. A view keeps only the operations whose `security` lists that scheme and, where an
 * operation accepts two field spellings, only the request body of that scheme's spelling
 * (from the operation's `x-intake-body-by-auth` map). The client is typed from these views and
 * the server validates against them, so the spelling rules live in openapi.yaml alone.
 */

export const AUTH_SCHEMES = {
  query: "apiKeyQuery",
  header: "apiKeyHeader",
  bearer: "bearerAuth",
} as const;

export type AuthForm = keyof typeof AUTH_SCHEMES;
export type AuthScheme = (typeof AUTH_SCHEMES)[AuthForm];

/** The loose shape of an OpenAPI 3.1 document that the view builder relies on. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, unknown>;
  [key: string]: unknown;
}

interface OperationObject {
  operationId?: string;
  security?: Array<Record<string, unknown>>;
  requestBody?: { content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }> };
  "x-intake-body-by-auth"?: Partial<Record<AuthScheme, string>>;
  [key: string]: unknown;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * Operations of the document with their path and method, in document order, and the parameters
 * declared on their path item (which apply to every operation on it).
 */
export function listOperations(doc: OpenApiDocument) {
  const out: Array<{ path: string; method: (typeof HTTP_METHODS)[number]; operation: OperationObject; pathParameters: unknown[] }> = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (operation) out.push({ path, method, operation, pathParameters: (item.parameters as unknown[] | undefined) ?? [] });
    }
  }
  return out;
}

/** The schemes an operation accepts. */
export function schemesOf(operation: OperationObject): AuthScheme[] {
  return (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)) as AuthScheme[];
}

/** The part of the contract that a client authenticating with `scheme` may call. */
export function authFormView(doc: OpenApiDocument, scheme: AuthScheme): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const { path, method, operation } of listOperations(doc)) {
    if (!schemesOf(operation).includes(scheme)) continue;
    const { "x-intake-body-by-auth": bodyByAuth, ...rest } = operation;
    const narrowed: OperationObject = { ...rest, security: [{ [scheme]: [] }] };
    const schemaName = bodyByAuth?.[scheme];
    if (schemaName) narrowed.requestBody = narrowBody(operation, schemaName);
    const item = (paths[path] ??= pathLevelFields(doc.paths[path] ?? {}));
    item[method] = narrowed;
  }
  const { webhooks: _webhooks, ...rest } = doc;
  return { ...rest, paths };
}

function pathLevelFields(item: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (!(HTTP_METHODS as readonly string[]).includes(key)) kept[key] = value;
  }
  return kept;
}

function narrowBody(operation: OperationObject, schemaName: string): NonNullable<OperationObject["requestBody"]> {
  const body = operation.requestBody ?? {};
  const content: NonNullable<NonNullable<OperationObject["requestBody"]>["content"]> = {};
  for (const media of Object.keys(body.content ?? {})) {
    // Examples of the other spelling would be wrong in this view, so only the schema is kept.
    content[media] = { schema: { $ref: `#/components/schemas/${schemaName}` } };
  }
  return { ...body, content };
}
