/**
 * The test webhook (POST /__admin/accounts/{id}/test-webhook): one POST to the account's Custom
 * Channel Webhook URL, now, signed as a reply webhook is, with a sample reply payload whose
 * `test` is true and whose ids (`test_…`) are no record's. Sent once, with no retry; not a
 * delivery, and it changes nothing: the answer says what the receiver did.
 */
import { conflict } from "../domain/errors.js";
import type { Domain } from "../domain/domain.js";
import type { Redact } from "../domain/secrets.js";
import type { components } from "../generated/admin.js";
import { inboxUrl, webhookUrlProblem } from "../shared/webhook-url.js";
import type { AccountRecord } from "../store/models.js";
import { postWebhook, type FetchLike } from "./webhook-post.js";

type TestWebhookResult = components["schemas"]["TestWebhookResult"];

export async function sendTestWebhook(
  domain: Domain,
  fetch: FetchLike,
  account: AccountRecord,
  timeoutMs: number,
  redact: Redact,
): Promise<TestWebhookResult> {
  const url = account.webhookUrl;
  const settings = `PATCH /__admin/accounts/${account.id} with a webhookUrl (${inboxUrl(account.id)} is this server's own inbox for it), or at /__dashboard/settings?account=${account.id}`;
  if (!url) throw conflict(`Account ${account.id} has no Custom Channel Webhook URL to test: set one with ${settings}.`);
  const problem = webhookUrlProblem(url, domain.rules.allowHttpWebhooks);
  if (problem) throw conflict(`Account ${account.id}'s webhook URL ${problem} Set another with ${settings}.`);
  const webhookId = domain.ids.id("test_");
  const payload = {
    contactId: "test_contact",
    messageId: webhookId,
    userId: account.userId,
    body: "This is a test webhook from Intake: a reply would look like this.",
    toId: "test_recipient",
    channel: "custom",
    test: true,
  };
  // Never aborted: a test webhook ends by its answer or its timeout. Made per call: Workers refuse
  // an AbortController made as a module loads.
  const neverStopped = new AbortController().signal;
  const posted = await postWebhook(
    fetch,
    { url, secret: account.webhookSecret, webhookId, payload: JSON.stringify(payload) },
    timeoutMs,
    neverStopped,
    redact,
  );
  const ok = posted.status !== null && posted.status >= 200 && posted.status < 300;
  return { url, webhookId, payload, status: posted.status, ok, durationMs: posted.durationMs, error: posted.error };
}
