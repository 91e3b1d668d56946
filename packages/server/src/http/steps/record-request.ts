/**
 * Each request is published with its answer (`request.answered`), which the journal and the live
 * feed hear; keys are redacted when it is read (live/journal.ts).
 */
import type { AnsweredRequest } from "../../events/events.js";
import type { EventStream } from "../../events/stream.js";
import { elapsedMs } from "../../shared/elapsed.js";
import { keptBody } from "../../shared/kept-body.js";
import type { Step } from "../compose.js";

/** A refused request may carry up to 64 KiB of URL: the journal keeps 1 KiB of its path, no query. */
const REFUSED_PATH_CHARS = 1024;

/** A seed's key is at most this long; the service's are shorter. */
const MAX_KEY_CHARS = 128;

/**
 * The first `max` characters of a text, less a run of key characters the cut ends inside when the
 * run is no longer than a key: a key cut short is no longer found as a key, and would be shown.
 */
function cut(text: string, max: number): string {
  const isKeyCharacter = (at: number) => /[A-Za-z0-9_-]/.test(text.charAt(at));
  if (text.length <= max || !isKeyCharacter(max - 1) || !isKeyCharacter(max)) return text.slice(0, max);
  let start = max;
  while (start > 0 && isKeyCharacter(start - 1) && max - start <= MAX_KEY_CHARS) start--;
  let end = max;
  while (end < text.length && isKeyCharacter(end) && end - start <= MAX_KEY_CHARS) end++;
  return end - start <= MAX_KEY_CHARS ? text.slice(0, start) : text.slice(0, max);
}

/**
 * Publishes each request and its answer (`request.answered`), once answered: the journal and the
 * live feed hear it. Its bodies are kept bounded (shared/kept-body.ts) from here on, so whatever
 * holds recent requests holds no large body, and a refused one leaves nothing of it behind.
 */
export function recordRequest(events: EventStream): Step {
  return async function recordRequest(context, next) {
    const response = await next(context);
    const { request, url } = context;
    const refused = request.refusal !== undefined;
    const answered: AnsweredRequest = {
      key: context.auth?.key,
      id: context.requestId,
      at: context.started,
      method: request.method,
      path: refused ? cut(url.pathname, REFUSED_PATH_CHARS) : url.pathname,
      search: refused ? "" : url.search,
      operationId: context.route?.operationId ?? null,
      authForm: context.auth?.form ?? null,
      accountId: context.account?.id ?? null,
      status: response.status,
      errorCode: context.errorCode ?? null,
      fault: context.fault ?? null,
      durationMs: elapsedMs(context.timer),
      requestText: keptBody(context.bodyText ?? null),
      responseText: keptBody(response.body),
    };
    events.publish({ type: "request.answered", request: answered });
    return response;
  };
}
