/** The admin contract's validators (admin-openapi.yaml), for its requests and for values given in code. */
import { listOperations, type OpenApiDocument } from "@intake/spec";
import { adminDocument } from "../generated/admin-document.js";
import type { operations } from "../generated/admin.js";
import {
  builtOperationSchemas,
  onFirstUse,
  oncePerDocument,
  operationCompiler,
  type OperationSchemas,
  type OperationValidator,
} from "../contract/validation.js";
import { HttpError } from "../shared/errors.js";

export type AdminOperationId = keyof operations;

const compileAdmin = oncePerDocument((doc) => onFirstUse(adminValidatorMakers(doc, builtOperationSchemas)));

/** The maker of each admin operation's validator, by operationId; the generator calls every one. */
export function adminValidatorMakers(doc: OpenApiDocument, schemas: OperationSchemas): Map<string, () => OperationValidator> {
  const compile = operationCompiler(doc, "admin", schemas);
  const makers = new Map<string, () => OperationValidator>();
  for (const { operation, pathParameters } of listOperations(doc)) {
    const name = operation.operationId;
    if (name) makers.set(name, () => compile(name, operation, pathParameters));
  }
  return makers;
}

/** The validator of an admin operation. */
export function adminValidator(operationId: string): OperationValidator {
  const validator = compileAdmin(adminDocument)(operationId);
  if (!validator) throw new Error(`The admin contract has no operation ${operationId}.`);
  return SEEDED.has(operationId) ? { ...validator, body: (body) => (refuseSnapshot(body), validator.body(body)) } : validator;
}

/** The operations whose body is a seed. */
const SEEDED = new Set<string>(["applySeed", "resetState"]);

/**
 * A snapshot given where a seed goes would be refused for its first field (`Unknown field
 * format`), which says nothing of what it is: say so, and how a snapshot is loaded.
 */
function refuseSnapshot(body: unknown) {
  const format = typeof body === "object" && body !== null ? (body as { format?: unknown }).format : undefined;
  if (typeof format !== "string" || !format.startsWith("intake-snapshot/")) return;
  throw new HttpError(
    400,
    "VALIDATION_ERROR",
    `This is a snapshot (format ${format}, what GET /__admin/snapshot gives), not a seed. Load it with PUT /__admin/snapshot, createIntake({ snapshot }) or intake-server --data-file FILE (which makes FILE an SQLite database holding its state and keeps the JSON as FILE.snapshot.json).`,
  );
}

/**
 * Checks a value given in code (createIntake's seed or fault rules, the CLI's) as the admin API
 * checks the same value in a request body, with errors saying what it was.
 */
export function bodyChecker(operationId: AdminOperationId, label: string): (value: unknown) => void {
  return (value) => {
    try {
      adminValidator(operationId).body(value);
    } catch (error) {
      if (error instanceof HttpError) throw new HttpError(400, error.code, `${label}: ${error.message}`);
      throw error;
    }
  };
}
