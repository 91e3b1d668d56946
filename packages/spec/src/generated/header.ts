// Generated from openapi.yaml by packages/spec/scripts/generate.ts. Do not edit: run `npm run generate`.
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
export interface components {
    schemas: {
        /**
         * @description Machine-readable error code of the general error shape. `INVALID_PHONE` is the
         *     interface's; the others are the reference server's decisions.
         * @enum {string}
         */
        ErrorCode: "INVALID_PHONE" | "VALIDATION_ERROR" | "WRONG_FIELD_SPELLING" | "BODY_TOO_LONG" | "INVALID_AMOUNT" | "IDEMPOTENCY_KEY_REUSED" | "INVALID_JSON" | "UNSUPPORTED_CONTENT_TYPE" | "PAYLOAD_TOO_LARGE" | "HTTPS_REQUIRED" | "MISSING_API_KEY" | "INVALID_API_KEY" | "WRONG_AUTH_FORM" | "NOT_AGENCY" | "NOT_FOUND" | "CONTACT_NOT_FOUND" | "LIST_NOT_FOUND" | "CAMPAIGN_NOT_FOUND" | "SUBACCOUNT_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "RATE_LIMITED" | "INTERNAL_ERROR";
        /** @description The error shape of the general API. */
        ApiError: {
            error: {
                code: components["schemas"]["ErrorCode"];
                /** @description What went wrong and what to do, for people. */
                message: string;
            };
        };
        /** @description The error shape of `POST /incoming_custom_channel_message`. */
        ReceiveError: {
            /** @description What went wrong and what to do, for people. */
            error: string;
        };
        /**
         * @description International format with the country code and a leading `+`, for example `+14155550123`. Spaces, dots, dashes and brackets are allowed; it is stored in E.164.
         * @example +14155550123
         */
        PhoneNumber: string;
        /**
         * Format: email
         * @example ada@example.com
         */
        Email: string;
        Name: string;
        /** @description **Reference behaviour:** any data relevant to the offer, as a flat object of at most 50 keys whose values are strings (up to 1000 characters), numbers, booleans or null. */
        CustomFields: {
            [key: string]: string | number | boolean | null;
        };
        ContactFields: {
            phone?: components["schemas"]["PhoneNumber"];
            email?: components["schemas"]["Email"];
            firstName?: components["schemas"]["Name"];
            lastName?: components["schemas"]["Name"];
            customFields?: components["schemas"]["CustomFields"];
        };
        /** @description A new contact, camelCase (query form). At least one of `phone` or `email`. */
        ContactInput: (components["schemas"]["ContactFields"] & {
            phone: components["schemas"]["PhoneNumber"];
        }) | (components["schemas"]["ContactFields"] & {
            email: components["schemas"]["Email"];
        });
        ContactFieldsSnake: {
            phone_number?: components["schemas"]["PhoneNumber"];
            email?: components["schemas"]["Email"];
            first_name?: components["schemas"]["Name"];
            last_name?: components["schemas"]["Name"];
            custom_fields?: components["schemas"]["CustomFields"];
        };
        /** @description A new contact, snake_case (Bearer form). At least one of `phone_number` or `email`. */
        ContactInputSnake: (components["schemas"]["ContactFieldsSnake"] & {
            phone_number: components["schemas"]["PhoneNumber"];
        }) | (components["schemas"]["ContactFieldsSnake"] & {
            email: components["schemas"]["Email"];
        });
        /** @description A contact. Absent values are `null`. */
        Contact: {
            /**
             * @description Assigned by the service (`ct_` prefix).
             * @example ct_7Hq2xK9mPw
             */
            id: string;
            firstName: string | null;
            lastName: string | null;
            /** @description E.164. */
            phone: string | null;
            email: string | null;
            customFields: components["schemas"]["CustomFields"];
            /**
             * Format: date-time
             * @description ISO 8601 UTC timestamp.
             */
            createdAt: string;
        };
        ContactLookup: {
            /** @constant */
            success: true;
            contactId: string;
            contact: components["schemas"]["Contact"];
        };
        /** @description The contact to add, camelCase (query form). */
        ListMemberInput: {
            /** @description The id of an existing contact. */
            contactId: string;
        };
        /** @description The contact to add, snake_case (Bearer form). */
        ListMemberInputSnake: {
            /** @description The id of an existing contact. */
            contact_id: string;
        };
        ListMembership: {
            /** @constant */
            success: true;
            listId: string;
            contactId: string;
            /** @description `false` when the contact was already in the list (nothing changed). */
            added: boolean;
            message: string;
        };
        /** @description Message text; not empty, not only whitespace, at most 4096 characters. */
        MessageBody: string;
        SendCustomChannelMessageInput: {
            customData: {
                /** @description The contact's id on the customer's platform (user id, email or phone number). */
                fromId: string;
                /** @description Name of the custom channel. */
                customChannel: string;
                body: components["schemas"]["MessageBody"];
                /** @description Routes to a campaign. */
                campaignId?: string;
                firstName?: components["schemas"]["Name"];
                lastName?: components["schemas"]["Name"];
                email?: components["schemas"]["Email"];
            };
        };
        SendCustomChannelMessageResult: {
            success: boolean;
            messageId: string;
            contactId: string;
            /** @description A confirmation text. */
            message: string;
        };
        ReceiveCustomDataFields: {
            /** @description Unique message id; a message is never processed twice. */
            messageSid?: string;
            /** @description Alternative name of `messageSid`. */
            id?: string;
            /** @description Sender id in the external system (user id, email or phone number). */
            fromId: string;
            /** @description Business identifier; any text. */
            toId: string;
            body: components["schemas"]["MessageBody"];
            /**
             * @description Defaults to `received`.
             * @default received
             */
            status?: string;
            /** @description Free label for the source. */
            channel?: string;
            /** @description Routes the message to a campaign and its bot configuration. */
            campaignId?: string;
            firstName?: components["schemas"]["Name"];
            lastName?: components["schemas"]["Name"];
            email?: components["schemas"]["Email"];
            /** @description A public `https://` file URL, or a data URL `data:<MIME_TYPE>;base64,<ENCODED_DATA>`. */
            mediaUrl?: string | null;
            /** @description MIME type of the file; required when `mediaUrl` is given; must match the content. */
            mediaContentType?: string | null;
            /** @description **Reference behaviour:** for `messageType: "reaction"`, the `messageSid` of the message reacted to. */
            reactionTo?: string;
        };
        ReceiveCustomData: (components["schemas"]["ReceiveCustomDataFields"] & {
            messageSid: string;
        }) | (components["schemas"]["ReceiveCustomDataFields"] & {
            id: string;
        });
        ReceiveCustomChannelMessageInput: {
            customData: components["schemas"]["ReceiveCustomData"];
            /**
             * @description Omit for text; `reaction` for emoji reactions.
             * @enum {string}
             */
            messageType?: "text" | "reaction";
        };
        ReceiveCustomChannelMessageResult: {
            success: boolean;
            messageId: string;
            /** @description **Reference behaviour:** `true` when this `messageSid` was already processed; the `messageId` is the first message's. */
            duplicate?: boolean;
        };
        GrantCreditsInput: {
            email: components["schemas"]["Email"];
            /** @description Number of credits to grant; a positive number. */
            amount: number;
            /** @description Shown in the credit transaction history. */
            description?: string;
        };
        GrantCreditsResult: {
            success: boolean;
            sub_account_id: string;
            credits_added: number;
            new_balance: number;
        };
        ReplyWebhookPayload: {
            /** @description The service's internal contact id. */
            contactId: string;
            /** @description The message's id in the service. */
            messageId: string;
            /** @description The account owner's user id. */
            userId: string;
            /** @description Reply text. */
            body: string;
            /** @description The contact's id on the customer's platform; equals the `fromId` of the inbound message. */
            toId: string;
            /** @description The custom channel label. */
            channel: string;
        };
        AutoRechargeWebhookPayload: {
            /** @description The same for every delivery of this recharge; check it before granting credits. */
            idempotency_key: string;
            sub_account_id: string;
            /**
             * Format: email
             * @description The sub-account's email, as `POST /subaccounts/credits` takes it.
             */
            email: string;
            /** @description Credits to buy (the sub-account's auto-recharge amount). */
            amount: number;
            /** @description The balance that fell below the threshold. */
            balance: number;
            threshold: number;
        };
    };
    responses: {
        /** @description A parameter is wrong. The message names the field and what was expected. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Missing, invalid or rotated API key, or the key in a form this operation does not accept. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description The path does not support this method; `Allow` lists the ones it does. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Rate limit exceeded; wait for `Retry-After` seconds. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
        /** @description Server error. The body never carries internal details. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ApiError"];
            };
        };
    };
    parameters: {
        /**
         * @description Unique id of the event; the same on every retry of it.
         * @example msg_6Vb2nHs8Lp
         */
        WebhookId: string;
        /**
         * @description Unix time in seconds of this attempt; reject ones far from your clock.
         * @example 1795253400
         */
        WebhookTimestamp: string;
        /**
         * @description Space-separated signatures `v1,<base64>`: HMAC-SHA256 with the base64-decoded secret (after `whsec_`) of `<webhook-id>.<webhook-timestamp>.<raw body>`.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        WebhookSignature: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The methods the path supports.
         * @example POST
         */
        Allow: string;
        /**
         * @description Seconds to wait before retrying.
         * @example 12
         */
        "Retry-After": number;
        /**
         * @description Requests allowed per key per window (one minute).
         * @example 120
         */
        "RateLimit-Limit": number;
        /**
         * @description Requests left in the current window.
         * @example 0
         */
        "RateLimit-Remaining": number;
        /**
         * @description Seconds until the window resets.
         * @example 12
         */
        "RateLimit-Reset": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
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
