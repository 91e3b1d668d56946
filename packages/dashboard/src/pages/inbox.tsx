/**
 * The webhook inbox the server serves at /__inbox/{accountId}: what it received, newest first and
 * live, each request's contact (a link to its conversation), its webhook-id, whether its signature verifies with the account's secret (and
 * why not), what it answered, its headers and body; the status it answers, to rehearse a
 * receiver that fails; empty it.
 */
import { admin, type Schemas } from "../api/admin.js";
import { ofType, useReloadOn } from "../api/live.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, SelectField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { ContactLink, Json, Link, Time } from "../ui/text.js";
import { MOUNT } from "../router/mount.js";
import type { PageProps } from "./shared.js";

type InboxRequest = Schemas["InboxRequest"];

/** The statuses the inbox can answer with: success, or a failure the deliveries then retry. */
const ANSWERS: [number, string][] = [
  [200, "200 OK: accept webhooks"],
  [202, "202 Accepted"],
  [400, "400 Bad Request"],
  [401, "401 Unauthorized"],
  [404, "404 Not Found"],
  [410, "410 Gone"],
  [429, "429 Too Many Requests"],
  [500, "500 Internal Server Error"],
  [502, "502 Bad Gateway"],
  [503, "503 Service Unavailable"],
];

const answerOptions = (current: number) => {
  const known = ANSWERS.some(([status]) => status === current) ? ANSWERS : [...ANSWERS, [current, String(current)] as [number, string]];
  return known.map(([status, text]) => [String(status), text] as const);
};

export function Inbox({ accountId, account }: PageProps) {
  const inbox = useLoad(() => admin().inbox(accountId), [accountId]);
  useReloadOn(accountId, ofType("inbox.received"), inbox.reload);
  const answer = useAction();
  const clear = useAction();
  return (
    <Page
      title="Inbox"
      actions={
        <button type="button" disabled={clear.busy} onClick={() => clear.run(() => admin().clearInbox(accountId).then(inbox.reload))}>
          Clear the inbox
        </button>
      }
    >
      <ErrorNote error={clear.error} />
      <Loading loaded={inbox}>
        {(data) => (
          <>
            <div class="card">
              <p>
                A webhook receiver inside the server: requests to <span class="mono">{data.url}</span> (
                <span class="mono">{`${location.origin}${MOUNT}${data.url}`}</span> from this machine) are kept here, the last{" "}
                {data.capacity}, and their Standard Webhooks signature checked with this account's secret.
              </p>
              <InUse url={data.url} webhookUrl={account?.webhookUrl} />
              <ActionForm
                aria-label="What the inbox answers"
                action={answer}
                submit="Set the answer"
                done="The inbox answers with this status from now on."
                onSubmit={(form) => admin().setInboxAnswer(accountId, Number(formValue(form, "answerStatus")))}
                onDone={inbox.reload}
              >
                <SelectField
                  label="Answer webhooks with"
                  hint="An error status makes deliveries retry, then fail: rehearse a receiver that is down."
                  name="answerStatus"
                  options={answerOptions(data.answerStatus)}
                  value={String(data.answerStatus)}
                />
              </ActionForm>
            </div>
            <h2>
              Received ({data.requests.length}
              {data.requests.length >= data.capacity ? `, the last ${data.capacity}` : ""})
            </h2>
            {data.requests.length === 0 ? <p class="muted">Nothing received yet.</p> : null}
            <ol class="inbox" aria-label="Received requests, newest first">
              {data.requests.map((request) => (
                <Received key={request.id} request={request} />
              ))}
            </ol>
          </>
        )}
      </Loading>
    </Page>
  );
}

/** Whether a request's Standard Webhooks signature verified with the account's secret, and why not. */
export function Signature({ signature: { verified, reason } }: { signature: InboxRequest["signature"] }) {
  if (verified) return <span class="badge state-delivered">✓ Signature verified</span>;
  return (
    <>
      <span class="badge bad">✗ Signature not verified</span>
      {reason ? <span class="reason error-text">Why: {reason}</span> : null}
    </>
  );
}

/** Whether this account's webhooks come here. */
function InUse({ url, webhookUrl }: { url: string; webhookUrl: string | null | undefined }) {
  if (webhookUrl === url) return <p class="note">This account's Custom Channel Webhook URL is this inbox: its reply webhooks come here.</p>;
  return (
    <p class="note">
      This account's webhooks go{" "}
      {webhookUrl ? (
        <>
          to <span class="mono">{webhookUrl}</span>
        </>
      ) : (
        "nowhere (no webhook URL)"
      )}
      , not here: <Link to="/settings">Settings</Link> has “Use the built-in inbox”.
    </p>
  );
}

/** The body pretty-printed when it is JSON, else as it came. */
function Body({ text }: { text: string }) {
  try {
    return <Json value={JSON.parse(text)} />;
  } catch {
    return <pre class="json">{text}</pre>;
  }
}

/** What a reply webhook says, at a glance: its payload's `body` and `channel`, when it has them. */
function replyOf(text: string): { body: string; channel: unknown } | undefined {
  try {
    const payload = JSON.parse(text) as { body?: unknown; channel?: unknown };
    return typeof payload.body === "string" ? { body: payload.body, channel: payload.channel } : undefined;
  } catch {
    return undefined;
  }
}

function Received({ request }: { request: InboxRequest }) {
  const answered = request.answeredStatus;
  const reply = replyOf(request.body);
  return (
    <li class="card received" data-inbox-request-id={request.id}>
      <h3>
        <Time at={request.receivedAt} /> {request.method}
      </h3>
      <p class="badges">
        <span class={`badge ${answered >= 200 && answered < 300 ? "state-delivered" : "bad"}`}>Answered {answered}</span>
        <Signature signature={request.signature} />
      </p>
      <dl class="facts">
        {request.contact ? (
          <>
            <dt>Contact</dt>
            <dd>
              <ContactLink contact={request.contact} />
            </dd>
          </>
        ) : null}
        <dt>webhook-id</dt>
        <dd class="mono">{request.webhookId ?? "none"}</dd>
        {reply ? (
          <>
            <dt>Reply</dt>
            <dd>
              {reply.body}
              {typeof reply.channel === "string" ? <span class="muted"> (channel {reply.channel})</span> : null}
            </dd>
          </>
        ) : null}
      </dl>
      <details>
        <summary>Headers and body</summary>
        <Json value={request.headers} />
        <Body text={request.body} />
      </details>
    </li>
  );
}
