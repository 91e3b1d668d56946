// Generated from openapi.yaml by packages/spec/scripts/generate.ts. Do not edit: run `npm run generate`.
export interface paths {
    "/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up a contact
         * @description Looks a contact up by phone number or by email.
         *
         *     **Reference behaviour** (response not shown by the interface): 200
         *     `{ success: true, contactId, contact }`; 404 `CONTACT_NOT_FOUND` when no contact matches;
         *     400 `VALIDATION_ERROR` when neither or both of `phoneNumber` and `email` are given. The
         *     phone number is normalised to E.164 before matching (an unparseable one is 400
         *     `INVALID_PHONE`); emails match case-insensitively. The query parameters keep this spelling
         *     in every auth form (the Bearer form's snake_case applies to request bodies); a
         *     `phone_number` parameter is 400 `WRONG_FIELD_SPELLING`.
         */
        get: operations["findContact"];
        put?: never;
        /**
         * Create a contact
         * @description Creates a contact. At least one of the phone number or email is required. The phone number
         *     must be in international format with its country code and a leading `+`.
         *
         *     If a contact with the same phone number exists, that contact is returned instead (200) and
         *     no duplicate is made. **Reference behaviour:** phone numbers are parsed with
         *     libphonenumber-js, stored and matched in E.164, so `+44 20 7946 0958` and `+442079460958`
         *     are the same contact. An email-only create with an email already on a contact also returns
         *     that contact (200). A new contact answers 201. Absent fields are `null` in the response.
         *     The existing contact is returned unchanged: a second create does not update its fields.
         *     Responses are camelCase in every auth form (snake_case applies to request bodies only).
         *
         *     With `?apiKey=` the body is camelCase (`phone`, `firstName`, `lastName`, `email`,
         *     `customFields`); with `Authorization: Bearer` it is snake_case (`phone_number`,
         *     `first_name`, `last_name`, `email`, `custom_fields`).
         *
         *     **Reference behaviour:** custom fields (names and format not shown by the interface) are
         *     an optional flat object of string, number, boolean or null values, at most 50 keys, stored
         *     and returned as sent. Unknown top-level fields are a 400 `VALIDATION_ERROR` naming them.
         */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/lists/{listId}/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a contact to a list
         * @description Adds an existing contact to a list. If the list is linked to a campaign that is Live and
         *     whose setting `Trigger on New Contacts Added to List` is on, the campaign's opening message
         *     is sent: at once when 1 to 3 contacts are added at once, through a queue at a safe rate
         *     when 4 or more are.
         *
         *     With `?apiKey=` the body is `{ contactId }`; with `Authorization: Bearer` it is
         *     `{ contact_id }`.
         *
         *     **Reference behaviour** (response not shown by the interface): 201
         *     `{ success, listId, contactId, added: true, message }` when the contact joins the list;
         *     200 with `added: false` and a message saying so when it is already a member (nothing else
         *     happens, the trigger does not fire twice); 404 `LIST_NOT_FOUND` or `CONTACT_NOT_FOUND`.
         */
        post: operations["addContactToList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/send_custom_channel_message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a custom-channel message
         * @description Records a message that the customer's own system sends to a contact on a custom channel.
         *     The contact is identified by `fromId` (its id on the customer's platform): the same
         *     `fromId` always maps to the same contact, a new one creates a contact, using `firstName`,
         *     `lastName` and `email` only when it is created.
         *
         *     **Reference behaviour:** the message is recorded in the conversation as outbound (the
         *     customer's system delivered it); no reply webhook is sent for it. `body` is at most 4096
         *     characters (400 `BODY_TOO_LONG`) and must not be empty or whitespace-only. An unknown
         *     `campaignId` is 404 `CAMPAIGN_NOT_FOUND`.
         */
        post: operations["sendCustomChannelMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/incoming_custom_channel_message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a custom-channel message
         * @description Accepts a message that a user sent on the customer's platform. Processing: (1) the contact
         *     is created or updated, (2) the message is stored, (3) the AI bot generates a response if it
         *     is active, (4) the reply is delivered to the customer's Custom Channel Webhook URL (see
         *     the `customChannelReply` webhook). Errors on this endpoint are `{ "error": "<message>" }`.
         *
         *     The method must be POST: any other method gets 405 with `Allow: POST`.
         *
         *     **Reference behaviour:**
         *     - A `messageSid` (or `id`) already processed answers 200 with the first message's
         *       `messageId` and `duplicate: true`; nothing is stored, replied to or delivered twice.
         *     - A reaction is `messageType: "reaction"` with the emoji in `customData.body` and the
         *       reacted-to message's sid in `customData.reactionTo`; the bot does not answer reactions.
         *     - `customData.status` is any label up to 32 characters, `received` when omitted.
         *     - `body` is at most 4096 characters.
         *     - `mediaUrl` is a public `https://` or `http://` URL (stored as given, not fetched) or a data URL
         *       `data:<MIME_TYPE>;base64,<DATA>` of at most 16 MiB decoded; `mediaContentType` is
         *       required with it, must equal the data URL's type and must match the bytes, which are
         *       sniffed. A mismatch is 400.
         *     - `campaignId` routes to that campaign; an unknown one is 404. Without it, the account's
         *       default campaign answers.
         */
        post: operations["receiveCustomChannelMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
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
export interface webhooks {
    customChannelReply: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A reply on a custom channel (outgoing)
         * @description Sent to the URL of the account's Custom Channel Webhook setting for every reply on a custom
         *     channel, from the AI bot or typed by a human in the app. Nothing is sent for incoming
         *     messages. The URL must be publicly reachable and return a success response; the message
         *     then becomes Sent, otherwise Failed with the error details stored on it.
         *
         *     **Reference behaviour:** signed per Standard Webhooks with the account's webhook secret
         *     (`whsec_...`): `webhook-signature` is `v1,<base64 HMAC-SHA256 of
         *     "<webhook-id>.<webhook-timestamp>.<body>">`. A 2xx within 10 seconds is success. An error
         *     status, a timeout or a refused connection is retried with exponential backoff and jitter
         *     (honouring `Retry-After`), up to 6 attempts, with the same `webhook-id`; after the last
         *     one the message is Failed.
         */
        post: operations["customChannelReplyWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    subaccountAutoRecharge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A sub-account needs credits (outgoing, agency accounts)
         * @description Sent to the agency's auto-recharge URL. After taking payment, the agency calls
         *     `POST /subaccounts/credits`. The same webhook can arrive more than once: store its
         *     `idempotency_key` and check it before granting credits.
         *
         *     **Reference behaviour** (payload and trigger not shown by the interface): sent once each
         *     time a sub-account's balance falls below its auto-recharge threshold; carries the
         *     sub-account's id and email, the amount to buy, the balance and the threshold. Signed and
         *     retried like `customChannelReply`. A retry or an intentional duplicate carries the same
         *     `idempotency_key`.
         */
        post: operations["subaccountAutoRechargeWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
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
         * @description International format with the country code and a leading `+`, for example `+14155550123`. Spaces, dots, dashes and brackets are allowed; it is stored in E.164. There is no schema pattern on purpose: the service parses the number with a phone library and answers 400 `INVALID_PHONE` (not a generic validation error) when the country code is missing or not valid, or the number is not a possible length for it.
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
            /** @description A public file URL (`https://` or `http://`), or a data URL `data:<MIME_TYPE>;base64,<ENCODED_DATA>`. */
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
            /** @description Number of credits to grant; a positive number. **Reference behaviour:** at most 1,000,000,000 in one grant (400 `INVALID_AMOUNT` above). */
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
export type ErrorCode = components['schemas']['ErrorCode'];
export type ApiError = components['schemas']['ApiError'];
export type ReceiveError = components['schemas']['ReceiveError'];
export type PhoneNumber = components['schemas']['PhoneNumber'];
export type Email = components['schemas']['Email'];
export type Name = components['schemas']['Name'];
export type CustomFields = components['schemas']['CustomFields'];
export type ContactFields = components['schemas']['ContactFields'];
export type ContactInput = components['schemas']['ContactInput'];
export type ContactFieldsSnake = components['schemas']['ContactFieldsSnake'];
export type ContactInputSnake = components['schemas']['ContactInputSnake'];
export type Contact = components['schemas']['Contact'];
export type ContactLookup = components['schemas']['ContactLookup'];
export type ListMemberInput = components['schemas']['ListMemberInput'];
export type ListMemberInputSnake = components['schemas']['ListMemberInputSnake'];
export type ListMembership = components['schemas']['ListMembership'];
export type MessageBody = components['schemas']['MessageBody'];
export type SendCustomChannelMessageInput = components['schemas']['SendCustomChannelMessageInput'];
export type SendCustomChannelMessageResult = components['schemas']['SendCustomChannelMessageResult'];
export type ReceiveCustomDataFields = components['schemas']['ReceiveCustomDataFields'];
export type ReceiveCustomData = components['schemas']['ReceiveCustomData'];
export type ReceiveCustomChannelMessageInput = components['schemas']['ReceiveCustomChannelMessageInput'];
export type ReceiveCustomChannelMessageResult = components['schemas']['ReceiveCustomChannelMessageResult'];
export type GrantCreditsInput = components['schemas']['GrantCreditsInput'];
export type GrantCreditsResult = components['schemas']['GrantCreditsResult'];
export type ReplyWebhookPayload = components['schemas']['ReplyWebhookPayload'];
export type AutoRechargeWebhookPayload = components['schemas']['AutoRechargeWebhookPayload'];
export type ResponseBadRequest = components['responses']['BadRequest'];
export type ResponseUnauthorized = components['responses']['Unauthorized'];
export type ResponseMethodNotAllowed = components['responses']['MethodNotAllowed'];
export type ResponseTooManyRequests = components['responses']['TooManyRequests'];
export type ResponseInternalError = components['responses']['InternalError'];
export type ParameterWebhookId = components['parameters']['WebhookId'];
export type ParameterWebhookTimestamp = components['parameters']['WebhookTimestamp'];
export type ParameterWebhookSignature = components['parameters']['WebhookSignature'];
export type HeaderAllow = components['headers']['Allow'];
export type HeaderRetryAfter = components['headers']['Retry-After'];
export type HeaderRateLimitLimit = components['headers']['RateLimit-Limit'];
export type HeaderRateLimitRemaining = components['headers']['RateLimit-Remaining'];
export type HeaderRateLimitReset = components['headers']['RateLimit-Reset'];
export type $defs = Record<string, never>;
export interface operations {
    findContact: {
        parameters: {
            query?: {
                /**
                 * @description Phone number with country code, for example `+14155550123`.
                 * @example +14155550123
                 */
                phoneNumber?: string;
                /** @description Email address. */
                email?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact that matches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactLookup"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description No contact matches. */
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
    createContact: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactInput"] | components["schemas"]["ContactInputSnake"];
            };
        };
        responses: {
            /** @description A contact with this phone number (or, for an email-only create, this email) already exists; it is returned unchanged and no duplicate is made. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description The contact was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            405: components["responses"]["MethodNotAllowed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    addContactToList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The list identifier, as shown in the dashboard under Contacts > Lists.
                 * @example lst_Funnel2026
                 */
                listId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ListMemberInput"] | components["schemas"]["ListMemberInputSnake"];
            };
        };
        responses: {
            /** @description The contact was already a member; nothing changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListMembership"];
                };
            };
            /** @description The contact joined the list. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListMembership"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The list or the contact does not exist in this account. */
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
    sendCustomChannelMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendCustomChannelMessageInput"];
            };
        };
        responses: {
            /** @description The message was recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendCustomChannelMessageResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description The `campaignId` matches no campaign of this account. */
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
    receiveCustomChannelMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReceiveCustomChannelMessageInput"];
            };
        };
        responses: {
            /** @description Message received and being processed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiveCustomChannelMessageResult"];
                };
            };
            /** @description A required field is missing, the body is empty or whitespace-only, or a field is not valid. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiveError"];
                };
            };
            /** @description Missing or invalid API key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiveError"];
                };
            };
            /** @description The `campaignId` matches no campaign of this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiveError"];
                };
            };
            /** @description A method other than POST was used. */
            405: {
                headers: {
                    Allow: components["headers"]["Allow"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiveError"];
                };
            };
            /** @description Rate limit exceeded; wait for `Retry-After` seconds. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiveError"];
                };
            };
            /** @description Server error. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiveError"];
                };
            };
        };
    };
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
    customChannelReplyWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of it.
                 * @example msg_6Vb2nHs8Lp
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt; reject ones far from your clock.
                 * @example 1795253400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures `v1,<base64>`: HMAC-SHA256 with the base64-decoded secret (after `whsec_`) of `<webhook-id>.<webhook-timestamp>.<raw body>`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplyWebhookPayload"];
            };
        };
        responses: {
            /** @description Received. Any 2xx status counts as success; the body is ignored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status (or no answer) is a failed attempt, retried. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subaccountAutoRechargeWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Unique id of the event; the same on every retry of it.
                 * @example msg_6Vb2nHs8Lp
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description Unix time in seconds of this attempt; reject ones far from your clock.
                 * @example 1795253400
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures `v1,<base64>`: HMAC-SHA256 with the base64-decoded secret (after `whsec_`) of `<webhook-id>.<webhook-timestamp>.<raw body>`.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AutoRechargeWebhookPayload"];
            };
        };
        responses: {
            /** @description Received. Any 2xx status counts as success. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other status (or no answer) is a failed attempt, retried. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
