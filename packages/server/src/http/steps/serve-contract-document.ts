/**
 * The contract where clients look for it: `GET /v1/openapi.json` and `/v1/openapi.yaml` answer
 * openapi.yaml, the API's own description, with no key (it holds no account's data), so a code
 * generator, Swagger UI or Postman can be pointed at the server itself. HTTPS only, as all of /v1.
 */
import { document } from "@intake/spec";
import type { Step } from "../compose.js";
import type { Route, Routed } from "../context.js";
import { textResponse } from "../../contract/exchange.js";

const OPERATION = "getContractDocument";

/** GET (and HEAD) of each spelling of the document; they take no key. */
export const CONTRACT_ROUTES: Route[] = (["/openapi.json", "/openapi.yaml"] as const).flatMap((template) =>
  ["GET", "HEAD"].map((method) => ({
    area: "api" as const,
    operationId: OPERATION,
    method,
    template,
    pattern: new RegExp(`^${template.replace(".", "\\.")}$`),
    paramNames: [],
    forms: [],
    shape: "general" as const,
    takesBody: false,
    bodyRequired: false,
  })),
);

// Each text is made on first use: most servers are never asked, and the YAML writer is loaded only by one that is.
let yamlText: Promise<string> | undefined;
let jsonText: string | undefined;
const asYaml = () => (yamlText ??= import("yaml").then(({ stringify }) => stringify(document, { lineWidth: 0 })));
const asJson = () => (jsonText ??= JSON.stringify(document));

/** Answers the document for its routes, before any key is asked for; passes every other request on. */
export const serveContractDocument: Step<Routed> = async function serveContractDocument(context, next) {
  if (context.route.operationId !== OPERATION) return next(context);
  const yaml = context.route.template.endsWith(".yaml");
  context.headers["content-type"] = yaml ? "application/yaml; charset=utf-8" : "application/json";
  context.headers["cache-control"] = "no-cache";
  const answer = textResponse(200, yaml ? await asYaml() : asJson(), context.headers);
  return context.request.method === "HEAD" ? { ...answer, body: null } : answer;
};
