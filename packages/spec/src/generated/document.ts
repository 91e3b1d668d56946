// Generated from openapi.yaml by packages/spec/scripts/generate.ts. Do not edit: run `npm run generate`.
import type { OpenApiDocument } from "../auth-forms.js";

export const document: OpenApiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Contact, Messaging and Funnel Intake API",
    "version": "1.0.0",
    "summary": "Contacts, lists, custom-channel messages and sub-account credits.",
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    },
    "description": "The HTTP interface of the Contact, Messaging and Funnel Intake service: create and look up\ncontacts, add them to campaign lists (which can trigger a funnel's opening message), send and\nreceive messages on a custom channel, and grant credits to agency sub-accounts. Replies are\ndelivered to the customer's platform through the outgoing webhooks described under `webhooks`.\n\nThis document is the single source of truth for the Intake SDK (`@intake/client`) and the\nreference server (`@intake/server`). Where the service's interface says \"not shown\", the\nreference behaviour chosen by the Intake project is stated in the description of the element\nit applies to, prefixed with **Reference behaviour**.\n\n## Authentication\nEvery request carries the account's API key, in one of three forms. Which forms an operation\naccepts is given by its `security` list:\n\n| Form | Where the key goes | Operations | Field spelling |\n|---|---|---|---|\n| `apiKeyQuery` | `?apiKey=<API_KEY>` | contacts, list membership, send, receive | camelCase |\n| `apiKeyHeader` | `x-api-key: <API_KEY>` | `/subaccounts/credits` only | as shown |\n| `bearerAuth` | `Authorization: Bearer <API_KEY>` | `POST /contacts`, `GET /contacts`, `POST /lists/{listId}/contacts` | snake_case |\n\n**Reference behaviour:** a key sent in a form the operation does not accept is rejected with\n401 `WRONG_AUTH_FORM`, whose message names the accepted forms. A request body in the other\nform's spelling (for example `phone_number` with `?apiKey=`) is rejected with 400\n`WRONG_FIELD_SPELLING`, whose message names the expected field. Generating a new key\ninvalidates the old one at once (401 `INVALID_API_KEY`). Each key belongs to one account, and\nno account sees another's data.\n\nOnly HTTPS is accepted. **Reference behaviour:** plain HTTP gets 400 `HTTPS_REQUIRED`; behind\na TLS-terminating proxy the server trusts `X-Forwarded-Proto: https` only when configured to.\n\n## Errors\nTwo body shapes occur: `{ \"error\": { \"code\", \"message\" } }` on every operation except\n`POST /incoming_custom_channel_message`, which answers `{ \"error\": \"<message>\" }`.\n**Reference behaviour:** malformed JSON (`INVALID_JSON`), a content type other than\n`application/json` (`UNSUPPORTED_CONTENT_TYPE`) and a request body over 32 MiB\n(`PAYLOAD_TOO_LARGE`) are 400 errors in the operation's shape; a 500 never carries a stack\ntrace; a rejected request changes no stored data. A known path with a method it does not\nsupport gets 405 with an `Allow` header; an unknown path gets 404 `NOT_FOUND`.\n\n## Rate limit\nRequests are limited per API key per minute. **Reference behaviour:** 120 requests per key per\nminute by default (configurable on the reference server). Exceeding it returns 429 in the\noperation's error shape with `Retry-After` (seconds) and the `RateLimit-Limit`,\n`RateLimit-Remaining` and `RateLimit-Reset` headers.\n\n## Funnels and conversations\nCampaigns, lists, the Custom Channel Webhook URL, sub-accounts, keys and replies typed by a\nhuman are dashboard features, outside `/v1`. **Reference behaviour** (the reference server\noffers them as an admin API under `/__admin` with its own token, and as a seed file):\n- Campaign types are Incoming, Outgoing and Combined; states are Draft, Live, Paused and\n  Completed; only a Live campaign sends. An opening template that is not approved is not sent,\n  and the reason is recorded.\n- Contacts added to one list within a short burst window count as added \"at once\": 1 to 3 are\n  sent the opening message immediately, 4 or more are queued and sent at a configurable safe\n  rate. The trigger fires the same way for API adds, imports and manual adds.\n- Follow-ups go to leads who do not answer, after quiet times of 24 hours, 72 hours and 7 days\n  by default, up to 3 cycles of up to 3 messages; a reply from the contact cancels the rest.\n- The bot is pluggable; the default one is deterministic (FAQ match, conversation goal, and a\n  hand-off phrase that alerts a team member and pauses the bot for that contact).\n- Every account has a credit balance: the first outgoing message to a contact costs 1 credit,\n  each bot reply 1. At zero the bot stops and the reason is recorded.\n\n## Identifiers\n**Reference behaviour:** ids are opaque strings prefixed by kind: `ct_` contacts, `msg_`\nmessages, `lst_` lists, `cmp_` campaigns, `sub_` sub-accounts, so a misplaced id is obvious.\n\n## Versioning\nThe version is the path segment `/v1` of the base address. Version policy and deprecation:\nnot shown.\n"
  },
  "servers": [
    {
      "url": "https://{host}/v1",
      "description": "The service. The reference server prints its own `https://127.0.0.1:<port>/v1` at start.",
      "variables": {
        "host": {
          "default": "127.0.0.1:8443",
          "description": "Host (and port) of the service."
        }
      }
    }
  ],
  "tags": [
    {
      "name": "Contacts",
      "description": "Leads and customers, identified by phone number or email."
    },
    {
      "name": "Lists",
      "description": "Contact lists. A list may be linked to a campaign; adding a contact to it can trigger the campaign's opening message."
    },
    {
      "name": "Messages",
      "description": "Messages on a custom channel, the customer's own messaging system."
    },
    {
      "name": "Subaccounts",
      "description": "Agency accounts and the credits of their sub-accounts."
    }
  ],
  "paths": {
    "/contacts": {
      "post": {
        "operationId": "createContact",
        "tags": [
          "Contacts"
        ],
        "summary": "Create a contact",
        "description": "Creates a contact. At least one of the phone number or email is required. The phone number\nmust be in international format with its country code and a leading `+`.\n\nIf a contact with the same phone number exists, that contact is returned instead (200) and\nno duplicate is made. **Reference behaviour:** phone numbers are parsed with\nlibphonenumber-js, stored and matched in E.164, so `+44 20 7946 0958` and `+442079460958`\nare the same contact. An email-only create with an email already on a contact also returns\nthat contact (200). A new contact answers 201. Absent fields are `null` in the response.\nThe existing contact is returned unchanged: a second create does not update its fields.\nResponses are camelCase in every auth form (snake_case applies to request bodies only).\n\nWith `?apiKey=` the body is camelCase (`phone`, `firstName`, `lastName`, `email`,\n`customFields`); with `Authorization: Bearer` it is snake_case (`phone_number`,\n`first_name`, `last_name`, `email`, `custom_fields`).\n\n**Reference behaviour:** custom fields (names and format not shown by the interface) are\nan optional flat object of string, number, boolean or null values, at most 50 keys, stored\nand returned as sent. Unknown top-level fields are a 400 `VALIDATION_ERROR` naming them.\n",
        "security": [
          {
            "apiKeyQuery": []
          },
          {
            "bearerAuth": []
          }
        ],
        "x-intake-body-by-auth": {
          "apiKeyQuery": "ContactInput",
          "bearerAuth": "ContactInputSnake"
        },
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "anyOf": [
                  {
                    "$ref": "#/components/schemas/ContactInput"
                  },
                  {
                    "$ref": "#/components/schemas/ContactInputSnake"
                  }
                ]
              },
              "examples": {
                "camelCase": {
                  "summary": "Query form (`?apiKey=`), camelCase",
                  "value": {
                    "phone": "+14155550123",
                    "firstName": "Ada",
                    "lastName": "Lovelace",
                    "email": "ada@example.com"
                  }
                },
                "snake_case": {
                  "summary": "Bearer form, snake_case",
                  "value": {
                    "phone_number": "+14155550123",
                    "first_name": "Ada",
                    "last_name": "Lovelace",
                    "email": "ada@example.com"
                  }
                },
                "emailOnly": {
                  "summary": "Email only",
                  "value": {
                    "email": "ada@example.com"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "A contact with this phone number (or, for an email-only create, this email) already exists; it is returned unchanged and no duplicate is made.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Contact"
                },
                "examples": {
                  "existing": {
                    "$ref": "#/components/examples/Contact"
                  }
                }
              }
            }
          },
          "201": {
            "description": "The contact was created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Contact"
                },
                "examples": {
                  "created": {
                    "$ref": "#/components/examples/Contact"
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          }
        }
      },
      "get": {
        "operationId": "findContact",
        "tags": [
          "Contacts"
        ],
        "summary": "Look up a contact",
        "description": "Looks a contact up by phone number or by email.\n\n**Reference behaviour** (response not shown by the interface): 200\n`{ success: true, contactId, contact }`; 404 `CONTACT_NOT_FOUND` when no contact matches;\n400 `VALIDATION_ERROR` when neither or both of `phoneNumber` and `email` are given. The\nphone number is normalised to E.164 before matching (an unparseable one is 400\n`INVALID_PHONE`); emails match case-insensitively. The query parameters keep this spelling\nin every auth form (the Bearer form's snake_case applies to request bodies); a\n`phone_number` parameter is 400 `WRONG_FIELD_SPELLING`.\n",
        "security": [
          {
            "apiKeyQuery": []
          },
          {
            "bearerAuth": []
          }
        ],
        "parameters": [
          {
            "name": "phoneNumber",
            "in": "query",
            "required": false,
            "description": "Phone number with country code, for example `+14155550123`.",
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 64
            },
            "example": "+14155550123"
          },
          {
            "name": "email",
            "in": "query",
            "required": false,
            "description": "Email address.",
            "schema": {
              "type": "string",
              "format": "email",
              "maxLength": 254
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The contact that matches.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ContactLookup"
                },
                "examples": {
                  "found": {
                    "value": {
                      "success": true,
                      "contactId": "ct_7Hq2xK9mPw",
                      "contact": {
                        "id": "ct_7Hq2xK9mPw",
                        "firstName": "Ada",
                        "lastName": "Lovelace",
                        "phone": "+14155550123",
                        "email": "ada@example.com",
                        "customFields": {},
                        "createdAt": "2026-11-21T09:30:00.000Z"
                      }
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "No contact matches.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ApiError"
                },
                "examples": {
                  "contactNotFound": {
                    "value": {
                      "error": {
                        "code": "CONTACT_NOT_FOUND",
                        "message": "No contact with phone number +14155550123."
                      }
                    }
                  }
                }
              }
            }
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          }
        }
      }
    },
    "/lists/{listId}/contacts": {
      "post": {
        "operationId": "addContactToList",
        "tags": [
          "Lists"
        ],
        "summary": "Add a contact to a list",
        "description": "Adds an existing contact to a list. If the list is linked to a campaign that is Live and\nwhose setting `Trigger on New Contacts Added to List` is on, the campaign's opening message\nis sent: at once when 1 to 3 contacts are added at once, through a queue at a safe rate\nwhen 4 or more are.\n\nWith `?apiKey=` the body is `{ contactId }`; with `Authorization: Bearer` it is\n`{ contact_id }`.\n\n**Reference behaviour** (response not shown by the interface): 201\n`{ success, listId, contactId, added: true, message }` when the contact joins the list;\n200 with `added: false` and a message saying so when it is already a member (nothing else\nhappens, the trigger does not fire twice); 404 `LIST_NOT_FOUND` or `CONTACT_NOT_FOUND`.\n",
        "security": [
          {
            "apiKeyQuery": []
          },
          {
            "bearerAuth": []
          }
        ],
        "x-intake-body-by-auth": {
          "apiKeyQuery": "ListMemberInput",
          "bearerAuth": "ListMemberInputSnake"
        },
        "parameters": [
          {
            "name": "listId",
            "in": "path",
            "required": true,
            "description": "The list identifier, as shown in the dashboard under Contacts > Lists.",
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            },
            "example": "lst_Funnel2026"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "anyOf": [
                  {
                    "$ref": "#/components/schemas/ListMemberInput"
                  },
                  {
                    "$ref": "#/components/schemas/ListMemberInputSnake"
                  }
                ]
              },
              "examples": {
                "camelCase": {
                  "summary": "Query form (`?apiKey=`), camelCase",
                  "value": {
                    "contactId": "ct_7Hq2xK9mPw"
                  }
                },
                "snake_case": {
                  "summary": "Bearer form, snake_case",
                  "value": {
                    "contact_id": "ct_7Hq2xK9mPw"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The contact was already a member; nothing changed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ListMembership"
                },
                "examples": {
                  "alreadyMember": {
                    "value": {
                      "success": true,
                      "listId": "lst_Funnel2026",
                      "contactId": "ct_7Hq2xK9mPw",
                      "added": false,
                      "message": "Contact is already in the list; nothing changed."
                    }
                  }
                }
              }
            }
          },
          "201": {
            "description": "The contact joined the list.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ListMembership"
                },
                "examples": {
                  "added": {
                    "value": {
                      "success": true,
                      "listId": "lst_Funnel2026",
                      "contactId": "ct_7Hq2xK9mPw",
                      "added": true,
                      "message": "Contact added to the list."
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "The list or the contact does not exist in this account.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ApiError"
                },
                "examples": {
                  "listNotFound": {
                    "value": {
                      "error": {
                        "code": "LIST_NOT_FOUND",
                        "message": "No list with id lst_Funnel2026."
                      }
                    }
                  },
                  "contactNotFound": {
                    "value": {
                      "error": {
                        "code": "CONTACT_NOT_FOUND",
                        "message": "No contact with id ct_7Hq2xK9mPw."
                      }
                    }
                  }
                }
              }
            }
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          }
        }
      }
    },
    "/send_custom_channel_message": {
      "post": {
        "operationId": "sendCustomChannelMessage",
        "tags": [
          "Messages"
        ],
        "summary": "Send a custom-channel message",
        "description": "Records a message that the customer's own system sends to a contact on a custom channel.\nThe contact is identified by `fromId` (its id on the customer's platform): the same\n`fromId` always maps to the same contact, a new one creates a contact, using `firstName`,\n`lastName` and `email` only when it is created.\n\n**Reference behaviour:** the message is recorded in the conversation as outbound (the\ncustomer's system delivered it); no reply webhook is sent for it. `body` is at most 4096\ncharacters (400 `BODY_TOO_LONG`) and must not be empty or whitespace-only. An unknown\n`campaignId` is 404 `CAMPAIGN_NOT_FOUND`.\n",
        "security": [
          {
            "apiKeyQuery": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SendCustomChannelMessageInput"
              },
              "examples": {
                "message": {
                  "value": {
                    "customData": {
                      "fromId": "user-4821",
                      "customChannel": "acme-chat",
                      "body": "Hi Ada, your demo is booked for Tuesday at 10:00.",
                      "campaignId": "cmp_SpringFunnel",
                      "firstName": "Ada",
                      "lastName": "Lovelace",
                      "email": "ada@example.com"
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The message was recorded.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SendCustomChannelMessageResult"
                },
                "examples": {
                  "sent": {
                    "value": {
                      "success": true,
                      "messageId": "msg_3Jd8sLq0Vz",
                      "contactId": "ct_9Rt4wBn2Ke",
                      "message": "Message sent on custom channel acme-chat."
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "The `campaignId` matches no campaign of this account.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ApiError"
                },
                "examples": {
                  "campaignNotFound": {
                    "value": {
                      "error": {
                        "code": "CAMPAIGN_NOT_FOUND",
                        "message": "No campaign with id cmp_SpringFunnel."
                      }
                    }
                  }
                }
              }
            }
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          }
        }
      }
    },
    "/incoming_custom_channel_message": {
      "post": {
        "operationId": "receiveCustomChannelMessage",
        "tags": [
          "Messages"
        ],
        "summary": "Receive a custom-channel message",
        "description": "Accepts a message that a user sent on the customer's platform. Processing: (1) the contact\nis created or updated, (2) the message is stored, (3) the AI bot generates a response if it\nis active, (4) the reply is delivered to the customer's Custom Channel Webhook URL (see\nthe `customChannelReply` webhook). Errors on this endpoint are `{ \"error\": \"<message>\" }`.\n\nThe method must be POST: any other method gets 405 with `Allow: POST`.\n\n**Reference behaviour:**\n- A `messageSid` (or `id`) already processed answers 200 with the first message's\n  `messageId` and `duplicate: true`; nothing is stored, replied to or delivered twice.\n- A reaction is `messageType: \"reaction\"` with the emoji in `customData.body` and the\n  reacted-to message's sid in `customData.reactionTo`; the bot does not answer reactions.\n- `customData.status` is any label up to 32 characters, `received` when omitted.\n- `body` is at most 4096 characters.\n- `mediaUrl` is a public `https://` or `http://` URL (stored as given, not fetched) or a data URL\n  `data:<MIME_TYPE>;base64,<DATA>` of at most 16 MiB decoded; `mediaContentType` is\n  required with it, must equal the data URL's type and must match the bytes, which are\n  sniffed. A mismatch is 400.\n- `campaignId` routes to that campaign; an unknown one is 404. Without it, the account's\n  default campaign answers.\n",
        "security": [
          {
            "apiKeyQuery": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ReceiveCustomChannelMessageInput"
              },
              "examples": {
                "text": {
                  "summary": "A text message",
                  "value": {
                    "customData": {
                      "messageSid": "SM-20261121-0001",
                      "fromId": "user-4821",
                      "toId": "acme-support",
                      "body": "Hi! Is the spring offer still available?",
                      "channel": "acme-chat",
                      "campaignId": "cmp_SpringFunnel",
                      "firstName": "Ada",
                      "lastName": "Lovelace",
                      "email": "ada@example.com"
                    }
                  }
                },
                "media": {
                  "summary": "A message with an embedded image",
                  "value": {
                    "customData": {
                      "messageSid": "SM-20261121-0002",
                      "fromId": "user-4821",
                      "toId": "acme-support",
                      "body": "Here is a photo of the invoice.",
                      "mediaUrl": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
                      "mediaContentType": "image/png"
                    }
                  }
                },
                "reaction": {
                  "summary": "An emoji reaction",
                  "value": {
                    "messageType": "reaction",
                    "customData": {
                      "messageSid": "SM-20261121-0003",
                      "fromId": "user-4821",
                      "toId": "acme-support",
                      "body": "👍",
                      "reactionTo": "SM-20261121-0001"
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Message received and being processed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReceiveCustomChannelMessageResult"
                },
                "examples": {
                  "received": {
                    "value": {
                      "success": true,
                      "messageId": "msg_5Kp1zQw7Rc"
                    }
                  },
                  "duplicate": {
                    "value": {
                      "success": true,
                      "messageId": "msg_5Kp1zQw7Rc",
                      "duplicate": true
                    }
                  }
                }
              }
            }
          },
          "400": {
            "description": "A required field is missing, the body is empty or whitespace-only, or a field is not valid.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReceiveError"
                },
                "examples": {
                  "emptyBody": {
                    "value": {
                      "error": "Message body cannot be empty."
                    }
                  },
                  "missingFromId": {
                    "value": {
                      "error": "customData.fromId is required."
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "Missing or invalid API key.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReceiveError"
                },
                "examples": {
                  "invalidKey": {
                    "value": {
                      "error": "Invalid API key. Generate a key in Settings > Account > API Key."
                    }
                  }
                }
              }
            }
          },
          "404": {
            "description": "The `campaignId` matches no campaign of this account.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReceiveError"
                },
                "examples": {
                  "campaignNotFound": {
                    "value": {
                      "error": "No campaign with id cmp_SpringFunnel."
                    }
                  }
                }
              }
            }
          },
          "405": {
            "description": "A method other than POST was used.",
            "headers": {
              "Allow": {
                "$ref": "#/components/headers/Allow"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReceiveError"
                },
                "examples": {
                  "wrongMethod": {
                    "value": {
                      "error": "Method GET is not allowed on /incoming_custom_channel_message; use POST."
                    }
                  }
                }
              }
            }
          },
          "429": {
            "description": "Rate limit exceeded; wait for `Retry-After` seconds.",
            "headers": {
              "Retry-After": {
                "$ref": "#/components/headers/Retry-After"
              },
              "RateLimit-Limit": {
                "$ref": "#/components/headers/RateLimit-Limit"
              },
              "RateLimit-Remaining": {
                "$ref": "#/components/headers/RateLimit-Remaining"
              },
              "RateLimit-Reset": {
                "$ref": "#/components/headers/RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReceiveError"
                },
                "examples": {
                  "rateLimited": {
                    "value": {
                      "error": "Rate limit of 120 requests per minute exceeded; retry in 12 seconds."
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "Server error.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReceiveError"
                },
                "examples": {
                  "internal": {
                    "value": {
                      "error": "Internal error; the message was not stored. Retry with the same messageSid."
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/subaccounts/credits": {
      "post": {
        "operationId": "grantSubaccountCredits",
        "tags": [
          "Subaccounts"
        ],
        "summary": "Grant credits to a sub-account",
        "description": "Agency accounts only. Grants credits to the sub-account whose email matches. The key goes\nin the `x-api-key` header, never in the query. Call it after the payment that an\nauto-recharge webhook triggered; store that webhook's `idempotency_key` and check it\nbefore calling, so credits are not granted twice when the webhook arrives more than once.\n\n**Reference behaviour:** 403 `NOT_AGENCY` when the key's account is not an agency; 404\n`SUBACCOUNT_NOT_FOUND` when the email matches none of its sub-accounts (case-insensitive);\n400 `INVALID_AMOUNT` for an amount that is not a positive finite number. An\n`Idempotency-Key` header makes a repeated grant with the same key return the first result\n(with `Idempotent-Replayed: true`) without granting twice; the same key with a different\nbody is 400 `IDEMPOTENCY_KEY_REUSED`. Keys are remembered for 24 hours.\n",
        "security": [
          {
            "apiKeyHeader": []
          }
        ],
        "parameters": [
          {
            "name": "Idempotency-Key",
            "in": "header",
            "required": false,
            "description": "A unique key for this grant, such as the auto-recharge webhook's `idempotency_key`.",
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 255
            },
            "example": "rch_2026-11-21_sub_8Lm3Qa_001"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/GrantCreditsInput"
              },
              "examples": {
                "grant": {
                  "value": {
                    "email": "client-one@agency.example",
                    "amount": 500,
                    "description": "Auto-recharge after payment pi_3Q9"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Credits were granted.",
            "headers": {
              "Idempotent-Replayed": {
                "description": "`true` when this is the stored result of an earlier request with the same `Idempotency-Key`.",
                "schema": {
                  "type": "string",
                  "enum": [
                    "true"
                  ]
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/GrantCreditsResult"
                },
                "examples": {
                  "granted": {
                    "value": {
                      "success": true,
                      "sub_account_id": "sub_8Lm3QaT2Yx",
                      "credits_added": 500,
                      "new_balance": 742
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "description": "The key's account is not an agency.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ApiError"
                },
                "examples": {
                  "notAgency": {
                    "value": {
                      "error": {
                        "code": "NOT_AGENCY",
                        "message": "Only agency accounts can grant credits to sub-accounts."
                      }
                    }
                  }
                }
              }
            }
          },
          "404": {
            "description": "No sub-account of this agency has that email.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ApiError"
                },
                "examples": {
                  "subaccountNotFound": {
                    "value": {
                      "error": {
                        "code": "SUBACCOUNT_NOT_FOUND",
                        "message": "No sub-account with email client-one@agency.example."
                      }
                    }
                  }
                }
              }
            }
          },
          "405": {
            "$ref": "#/components/responses/MethodNotAllowed"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/InternalError"
          }
        }
      }
    }
  },
  "webhooks": {
    "customChannelReply": {
      "post": {
        "operationId": "customChannelReplyWebhook",
        "security": [],
        "tags": [
          "Messages"
        ],
        "summary": "A reply on a custom channel (outgoing)",
        "description": "Sent to the URL of the account's Custom Channel Webhook setting for every reply on a custom\nchannel, from the AI bot or typed by a human in the app. Nothing is sent for incoming\nmessages. The URL must be publicly reachable and return a success response; the message\nthen becomes Sent, otherwise Failed with the error details stored on it.\n\n**Reference behaviour:** signed per Standard Webhooks with the account's webhook secret\n(`whsec_...`): `webhook-signature` is `v1,<base64 HMAC-SHA256 of\n\"<webhook-id>.<webhook-timestamp>.<body>\">`. A 2xx within 10 seconds is success. An error\nstatus, a timeout or a refused connection is retried with exponential backoff and jitter\n(honouring `Retry-After`), up to 6 attempts, with the same `webhook-id`; after the last\none the message is Failed.\n",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ReplyWebhookPayload"
              },
              "examples": {
                "reply": {
                  "value": {
                    "contactId": "ct_9Rt4wBn2Ke",
                    "messageId": "msg_6Vb2nHs8Lp",
                    "userId": "usr_2Fk7pQm4Zs",
                    "body": "Yes! The spring offer runs until the end of the month. Shall I book a call?",
                    "toId": "user-4821",
                    "channel": "acme-chat"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Received. Any 2xx status counts as success; the body is ignored."
          },
          "500": {
            "description": "Any other status (or no answer) is a failed attempt, retried."
          }
        }
      }
    },
    "subaccountAutoRecharge": {
      "post": {
        "operationId": "subaccountAutoRechargeWebhook",
        "security": [],
        "tags": [
          "Subaccounts"
        ],
        "summary": "A sub-account needs credits (outgoing, agency accounts)",
        "description": "Sent to the agency's auto-recharge URL. After taking payment, the agency calls\n`POST /subaccounts/credits`. The same webhook can arrive more than once: store its\n`idempotency_key` and check it before granting credits.\n\n**Reference behaviour** (payload and trigger not shown by the interface): sent once each\ntime a sub-account's balance falls below its auto-recharge threshold; carries the\nsub-account's id and email, the amount to buy, the balance and the threshold. Signed and\nretried like `customChannelReply`. A retry or an intentional duplicate carries the same\n`idempotency_key`.\n",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AutoRechargeWebhookPayload"
              },
              "examples": {
                "recharge": {
                  "value": {
                    "idempotency_key": "rch_2026-11-21_sub_8Lm3Qa_001",
                    "sub_account_id": "sub_8Lm3QaT2Yx",
                    "email": "client-one@agency.example",
                    "amount": 500,
                    "balance": 9,
                    "threshold": 10
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Received. Any 2xx status counts as success."
          },
          "500": {
            "description": "Any other status (or no answer) is a failed attempt, retried."
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "apiKeyQuery": {
        "type": "apiKey",
        "in": "query",
        "name": "apiKey",
        "description": "The API key as the `apiKey` query parameter (camelCase bodies)."
      },
      "apiKeyHeader": {
        "type": "apiKey",
        "in": "header",
        "name": "x-api-key",
        "description": "The API key in the `x-api-key` header (`/subaccounts/credits`)."
      },
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "The API key as `Authorization: Bearer <API_KEY>` (snake_case bodies)."
      }
    },
    "parameters": {
      "WebhookId": {
        "name": "webhook-id",
        "in": "header",
        "required": true,
        "description": "Unique id of the event; the same on every retry of it.",
        "schema": {
          "type": "string"
        },
        "example": "msg_6Vb2nHs8Lp"
      },
      "WebhookTimestamp": {
        "name": "webhook-timestamp",
        "in": "header",
        "required": true,
        "description": "Unix time in seconds of this attempt; reject ones far from your clock.",
        "schema": {
          "type": "string",
          "pattern": "^[0-9]+$"
        },
        "example": "1795253400"
      },
      "WebhookSignature": {
        "name": "webhook-signature",
        "in": "header",
        "required": true,
        "description": "Space-separated signatures `v1,<base64>`: HMAC-SHA256 with the base64-decoded secret (after `whsec_`) of `<webhook-id>.<webhook-timestamp>.<raw body>`.",
        "schema": {
          "type": "string"
        },
        "example": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="
      }
    },
    "headers": {
      "Allow": {
        "description": "The methods the path supports.",
        "schema": {
          "type": "string"
        },
        "example": "POST"
      },
      "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "schema": {
          "type": "integer",
          "minimum": 0
        },
        "example": 12
      },
      "RateLimit-Limit": {
        "description": "Requests allowed per key per window (one minute).",
        "schema": {
          "type": "integer"
        },
        "example": 120
      },
      "RateLimit-Remaining": {
        "description": "Requests left in the current window.",
        "schema": {
          "type": "integer"
        },
        "example": 0
      },
      "RateLimit-Reset": {
        "description": "Seconds until the window resets.",
        "schema": {
          "type": "integer"
        },
        "example": 12
      }
    },
    "examples": {
      "Contact": {
        "summary": "A contact",
        "value": {
          "id": "ct_7Hq2xK9mPw",
          "firstName": "Ada",
          "lastName": "Lovelace",
          "phone": "+14155550123",
          "email": "ada@example.com",
          "customFields": {},
          "createdAt": "2026-11-21T09:30:00.000Z"
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "A parameter is wrong. The message names the field and what was expected.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ApiError"
            },
            "examples": {
              "invalidPhone": {
                "value": {
                  "error": {
                    "code": "INVALID_PHONE",
                    "message": "Phone number must include a valid country code, starting with + (for example +14155550123)."
                  }
                }
              },
              "validation": {
                "value": {
                  "error": {
                    "code": "VALIDATION_ERROR",
                    "message": "Either phone or email is required."
                  }
                }
              },
              "wrongSpelling": {
                "value": {
                  "error": {
                    "code": "WRONG_FIELD_SPELLING",
                    "message": "Unexpected field phone_number: with ?apiKey= the body is camelCase; send phone instead."
                  }
                }
              }
            }
          }
        }
      },
      "Unauthorized": {
        "description": "Missing, invalid or rotated API key, or the key in a form this operation does not accept.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ApiError"
            },
            "examples": {
              "invalidKey": {
                "value": {
                  "error": {
                    "code": "INVALID_API_KEY",
                    "message": "Invalid API key. Generate a key in Settings > Account > API Key."
                  }
                }
              }
            }
          }
        }
      },
      "MethodNotAllowed": {
        "description": "The path does not support this method; `Allow` lists the ones it does.",
        "headers": {
          "Allow": {
            "$ref": "#/components/headers/Allow"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ApiError"
            },
            "examples": {
              "wrongMethod": {
                "value": {
                  "error": {
                    "code": "METHOD_NOT_ALLOWED",
                    "message": "Method DELETE is not allowed on /contacts; use GET or POST."
                  }
                }
              }
            }
          }
        }
      },
      "TooManyRequests": {
        "description": "Rate limit exceeded; wait for `Retry-After` seconds.",
        "headers": {
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          },
          "RateLimit-Limit": {
            "$ref": "#/components/headers/RateLimit-Limit"
          },
          "RateLimit-Remaining": {
            "$ref": "#/components/headers/RateLimit-Remaining"
          },
          "RateLimit-Reset": {
            "$ref": "#/components/headers/RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ApiError"
            },
            "examples": {
              "rateLimited": {
                "value": {
                  "error": {
                    "code": "RATE_LIMITED",
                    "message": "Rate limit of 120 requests per minute exceeded; retry in 12 seconds."
                  }
                }
              }
            }
          }
        }
      },
      "InternalError": {
        "description": "Server error. The body never carries internal details.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/ApiError"
            },
            "examples": {
              "internal": {
                "value": {
                  "error": {
                    "code": "INTERNAL_ERROR",
                    "message": "Internal error; nothing was changed. Retry later."
                  }
                }
              }
            }
          }
        }
      }
    },
    "schemas": {
      "ErrorCode": {
        "type": "string",
        "description": "Machine-readable error code of the general error shape. `INVALID_PHONE` is the\ninterface's; the others are the reference server's decisions.\n",
        "enum": [
          "INVALID_PHONE",
          "VALIDATION_ERROR",
          "WRONG_FIELD_SPELLING",
          "BODY_TOO_LONG",
          "INVALID_AMOUNT",
          "IDEMPOTENCY_KEY_REUSED",
          "INVALID_JSON",
          "UNSUPPORTED_CONTENT_TYPE",
          "PAYLOAD_TOO_LARGE",
          "HTTPS_REQUIRED",
          "MISSING_API_KEY",
          "INVALID_API_KEY",
          "WRONG_AUTH_FORM",
          "NOT_AGENCY",
          "NOT_FOUND",
          "CONTACT_NOT_FOUND",
          "LIST_NOT_FOUND",
          "CAMPAIGN_NOT_FOUND",
          "SUBACCOUNT_NOT_FOUND",
          "METHOD_NOT_ALLOWED",
          "RATE_LIMITED",
          "INTERNAL_ERROR"
        ]
      },
      "ApiError": {
        "type": "object",
        "description": "The error shape of the general API.",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "object",
            "required": [
              "code",
              "message"
            ],
            "properties": {
              "code": {
                "$ref": "#/components/schemas/ErrorCode"
              },
              "message": {
                "type": "string",
                "description": "What went wrong and what to do, for people."
              }
            }
          }
        }
      },
      "ReceiveError": {
        "type": "object",
        "description": "The error shape of `POST /incoming_custom_channel_message`.",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "string",
            "description": "What went wrong and what to do, for people."
          }
        }
      },
      "PhoneNumber": {
        "type": "string",
        "minLength": 1,
        "maxLength": 64,
        "description": "International format with the country code and a leading `+`, for example `+14155550123`. Spaces, dots, dashes and brackets are allowed; it is stored in E.164. There is no schema pattern on purpose: the service parses the number with a phone library and answers 400 `INVALID_PHONE` (not a generic validation error) when the country code is missing or not valid, or the number is not a possible length for it.",
        "examples": [
          "+14155550123"
        ]
      },
      "Email": {
        "type": "string",
        "format": "email",
        "maxLength": 254,
        "examples": [
          "ada@example.com"
        ]
      },
      "Name": {
        "type": "string",
        "maxLength": 200
      },
      "CustomFields": {
        "type": "object",
        "description": "**Reference behaviour:** any data relevant to the offer, as a flat object of at most 50 keys whose values are strings (up to 1000 characters), numbers, booleans or null.",
        "maxProperties": 50,
        "propertyNames": {
          "minLength": 1,
          "maxLength": 100
        },
        "additionalProperties": {
          "type": [
            "string",
            "number",
            "boolean",
            "null"
          ],
          "maxLength": 1000
        }
      },
      "ContactFields": {
        "type": "object",
        "properties": {
          "phone": {
            "$ref": "#/components/schemas/PhoneNumber"
          },
          "email": {
            "$ref": "#/components/schemas/Email"
          },
          "firstName": {
            "$ref": "#/components/schemas/Name"
          },
          "lastName": {
            "$ref": "#/components/schemas/Name"
          },
          "customFields": {
            "$ref": "#/components/schemas/CustomFields"
          }
        }
      },
      "ContactInput": {
        "description": "A new contact, camelCase (query form). At least one of `phone` or `email`.",
        "unevaluatedProperties": false,
        "anyOf": [
          {
            "allOf": [
              {
                "$ref": "#/components/schemas/ContactFields"
              },
              {
                "type": "object",
                "required": [
                  "phone"
                ],
                "properties": {
                  "phone": {
                    "$ref": "#/components/schemas/PhoneNumber"
                  }
                }
              }
            ]
          },
          {
            "allOf": [
              {
                "$ref": "#/components/schemas/ContactFields"
              },
              {
                "type": "object",
                "required": [
                  "email"
                ],
                "properties": {
                  "email": {
                    "$ref": "#/components/schemas/Email"
                  }
                }
              }
            ]
          }
        ]
      },
      "ContactFieldsSnake": {
        "type": "object",
        "properties": {
          "phone_number": {
            "$ref": "#/components/schemas/PhoneNumber"
          },
          "email": {
            "$ref": "#/components/schemas/Email"
          },
          "first_name": {
            "$ref": "#/components/schemas/Name"
          },
          "last_name": {
            "$ref": "#/components/schemas/Name"
          },
          "custom_fields": {
            "$ref": "#/components/schemas/CustomFields"
          }
        }
      },
      "ContactInputSnake": {
        "description": "A new contact, snake_case (Bearer form). At least one of `phone_number` or `email`.",
        "unevaluatedProperties": false,
        "anyOf": [
          {
            "allOf": [
              {
                "$ref": "#/components/schemas/ContactFieldsSnake"
              },
              {
                "type": "object",
                "required": [
                  "phone_number"
                ],
                "properties": {
                  "phone_number": {
                    "$ref": "#/components/schemas/PhoneNumber"
                  }
                }
              }
            ]
          },
          {
            "allOf": [
              {
                "$ref": "#/components/schemas/ContactFieldsSnake"
              },
              {
                "type": "object",
                "required": [
                  "email"
                ],
                "properties": {
                  "email": {
                    "$ref": "#/components/schemas/Email"
                  }
                }
              }
            ]
          }
        ]
      },
      "Contact": {
        "type": "object",
        "description": "A contact. Absent values are `null`.",
        "required": [
          "id",
          "firstName",
          "lastName",
          "phone",
          "email",
          "customFields",
          "createdAt"
        ],
        "properties": {
          "id": {
            "type": "string",
            "description": "Assigned by the service (`ct_` prefix).",
            "examples": [
              "ct_7Hq2xK9mPw"
            ]
          },
          "firstName": {
            "type": [
              "string",
              "null"
            ]
          },
          "lastName": {
            "type": [
              "string",
              "null"
            ]
          },
          "phone": {
            "type": [
              "string",
              "null"
            ],
            "description": "E.164."
          },
          "email": {
            "type": [
              "string",
              "null"
            ]
          },
          "customFields": {
            "$ref": "#/components/schemas/CustomFields"
          },
          "createdAt": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 UTC timestamp."
          }
        }
      },
      "ContactLookup": {
        "type": "object",
        "required": [
          "success",
          "contactId",
          "contact"
        ],
        "properties": {
          "success": {
            "type": "boolean",
            "const": true
          },
          "contactId": {
            "type": "string"
          },
          "contact": {
            "$ref": "#/components/schemas/Contact"
          }
        }
      },
      "ListMemberInput": {
        "type": "object",
        "description": "The contact to add, camelCase (query form).",
        "additionalProperties": false,
        "required": [
          "contactId"
        ],
        "properties": {
          "contactId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "description": "The id of an existing contact."
          }
        }
      },
      "ListMemberInputSnake": {
        "type": "object",
        "description": "The contact to add, snake_case (Bearer form).",
        "additionalProperties": false,
        "required": [
          "contact_id"
        ],
        "properties": {
          "contact_id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "description": "The id of an existing contact."
          }
        }
      },
      "ListMembership": {
        "type": "object",
        "required": [
          "success",
          "listId",
          "contactId",
          "added",
          "message"
        ],
        "properties": {
          "success": {
            "type": "boolean",
            "const": true
          },
          "listId": {
            "type": "string"
          },
          "contactId": {
            "type": "string"
          },
          "added": {
            "type": "boolean",
            "description": "`false` when the contact was already in the list (nothing changed)."
          },
          "message": {
            "type": "string"
          }
        }
      },
      "MessageBody": {
        "type": "string",
        "minLength": 1,
        "maxLength": 4096,
        "pattern": "\\S",
        "description": "Message text; not empty, not only whitespace, at most 4096 characters."
      },
      "SendCustomChannelMessageInput": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "customData"
        ],
        "properties": {
          "customData": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "fromId",
              "customChannel",
              "body"
            ],
            "properties": {
              "fromId": {
                "type": "string",
                "minLength": 1,
                "maxLength": 256,
                "description": "The contact's id on the customer's platform (user id, email or phone number)."
              },
              "customChannel": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100,
                "description": "Name of the custom channel."
              },
              "body": {
                "$ref": "#/components/schemas/MessageBody"
              },
              "campaignId": {
                "type": "string",
                "minLength": 1,
                "maxLength": 128,
                "description": "Routes to a campaign."
              },
              "firstName": {
                "$ref": "#/components/schemas/Name"
              },
              "lastName": {
                "$ref": "#/components/schemas/Name"
              },
              "email": {
                "$ref": "#/components/schemas/Email"
              }
            }
          }
        }
      },
      "SendCustomChannelMessageResult": {
        "type": "object",
        "required": [
          "success",
          "messageId",
          "contactId",
          "message"
        ],
        "properties": {
          "success": {
            "type": "boolean"
          },
          "messageId": {
            "type": "string"
          },
          "contactId": {
            "type": "string"
          },
          "message": {
            "type": "string",
            "description": "A confirmation text."
          }
        }
      },
      "ReceiveCustomDataFields": {
        "type": "object",
        "properties": {
          "messageSid": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "Unique message id; a message is never processed twice."
          },
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "Alternative name of `messageSid`."
          },
          "fromId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "Sender id in the external system (user id, email or phone number)."
          },
          "toId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "Business identifier; any text."
          },
          "body": {
            "$ref": "#/components/schemas/MessageBody"
          },
          "status": {
            "type": "string",
            "minLength": 1,
            "maxLength": 32,
            "default": "received",
            "description": "Defaults to `received`."
          },
          "channel": {
            "type": "string",
            "maxLength": 100,
            "description": "Free label for the source."
          },
          "campaignId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128,
            "description": "Routes the message to a campaign and its bot configuration."
          },
          "firstName": {
            "$ref": "#/components/schemas/Name"
          },
          "lastName": {
            "$ref": "#/components/schemas/Name"
          },
          "email": {
            "$ref": "#/components/schemas/Email"
          },
          "mediaUrl": {
            "type": [
              "string",
              "null"
            ],
            "description": "A public file URL (`https://` or `http://`), or a data URL `data:<MIME_TYPE>;base64,<ENCODED_DATA>`."
          },
          "mediaContentType": {
            "type": [
              "string",
              "null"
            ],
            "maxLength": 255,
            "description": "MIME type of the file; required when `mediaUrl` is given; must match the content."
          },
          "reactionTo": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "**Reference behaviour:** for `messageType: \"reaction\"`, the `messageSid` of the message reacted to."
          }
        },
        "required": [
          "fromId",
          "toId",
          "body"
        ],
        "if": {
          "required": [
            "mediaUrl"
          ],
          "properties": {
            "mediaUrl": {
              "type": "string"
            }
          }
        },
        "then": {
          "required": [
            "mediaContentType"
          ],
          "properties": {
            "mediaContentType": {
              "type": "string"
            }
          }
        }
      },
      "ReceiveCustomData": {
        "unevaluatedProperties": false,
        "anyOf": [
          {
            "allOf": [
              {
                "$ref": "#/components/schemas/ReceiveCustomDataFields"
              },
              {
                "type": "object",
                "required": [
                  "messageSid"
                ],
                "properties": {
                  "messageSid": {
                    "type": "string"
                  }
                }
              }
            ]
          },
          {
            "allOf": [
              {
                "$ref": "#/components/schemas/ReceiveCustomDataFields"
              },
              {
                "type": "object",
                "required": [
                  "id"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  }
                }
              }
            ]
          }
        ]
      },
      "ReceiveCustomChannelMessageInput": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "customData"
        ],
        "properties": {
          "customData": {
            "$ref": "#/components/schemas/ReceiveCustomData"
          },
          "messageType": {
            "type": "string",
            "enum": [
              "text",
              "reaction"
            ],
            "description": "Omit for text; `reaction` for emoji reactions."
          }
        }
      },
      "ReceiveCustomChannelMessageResult": {
        "type": "object",
        "required": [
          "success",
          "messageId"
        ],
        "properties": {
          "success": {
            "type": "boolean"
          },
          "messageId": {
            "type": "string"
          },
          "duplicate": {
            "type": "boolean",
            "description": "**Reference behaviour:** `true` when this `messageSid` was already processed; the `messageId` is the first message's."
          }
        }
      },
      "GrantCreditsInput": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "email",
          "amount"
        ],
        "properties": {
          "email": {
            "$ref": "#/components/schemas/Email"
          },
          "amount": {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 1000000000,
            "description": "Number of credits to grant; a positive number. **Reference behaviour:** at most 1,000,000,000 in one grant (400 `INVALID_AMOUNT` above)."
          },
          "description": {
            "type": "string",
            "maxLength": 500,
            "description": "Shown in the credit transaction history."
          }
        }
      },
      "GrantCreditsResult": {
        "type": "object",
        "required": [
          "success",
          "sub_account_id",
          "credits_added",
          "new_balance"
        ],
        "properties": {
          "success": {
            "type": "boolean"
          },
          "sub_account_id": {
            "type": "string"
          },
          "credits_added": {
            "type": "number"
          },
          "new_balance": {
            "type": "number"
          }
        }
      },
      "ReplyWebhookPayload": {
        "type": "object",
        "required": [
          "contactId",
          "messageId",
          "userId",
          "body",
          "toId",
          "channel"
        ],
        "properties": {
          "contactId": {
            "type": "string",
            "description": "The service's internal contact id."
          },
          "messageId": {
            "type": "string",
            "description": "The message's id in the service."
          },
          "userId": {
            "type": "string",
            "description": "The account owner's user id."
          },
          "body": {
            "type": "string",
            "description": "Reply text."
          },
          "toId": {
            "type": "string",
            "description": "The contact's id on the customer's platform; equals the `fromId` of the inbound message."
          },
          "channel": {
            "type": "string",
            "description": "The custom channel label."
          }
        }
      },
      "AutoRechargeWebhookPayload": {
        "type": "object",
        "required": [
          "idempotency_key",
          "sub_account_id",
          "email",
          "amount",
          "balance",
          "threshold"
        ],
        "properties": {
          "idempotency_key": {
            "type": "string",
            "description": "The same for every delivery of this recharge; check it before granting credits."
          },
          "sub_account_id": {
            "type": "string"
          },
          "email": {
            "type": "string",
            "format": "email",
            "description": "The sub-account's email, as `POST /subaccounts/credits` takes it."
          },
          "amount": {
            "type": "number",
            "description": "Credits to buy (the sub-account's auto-recharge amount)."
          },
          "balance": {
            "type": "number",
            "description": "The balance that fell below the threshold."
          },
          "threshold": {
            "type": "number"
          }
        }
      }
    }
  }
};
