/**
 * The webhook inbox: a receiver the server itself serves at /__inbox/{accountId}, so a funnel
 * builder sees webhooks arrive with no receiver of their own. It keeps what each account's inbox
 * received (method, headers, body, and whether the Standard Webhooks signature verifies with the
 * account's secret), newest first, the last 100 per account; it answers the status the account
 * chose (200 by default) to rehearse a receiver that fails. In memory only: it is not part of the
 * state (no snapshot, no data file), and a reset empties it and sets every answer back to 200.
 */
import { isoTime, ownedBy, type Domain } from "../domain/domain.js";
import type { components } from "../generated/admin.js";
import { contactRef } from "../records/subjects.js";
import { keptHead } from "../shared/kept-body.js";
import { inboxUrl } from "../shared/webhook-url.js";
import type { AccountRecord } from "../store/models.js";
import { checkSignature } from "./signature.js";

type Schemas = components["schemas"];
export type InboxRequest = Schemas["InboxRequest"];
export type InboxView = Schemas["Inbox"];

/** How many requests an account's inbox keeps (the newest). */
export const INBOX_CAPACITY = 100;
/** What an inbox answers until told otherwise. */
export const DEFAULT_ANSWER = 200;

/** A request as it reached the inbox: header names in lower case, the body as text. */
export interface Arrival {
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A request as kept: its contact by id, named when it is shown (a name may change later). */
type Kept = Omit<InboxRequest, "contact"> & { contactId: string | null };

interface Box {
  answerStatus: number;
  /** Newest first. */
  requests: Kept[];
}

export class Inbox {
  private readonly boxes = new Map<string, Box>();

  constructor(
    private readonly domain: Domain,
    readonly capacity = INBOX_CAPACITY,
  ) {}

  /** Empties every inbox on a reset (their answers back to 200), until the returned function is called. */
  follow(): () => void {
    return this.domain.events.on(["state.replaced"], ({ cause }) => {
      if (cause === "reset") this.boxes.clear();
    });
  }

  view(account: AccountRecord): InboxView {
    const box = this.boxes.get(account.id);
    return {
      accountId: account.id,
      url: inboxUrl(account.id),
      answerStatus: box?.answerStatus ?? DEFAULT_ANSWER,
      capacity: this.capacity,
      requests: (box?.requests ?? []).map(({ contactId, ...request }) => ({
        ...request,
        contact: contactRef(contactId === null ? undefined : ownedBy(account.id, this.domain.store.contact.get(contactId))),
      })),
    };
  }

  /** The status the inbox answers from now on. */
  setAnswer(account: AccountRecord, answerStatus: number): InboxView {
    this.boxOf(account.id).answerStatus = answerStatus;
    return this.view(account);
  }

  /** Forgets what it received; its answer stays. */
  clear(account: AccountRecord): void {
    const box = this.boxes.get(account.id);
    if (box) box.requests = [];
  }

  /** Records a request, checks its signature with the account's secret, and tells the live feed. */
  receive(account: AccountRecord, arrival: Arrival): Omit<InboxRequest, "contact"> {
    const { domain } = this;
    const box = this.boxOf(account.id);
    const header = (name: string) => arrival.headers[name] ?? null;
    const webhookId = header("webhook-id");
    const request: Kept = {
      id: domain.ids.id("inb_"),
      receivedAt: isoTime(domain.clock.now()),
      method: arrival.method,
      headers: arrival.headers,
      // Checked on the whole body, kept to its start.
      body: keptHead(arrival.body),
      webhookId,
      contactId: contactIdOf(arrival.body) ?? (webhookId && domain.store.message.get(webhookId)?.contactId) ?? null,
      signature: checkSignature(account.webhookSecret, arrival.body, header),
      answeredStatus: box.answerStatus,
    };
    box.requests.unshift(request);
    if (box.requests.length > this.capacity) box.requests.length = this.capacity;
    // Published on the stream as it is (no state changed: the data file has nothing to save).
    domain.events.publish({
      type: "inbox.received",
      accountId: account.id,
      requestId: request.id,
      webhookId: request.webhookId,
      verified: request.signature.verified,
      status: request.answeredStatus,
    });
    const { contactId: _, ...shown } = request;
    return shown;
  }

  private boxOf(accountId: string): Box {
    let box = this.boxes.get(accountId);
    if (!box) this.boxes.set(accountId, (box = { answerStatus: DEFAULT_ANSWER, requests: [] }));
    return box;
  }
}

/** A reply webhook's `contactId`, when the body is a JSON object with one (a reply's is small). */
function contactIdOf(body: string): string | undefined {
  if (body.length > 65_536) return undefined;
  try {
    const payload: unknown = JSON.parse(body);
    const id = payload && typeof payload === "object" && "contactId" in payload ? payload.contactId : undefined;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}
