/**
 * @intake/spec: the Intake API contract. Everything here is derived from openapi.yaml;
 * nothing is typed by hand.
 */
export type * from "./generated/openapi.js";
export type { paths as QueryPaths } from "./generated/query.js";
export type { paths as HeaderPaths } from "./generated/header.js";
export type { paths as BearerPaths } from "./generated/bearer.js";
export type { BodySpellings } from "./generated/spellings.js";
export { document } from "./generated/document.js";
export { bodySpellings, type BodySpelling } from "./spellings.js";
export {
  AUTH_SCHEMES,
  HTTP_METHODS,
  authFormView,
  listOperations,
  schemesOf,
  type AuthForm,
  type AuthScheme,
  type OpenApiDocument,
} from "./auth-forms.js";
