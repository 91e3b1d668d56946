// Generated from openapi.yaml by packages/spec/scripts/generate.ts. Do not edit: run `npm run generate`.
import type { components } from "./openapi.js";

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
}
export type webhooks = Record<string, never>;
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
                "application/json": components["schemas"]["ContactInput"];
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
                "application/json": components["schemas"]["ListMemberInput"];
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
}
