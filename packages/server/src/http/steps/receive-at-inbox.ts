/**
 * /__inbox/{accountId}: the webhook inbox's door (src/inbox/inbox.ts keeps what arrives). POST only
 * (another method is 405 with Allow: POST); an account the server does not have is 404 in the
 * general error shape. It answers the status the account chose, with a small JSON body saying
 * what was recorded.
 */
import type { Inbox } from "../../inbox/inbox.js";
import { HttpError } from "../../shared/errors.js";
import type { StoreReader } from "../../store/store.js";
import type { Step } from "../compose.js";
import type { Route, Routed } from "../context.js";
import { jsonResponse, tooLarge, type HeaderReader } from "../../contract/exchange.js";

/** The inbox's one route: POST /__inbox/{accountId}. */
export const INBOX_ROUTES: Route[] = [
  {
    area: "inbox",
    operationId: "receiveAtInbox",
    method: "POST",
    template: "/{accountId}",
    pattern: /^\/([^/]+)$/,
    paramNames: ["accountId"],
    forms: [],
    shape: "general",
    takesBody: true,
    bodyRequired: false,
  },
];

/** Statuses that carry no body. */
const BODILESS = new Set([204, 205, 304]);

/** Records the request in the account's inbox and answers the status it is set to. */
export function receiveAtInbox(inbox: Inbox, store: StoreReader, maxBodyBytes: number): Step<Routed> {
  return async function receiveAtInbox(context) {
    const accountId = context.params.accountId ?? "";
    const account = store.account.get(accountId);
    if (!account) {
      throw new HttpError(
        404,
        "NOT_FOUND",
        `No account ${accountId} on this server, so no inbox at /__inbox/${accountId}: an account's inbox is /__inbox/<its id> (GET /__admin/accounts lists them).`,
      );
    }
    const { request } = context;
    const bytes = await request.bytes(maxBodyBytes);
    if (bytes.byteLength > maxBodyBytes) throw tooLarge(maxBodyBytes);
    const recorded = inbox.receive(account, {
      method: request.method,
      headers: headersOf(request.headers),
      body: new TextDecoder().decode(bytes),
    });
    const status = recorded.answeredStatus;
    const answer = jsonResponse(
      status,
      { received: true, id: recorded.id, verified: recorded.signature.verified, answerStatus: status },
      context.headers,
    );
    return BODILESS.has(status) ? { ...answer, body: null } : answer;
  };
}

/** Every header, names in lower case (a reader that cannot list them gives the signature's only). */
function headersOf(reader: HeaderReader): Record<string, string> {
  const headers: Record<string, string> = {};
  const entries =
    reader.entries?.() ??
    ["content-type", "user-agent", "webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, reader.get(name)] as const);
  for (const [name, value] of entries) if (value !== null) headers[name.toLowerCase()] = value;
  return headers;
}
