// Generated from openapi.yaml by packages/spec/scripts/generate.ts. Do not edit: run `npm run generate`.
import type { components } from "./openapi.js";

export interface paths {
    "/subaccounts/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant credits to a sub-account
         * @description Agency accounts only. Grants credits to the sub-account whose email matches. The key goes
         *     in the `x-api-key` header, never in the query. Call it after the payment that an
         *     auto-recharge webhook triggered; store that webhook's `idempotency_key` and check it
         *     before calling, so credits are not granted twice when the webhook arrives more than once.
         *
         *     **Reference behaviour:** 403 `NOT_AGENCY` when the key's account is not an agency; 404
         *     `SUBACCOUNT_NOT_FOUND` when the email matches none of its sub-accounts (case-insensitive);
         *     400 `INVALID_AMOUNT` for an amount that is not a positive finite number. An
         *     `Idempotency-Key` header makes a repeated grant with the same key return the first result
         *     (with `Idempotent-Replayed: true`) without granting twice; the same key with a different
         *     body is 400 `IDEMPOTENCY_KEY_REUSED`. Keys are remembered for 24 hours.
         */
        post: operations["grantSubaccountCredits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface operations {
    grantSubaccountCredits: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description A unique key for this grant, such as the auto-recharge webhook's `idempotency_key`.
                 * @example rch_2026-11-21_sub_8Lm3Qa_001
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GrantCreditsInput"];
            };
        };
        responses: {
            /** @description Credits were granted. */
            200: {
                headers: {
                    /** @description `true` when this is the stored result of an earlier request with the same `Idempotency-Key`. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GrantCreditsResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The key's account is not an agency. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            /** @description No sub-account of this agency has that email. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiError"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
}
