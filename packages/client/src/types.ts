/**
 * Type plumbing from the generated per-form views of the contract. Every request and response
 * type below is looked up in @intake/spec; none is written by hand.
 */
import type { AuthForm, BearerPaths, HeaderPaths, QueryPaths } from "@intake/spec";
import type { FetchResponse } from "openapi-fetch";

/** The operations, and their field spelling, that each auth form may use. */
export interface PathsByForm {
  query: QueryPaths;
  header: HeaderPaths;
  bearer: BearerPaths;
}

/** Forms that may call a path with a method. */
export type FormsWith<P extends string, M extends string> = {
  [F in AuthForm]: P extends keyof PathsByForm[F] ? (PathsByForm[F][P] extends Record<M, object> ? F : never) : never;
}[AuthForm];

type Operation<Paths, P extends keyof Paths, M extends keyof Paths[P]> = NonNullable<Paths[P][M]>;

export type JsonBody<Paths, P extends keyof Paths, M extends keyof Paths[P]> =
  Operation<Paths, P, M> extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

export type JsonData<Paths, P extends keyof Paths, M extends keyof Paths[P]> =
  Operation<Paths, P, M> extends Record<string | number, unknown>
    ? NonNullable<FetchResponse<Operation<Paths, P, M>, object, "application/json">["data"]>
    : never;

export type QueryOf<Paths, P extends keyof Paths, M extends keyof Paths[P]> =
  Operation<Paths, P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** Exactly one of the keys of T: `{ a }` or `{ b }`, never both, never neither. */
export type ExactlyOne<T> = {
  [K in keyof T]-?: { [P in K]-?: NonNullable<T[P]> } & { [P in Exclude<keyof T, K>]?: never };
}[keyof T];

type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/**
 * B, with the field names of the other spelling forbidden: excess-property checks only catch
 * object literals, so without this a variable carrying `phone` would pass as a Bearer body. Each
 * forbidden field's type is the message TypeScript quotes when it is given: "phone_number is the
 * bearer form's spelling: use phone" (`Own` maps the other spelling's fields to this form's).
 */
export type Forbid<B, Other, Own, OtherForm extends string> = B extends unknown
  ? B & {
      [K in Exclude<KeysOfUnion<Other>, KeysOfUnion<B>>]?: K extends keyof Own & string
        ? `${K} is the ${OtherForm} form's spelling: use ${Own[K] & string}`
        : never;
    }
  : never;

/** The contract's rule "mediaContentType is required when mediaUrl is given", which its types cannot say. */
type MediaRule = { mediaUrl?: null; mediaContentType?: string | null } | { mediaUrl: string; mediaContentType: string };

/**
 * The receive body a call takes, worked out from the body given (B): one whose customData has a
 * mediaUrl but no mediaContentType is told the rule by name, where the contract's union alone
 * would have TypeScript report whichever member it tried last ("Property 'id' is missing").
 */
export type MediaChecked<Body, B> = B extends { customData: { mediaUrl: string } }
  ? B extends { customData: { mediaContentType: string } }
    ? Body
    : B & { customData: { mediaContentType: "mediaContentType is required with mediaUrl: the file's MIME type, such as image/png" } }
  : Body;

export type WithMediaRule<B> = B extends { customData: infer C }
  ? Omit<B, "customData"> & { customData: C extends unknown ? Omit<C, "mediaUrl" | "mediaContentType"> & MediaRule : never }
  : never;
