/**
 * Settings > Custom Channel Webhook: the URL (or the server's own inbox, in one click) and its
 * secret, and a test webhook sent to it now, with what the receiver did: its status, and when the
 * inbox received it, whether the signature verified.
 */
import { useState } from "preact/hooks";
import { admin, type Account, type Schemas } from "../api/admin.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, InputField } from "../ui/fields.js";
import { useAction } from "../ui/load.js";
import { ErrorNote, Note } from "../ui/page.js";
import { duration, Link } from "../ui/text.js";
import { Signature } from "./inbox.js";

type Settled = { account: Account; reloadAccounts: () => void };

/** Where the server's inbox for the account is, as a webhook URL (a path on the server itself). */
export const inboxUrl = (accountId: string) => `/__inbox/${accountId}`;

export function Webhook({ account, reloadAccounts }: Settled) {
  const action = useAction();
  const useInbox = useAction();
  const [inboxChosen, setInboxChosen] = useState(false);
  const chooseInbox = async () => {
    setInboxChosen(false);
    if (await useInbox.run(() => admin().updateAccount(account.id, { webhookUrl: inboxUrl(account.id) }))) {
      setInboxChosen(true);
      reloadAccounts();
    }
  };
  const secret = (
    <InputField
      label="Webhook secret"
      hint="Verify the webhook-signature header with it (Standard Webhooks)."
      readOnly
      value={account.webhookSecret}
      class="mono"
    />
  );
  const inbox = (
    <button type="button" disabled={useInbox.busy || account.webhookUrl === inboxUrl(account.id)} onClick={chooseInbox}>
      Use the built-in inbox
    </button>
  );
  return (
    <section class="card" aria-labelledby="webhook-title">
      <h2 id="webhook-title">Custom Channel Webhook</h2>
      <ActionForm
        action={action}
        submit="Save webhook URL"
        done="Webhook URL saved."
        onSubmit={(form) => admin().updateAccount(account.id, { webhookUrl: formValue(form, "webhookUrl").trim() || null })}
        onDone={reloadAccounts}
        buttons={inbox}
      >
        <InputField
          label="Webhook URL"
          hint={`Replies to custom-channel contacts are POSTed here, signed. Empty: none. ${inboxUrl(account.id)} is the server's own inbox.`}
          name="webhookUrl"
          inputMode="url"
          spellcheck={false}
          defaultValue={account.webhookUrl ?? ""}
          key={account.webhookUrl}
        />
      </ActionForm>
      <ErrorNote error={useInbox.error} />
      {inboxChosen ? (
        <Note>
          Webhooks now go to the built-in inbox: see them on the <Link to="/inbox">Inbox</Link> page.
        </Note>
      ) : null}
      {secret}
      <TestWebhook account={account} />
    </section>
  );
}

type Tested = Schemas["TestWebhookResult"] & { signature?: Schemas["InboxRequest"]["signature"] };

/** The test webhook's result, with the inbox's word on its signature when it went there. */
async function sendTest(account: Account): Promise<Tested> {
  const result = await admin().sendTestWebhook(account.id);
  if (!result.url.startsWith("/__inbox/")) return result;
  const inbox = await admin().inbox(account.id);
  return { ...result, signature: inbox.requests.find((request) => request.webhookId === result.webhookId)?.signature };
}

function TestWebhook({ account }: { account: Account }) {
  const action = useAction();
  const [result, setResult] = useState<Tested | undefined>();
  const send = async () => {
    setResult(undefined);
    await action.run(async () => setResult(await sendTest(account)));
  };
  return (
    <div class="test-webhook">
      <h3>Test webhook</h3>
      <p class="muted">
        One signed POST with a sample reply (its payload says test: true) to the URL saved above, now; nothing is stored or retried.
      </p>
      <button type="button" disabled={action.busy} onClick={send}>
        Send a test webhook
      </button>
      <ErrorNote error={action.error} />
      {result ? <TestResult result={result} /> : null}
    </div>
  );
}

function TestResult({ result }: { result: Tested }) {
  const { status, ok, error, signature } = result;
  return (
    <div role="status" class={`note test-result ${ok ? "" : "failed"}`}>
      <p>
        Sent to <span class="mono">{result.url}</span> (webhook-id <span class="mono">{result.webhookId}</span>):{" "}
        <strong>{status === null ? "no answer" : `${ok ? "answered" : "refused with"} ${status}`}</strong> in {duration(result.durationMs)}.
      </p>
      {error ? <p class="error-text">{error}</p> : null}
      {signature ? (
        <p>
          The inbox received it: <Signature signature={signature} />
        </p>
      ) : null}
    </div>
  );
}
