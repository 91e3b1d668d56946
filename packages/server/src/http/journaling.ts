/** Records each /v1 request and its answer in the journal, once answered. */
import type { JournalRecord } from "../journal.js";
import type { Step } from "./pipeline.js";

/** A refused request may carry up to 64 KiB of URL: the journal keeps 1 KiB of its path, no query. */
const REFUSED_PATH_CHARS = 1024;

export function journal(record: (entry: JournalRecord) => void, now: () => number): Step {
  return async (context, next) => {
    await next();
    const { request, url, response } = context;
    const refused = request.refusal !== undefined;
    record({
      id: context.requestId ?? "",
      at: context.started,
      method: request.method,
      path: refused ? url.pathname.slice(0, REFUSED_PATH_CHARS) : url.pathname,
      search: refused ? "" : url.search,
      operationId: context.route?.operationId ?? null,
      authForm: context.auth?.form ?? null,
      accountId: context.account?.id ?? null,
      status: response!.status,
      errorCode: context.errorCode ?? null,
      fault: context.fault ?? null,
      durationMs: now() - context.started,
      requestText: context.bodyText ?? null,
      responseText: response!.body,
    });
  };
}
