/**
 * What a schema's failure says: the one error a person should fix first of those ajv reported,
 * naming the field by its path (`accounts[0].apiKey`) and saying what was expected. Shared by the
 * request validators (contract/validation.ts) and the check of records that come in whole
 * (domain/records-check.ts), whose validators are built ahead (shared/built-validators.ts).
 */
import type { ErrorObject } from "ajv";
import { badRequest, type HttpError } from "./errors.js";
import { fieldPath } from "./field-path.js";

/** The one error a person should fix first, from everything ajv reported. */
export function schemaError(errors: ErrorObject[]): HttpError {
  // A rule the contract words itself (x-intake-error beside it) is reported in those words, first.
  for (const error of errors) {
    const stated = (error.parentSchema as { "x-intake-error"?: unknown } | undefined)?.["x-intake-error"];
    if (typeof stated === "string") return badRequest("VALIDATION_ERROR", stated);
  }
  const required = errors.filter((e) => e.keyword === "required");
  const others = errors.filter(
    (e) => !["required", "anyOf", "oneOf", "if", "unevaluatedProperties", "additionalProperties"].includes(e.keyword),
  );

  // A field missing in every alternative of an anyOf is simply required; one missing in some
  // alternatives only is "one of these", or not the problem at all (another error is).
  const alternatives = new Map<string, number>();
  for (const e of errors) if (e.keyword === "anyOf") alternatives.set(e.instancePath, (e.schema as unknown[]).length);
  const byObject = new Map<string, Map<string, number>>();
  for (const e of required) {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    const props = byObject.get(e.instancePath) ?? new Map<string, number>();
    byObject.set(e.instancePath, props);
    props.set(missing, (props.get(missing) ?? 0) + 1);
  }
  for (const [instancePath, props] of byObject) {
    const definite = [...props].find(([, count]) => count >= (alternatives.get(instancePath) ?? 1));
    if (definite) return badRequest("VALIDATION_ERROR", `${fieldName(instancePath, definite[0])} is required.`);
  }
  const first = others[0];
  if (first) return typed(first);
  for (const [instancePath, props] of byObject) {
    const names = [...props.keys()].map((p) => fieldName(instancePath, p));
    const list = names.length === 2 ? `Either ${names[0]} or ${names[1]}` : `One of ${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
    return badRequest("VALIDATION_ERROR", `${list} is required.`);
  }
  // A request's unknown fields are named before its schema is checked (with a did-you-mean); a
  // value checked on its own (a record) gets here.
  const unknown = errors.find((e) => e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties");
  if (unknown) {
    const { additionalProperty, unevaluatedProperty } = unknown.params as { additionalProperty?: string; unevaluatedProperty?: string };
    return badRequest("VALIDATION_ERROR", `Unknown field ${fieldName(unknown.instancePath, additionalProperty ?? unevaluatedProperty)}.`);
  }
  return badRequest("VALIDATION_ERROR", "The request body does not match the contract.");
}

/** Errors whose rule the contract gives its own code or wording. */
function typed(error: ErrorObject): HttpError {
  const field = fieldName(error.instancePath);
  const leaf = error.instancePath.split("/").at(-1);
  if (leaf === "body" && (error.keyword === "pattern" || error.keyword === "minLength")) {
    return badRequest("VALIDATION_ERROR", "Message body cannot be empty.");
  }
  if (leaf === "body" && error.keyword === "maxLength") {
    return badRequest("BODY_TOO_LONG", `${field} is longer than ${(error.params as { limit: number }).limit} characters.`);
  }
  // A /v1 grant's amount; an amount elsewhere (an auto-recharge's) has the general words, naming it.
  if (error.instancePath === "/amount") {
    return badRequest("INVALID_AMOUNT", "amount must be a positive number of credits with at most 6 decimal places, at most 1000000000.");
  }
  return badRequest("VALIDATION_ERROR", describe(error, field));
}

export function describe(error: ErrorObject, field: string, value?: unknown): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "type": {
      const types = String(params.type).split(",");
      return `${field} must be ${article(types.length > 1 ? `${types.slice(0, -1).join(", ")} or ${types.at(-1)}` : types[0]!)}.`;
    }
    case "format":
      return params.format === "email"
        ? `${field} must be a valid email address${value !== undefined ? ` (got ${JSON.stringify(value)})` : ""}.`
        : `${field} must be a valid ${String(params.format)}.`;
    case "minLength":
      return params.limit === 1 ? `${field} must not be empty.` : `${field} must be at least ${String(params.limit)} characters.`;
    case "pattern":
      // The contract's mark of a text that must hold more than whitespace.
      return params.pattern === "\\S"
        ? `${field} must not be empty or only whitespace.`
        : `${field} must match pattern "${String(params.pattern)}".`;
    case "maxLength":
      return `${field} must be at most ${String(params.limit)} characters.`;
    case "enum":
      return `${field} must be one of: ${(params.allowedValues as unknown[]).join(", ")}.`;
    case "const":
      return `${field} must be ${JSON.stringify(params.allowedValue)}.`;
    case "maxProperties":
      return `${field} may have at most ${String(params.limit)} entries.`;
    case "minimum":
    case "exclusiveMinimum":
    case "maximum":
    case "exclusiveMaximum":
      return `${field} must be ${String(params.comparison)} ${String(params.limit)}.`;
    case "propertyNames":
      return `${field} has a key that is empty or longer than 100 characters.`;
    default:
      return `${field} ${error.message ?? "is not valid"}.`;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** `/customData/fromId` -> `customData.fromId`, `/accounts/0/name` -> `accounts[0].name`; the root is "The request body". */
function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split("/").filter(Boolean);
  if (child) parts.push(child);
  return parts.length ? fieldPath(parts.map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))) : "The request body";
}
