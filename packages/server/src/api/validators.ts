/**
 * The /v1 contract's validators (openapi.yaml): every operation in every auth form that may call
 * it, each from that form's view of the contract, so the body schema is that form's spelling.
 */
import { AUTH_SCHEMES, authFormView, bodySpellings, document, listOperations, type AuthForm, type OpenApiDocument } from "@intake/spec";
import {
  builtOperationSchemas,
  onFirstUse,
  operationCompiler,
  type OperationSchemas,
  type OperationValidator,
} from "../contract/validation.js";

/** The maker of each /v1 operation's validator in each auth form, by `key`; the generator calls every one. */
export function apiValidatorMakers(doc: OpenApiDocument, schemas: OperationSchemas): Map<string, () => OperationValidator> {
  const compile = operationCompiler(doc, "intake", schemas);
  const makers = new Map<string, () => OperationValidator>();
  const spellings = bodySpellings(doc);
  for (const [form, scheme] of Object.entries(AUTH_SCHEMES) as Array<[AuthForm, (typeof AUTH_SCHEMES)[AuthForm]]>) {
    for (const { path, method, operation, pathParameters } of listOperations(authFormView(doc, scheme))) {
      const otherToOwn = spellings.find((s) => s.path === path && s.method === method)?.otherToOwn[form];
      const other = new Map(Object.entries(otherToOwn ?? {}));
      const name = key(operation.operationId!, form);
      makers.set(name, () => compile(name, operation, pathParameters, { form, other }));
    }
  }
  return makers;
}

const key = (operationId: string, form: AuthForm) => `${operationId} ${form}`;

// Made on the first request, and shared by every Intake in the process: validators hold no state.
let validators: ((key: string) => OperationValidator | undefined) | undefined;

/** The validator of a /v1 operation in an auth form. */
export function apiValidator(operationId: string, form: AuthForm): OperationValidator {
  const validator = (validators ??= onFirstUse(apiValidatorMakers(document, builtOperationSchemas)))(key(operationId, form));
  if (!validator) throw new Error(`No validator for ${operationId} with the ${form} form`);
  return validator;
}
