/**
 * A bridge that makes a chat platform an Intake custom channel. Two routes:
 *
 * - `POST /platform/messages`: the platform tells the bridge a user wrote. The bridge hands the
 *   message to Intake's receive endpoint, with any attachment embedded as a data URL (the
 *   platform keeps files behind its own login, so Intake could not fetch a link).
 * - `POST /intake/webhook`: Intake sends a reply (the bot's or a person's). The bridge checks the
 *   signature, sends the text to the user on the platform, and only then answers 2xx, so a
 *   reply the platform did not take is retried by Intake (with backoff, for about half an hour).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { AuthenticationError, IntakeApiError, PermissionDeniedError, RateLimitError, type IntakeClient } from "@intake/client";
import { verifyWebhook, WebhookVerificationError } from "@intake/client/webhooks";

/** What the bridge needs from the chat platform's own API. */
export interface Platform {
  /** Sends a text to a user. Throws when the platform does not take it. */
  sendToUser(userId: string, text: string): Promise<void>;
  /** Fetches an attachment the platform keeps behind its login. */
  download(attachmentId: string): Promise<{ bytes: Uint8Array; contentType: string }>;
}

/** A user's message, as the platform posts it to the bridge. */
export interface PlatformMessage {
  /** The platform's id for the message: Intake processes each id once, so retries are safe. */
  id: string;
  userId: string;
  text?: string;
  firstName?: string;
  lastName?: string;
  attachmentId?: string;
}

export interface BridgeOptions {
  intake: IntakeClient<"query">;
  /** The `whsec_…` secret shown next to the Custom Channel Webhook setting. */
  webhookSecret: string;
  platform: Platform;
  /** The business's id on the platform (Intake's `toId`). */
  businessId: string;
  /** The label Intake shows for this channel. */
  channel: string;
  /** Routes users' messages to this campaign's bot; default: the account's default campaign. */
  campaignId?: string | undefined;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** Intake's body must not be empty; a message that is only an attachment gets this text. */
export const ATTACHMENT_ONLY_TEXT = "(attachment)";

export function createBridge(options: BridgeOptions) {
  const { intake, platform } = options;
  // Intake retries a delivery the bridge did not acknowledge in time, with the same webhook id;
  // remembering recent ids keeps a slow platform call from reaching the user twice. (In memory:
  // across a restart of the bridge, keep them in a shared store if a repeat matters.)
  const delivered = new RecentIds(10_000);
  const delivering = new Map<string, Promise<void>>();

  async function forwardToIntake(message: PlatformMessage) {
    checkShape(message);
    const text = message.text?.trim() ?? "";
    if (!text && !message.attachmentId) throw new BadRequest("A message needs text or an attachment.");
    const media = message.attachmentId ? await platform.download(message.attachmentId) : null;
    const customData = {
      messageSid: message.id,
      fromId: message.userId,
      toId: options.businessId,
      body: text || ATTACHMENT_ONLY_TEXT,
      channel: options.channel,
      firstName: message.firstName,
      lastName: message.lastName,
      campaignId: options.campaignId,
    };
    return intake.messages.receive({
      customData: media
        ? { ...customData, mediaUrl: dataUrl(media.bytes, media.contentType), mediaContentType: media.contentType }
        : customData,
    });
  }

  async function deliverReply(rawBody: string, headers: IncomingMessage["headers"]) {
    const event = verifyWebhook(options.webhookSecret, rawBody, headers);
    // The account has one webhook URL for all its custom channels: acknowledge, but do not deliver,
    // what is not this channel's (or not a reply at all).
    if (event.type !== "reply" || event.payload.channel !== options.channel) return;
    if (delivered.has(event.id)) return;
    // A retry that arrives while the first attempt is still with the platform waits for it.
    let sending = delivering.get(event.id);
    if (!sending) {
      sending = platform.sendToUser(event.payload.toId, event.payload.body).then(() => delivered.add(event.id));
      delivering.set(event.id, sending);
      void sending.catch(() => {}).finally(() => delivering.delete(event.id));
    }
    await sending;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const route = `${req.method} ${req.url?.split("?")[0]}`;
    try {
      if (route === "POST /platform/messages") {
        const received = await forwardToIntake(JSON.parse(await readBody(req)) as PlatformMessage);
        return answer(res, 200, { messageId: received.messageId });
      }
      if (route === "POST /intake/webhook") {
        await deliverReply(await readBody(req), req.headers);
        return answer(res, 204);
      }
      return answer(res, 404, { error: "Routes: POST /platform/messages, POST /intake/webhook." });
    } catch (error) {
      const [status, text] = failure(error);
      return answer(res, status, { error: text });
    }
  }

  return { handle, forwardToIntake, deliverReply };
}

/** What each failure tells the caller: 4xx means do not retry, 5xx means retry. */
function failure(error: unknown): [number, string] {
  if (error instanceof WebhookVerificationError) return [401, error.message];
  if (error instanceof BadRequest || error instanceof SyntaxError) return [400, error.message];
  // The bridge's own key is wrong (rotated, mistyped): the message is fine, so the platform should
  // keep it and retry once the key is fixed.
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    console.error(`Intake refused the bridge's API key: ${error.message}`);
    return [503, `Intake refused the bridge's API key; retry later. ${error.message}`];
  }
  // Intake refused the message (a bad attachment, say): retrying will not help.
  if (error instanceof IntakeApiError && error.status < 500 && !(error instanceof RateLimitError))
    return [422, `Intake refused the message: ${error.message}`];
  // Intake or the platform is down or slow: the sender should retry.
  return [502, (error as Error).message];
}

function dataUrl(bytes: Uint8Array, contentType: string) {
  return `data:${contentType};base64,${Buffer.from(bytes).toString("base64")}`;
}

class BadRequest extends Error {}

function checkShape(message: unknown): asserts message is PlatformMessage {
  if (typeof message !== "object" || message === null || Array.isArray(message)) throw new BadRequest("The body must be a JSON object.");
  const fields = message as Record<string, unknown>;
  for (const name of ["id", "userId"]) {
    if (typeof fields[name] !== "string" || fields[name] === "") throw new BadRequest(`${name} is required, as a string.`);
  }
  for (const name of ["text", "firstName", "lastName", "attachmentId"]) {
    if (fields[name] !== undefined && typeof fields[name] !== "string") throw new BadRequest(`${name} must be a string.`);
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BadRequest(`The body is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  // The signature covers the bytes as sent: decode once, never re-serialise.
  return Buffer.concat(chunks).toString("utf8");
}

function answer(res: ServerResponse, status: number, body?: unknown) {
  if (body === undefined) return void res.writeHead(status).end();
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** A set that forgets its oldest entries past `limit`. */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly limit: number) {}
  has(id: string) {
    return this.ids.has(id);
  }
  add(id: string) {
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value!);
  }
}
