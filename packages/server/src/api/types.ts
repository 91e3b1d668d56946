/** What a /v1 operation receives and returns; request and response bodies are the contract's types. */
import type { AuthForm, operations, paths } from "@intake/spec";
import type { Domain } from "../domain/domain.js";
import type { AccountRecord } from "../store/models.js";

type PathOperation = {
  [P in keyof paths]: { [M in keyof paths[P]]: M extends "parameters" ? never : NonNullable<paths[P][M]> }[keyof paths[P]];
}[keyof paths];

/** The operations under /v1 (the contract's webhooks are operations too, sent rather than served). */
export type OperationId = { [K in keyof operations]: operations[K] extends PathOperation ? K : never }[keyof operations];

export type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody: { content: { "application/json": infer B } } }
  ? B
  : undefined;

type Responses<Id extends OperationId> = operations[Id]["responses"];
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** One of the operation's 2xx responses, with its body. */
export type Success<Id extends OperationId> = {
  [S in keyof Responses<Id>]: S extends 200 | 201 ? { status: S; body: JsonOf<Responses<Id>[S]>; headers?: Record<string, string> } : never;
}[keyof Responses<Id>];

export interface OperationInput<Id extends OperationId> {
  account: AccountRecord;
  form: AuthForm;
  body: BodyOf<Id>;
  query: Record<string, string>;
  params: Record<string, string>;
  /** The request's headers, by name, case-insensitive. */
  headers: { get(name: string): string | null };
}

export type Handler<Id extends OperationId> = (input: OperationInput<Id>, domain: Domain) => Success<Id> | Promise<Success<Id>>;
