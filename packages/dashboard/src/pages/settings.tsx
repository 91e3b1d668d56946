/** Settings: the Custom Channel Webhook URL and its secret, the API key with Generate, credits and their history, an agency's sub-accounts. */
import { useState } from "preact/hooks";
import type { PageProps } from "./shared.js";
import { admin, type Account } from "../api/admin.js";
import { useLive } from "../api/live.js";
import { Field, formValue } from "../ui/form.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { Link, Time } from "../ui/text.js";

export function Settings({ account, ...props }: PageProps) {
  // The account's settings are on its record: wait for the accounts.
  if (!account) return <p class="muted">Loading…</p>;
  return <AccountSettings account={account} {...props} />;
}

function AccountSettings({ account, accounts, reloadAccounts }: PageProps & { account: Account }) {
  const credits = useLoad(() => admin().credits(account.id), [account.id]);
  useLive(account.id, (events) => events.some((e) => e.type === "message.sent" || e.type === "bot.outcome" || e.type === "request.answered" || e.type === "reconnect") && credits.reload());
  const webhook = useAction();
  const generate = useAction();
  const subaccount = useAction();
  const [saved, setSaved] = useState(false);
  const [fresh, setFresh] = useState(false);
  const subaccounts = accounts.filter((a) => a.agencyId === account.id);

  return (
    <Page title={`Settings: ${account.name}`}>
      <form
        class="card"
        aria-labelledby="webhook-title"
        onSubmit={async (event) => {
          event.preventDefault();
          const url = formValue(event.currentTarget, "webhookUrl").trim();
          setSaved(false);
          if (await webhook.run(() => admin().updateAccount(account.id, { webhookUrl: url || null }))) {
            setSaved(true);
            reloadAccounts();
          }
        }}
      >
        <h2 id="webhook-title">Custom Channel Webhook</h2>
        <Field label="Webhook URL" hint="Replies to custom-channel contacts are POSTed here, signed. Empty: none.">
          {(id) => <input id={id} name="webhookUrl" type="url" defaultValue={account.webhookUrl ?? ""} key={account.webhookUrl} />}
        </Field>
        <ErrorNote error={webhook.error} />
        {saved ? (
          <p role="status" class="note">
            Webhook URL saved.
          </p>
        ) : null}
        <button type="submit" disabled={webhook.busy}>
          Save webhook URL
        </button>
        <Field label="Webhook secret" hint="Verify the webhook-signature header with it (Standard Webhooks).">
          {(id) => <input id={id} readOnly value={account.webhookSecret} class="mono" />}
        </Field>
      </form>

      <section class="card" aria-labelledby="key-title">
        <h2 id="key-title">Account &gt; API Key</h2>
        <Field label="API key">{(id) => <input id={id} readOnly value={account.apiKey} class="mono" />}</Field>
        <ErrorNote error={generate.error} />
        {fresh ? (
          <p role="status" class="note">
            A new key was generated: the old one is refused from now on.
          </p>
        ) : null}
        <button
          type="button"
          disabled={generate.busy}
          onClick={async () => {
            setFresh(false);
            if (await generate.run(() => admin().rotateApiKey(account.id))) {
              setFresh(true);
              reloadAccounts();
            }
          }}
        >
          Generate
        </button>
      </section>

      <section class="card" aria-labelledby="credits-title">
        <h2 id="credits-title">Credits</h2>
        <Loading loaded={credits}>
          {(data) => (
            <>
              <p>
                Balance: <strong>{data.balance}</strong>
              </p>
              <table>
                <caption>Credit history, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Balance after</th>
                    <th scope="col">Source</th>
                    <th scope="col">Description</th>
                  </tr>
                </thead>
                <tbody>
                  {[...data.transactions].reverse().map((t) => (
                    <tr key={t.id}>
                      <td>
                        <Time at={t.createdAt} />
                      </td>
                      <td>{t.amount > 0 ? `+${t.amount}` : t.amount}</td>
                      <td>{t.balanceAfter}</td>
                      <td>{t.source}</td>
                      <td>{t.description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </Loading>
      </section>

      {account.kind === "agency" ? (
        <section class="card" aria-labelledby="subs-title">
          <h2 id="subs-title">Sub-accounts</h2>
          <ul>
            {subaccounts.map((sub) => (
              <li key={sub.id}>
                <Link to="/settings" query={{ account: sub.id }}>
                  {sub.name}
                </Link>{" "}
                ({sub.email}) — {sub.credits} credits
              </li>
            ))}
          </ul>
          <form
            onSubmit={async (event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const name = formValue(form, "name").trim();
              const ok = await subaccount.run(() =>
                admin().createSubaccount(account.id, { email: formValue(form, "email"), ...(name ? { name } : {}) }),
              );
              if (ok) {
                form.reset();
                reloadAccounts();
              }
            }}
          >
            <Field label="Sub-account email">{(id) => <input id={id} name="email" type="email" required />}</Field>
            <Field label="Sub-account name">{(id) => <input id={id} name="name" maxLength={200} />}</Field>
            <ErrorNote error={subaccount.error} />
            <button type="submit" disabled={subaccount.busy}>
              Add sub-account
            </button>
          </form>
        </section>
      ) : null}
    </Page>
  );
}
