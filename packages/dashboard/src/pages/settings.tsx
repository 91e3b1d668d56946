/**
 * Settings: the Custom Channel Webhook (settings-webhook.tsx), the API key with Generate, credits
 * (set or topped up) and their history, an agency's sub-accounts, and the whole server's state
 * (settings-state.tsx).
 */
import { useState } from "preact/hooks";
import { admin, type Account, type Schemas } from "../api/admin.js";
import { ofType, useReloadOn } from "../api/live.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, InputField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Note, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import { Link, Time } from "../ui/text.js";
import { ServerState } from "./settings-state.js";
import { Webhook } from "./settings-webhook.js";
import type { PageProps } from "./shared.js";

type Settled = { account: Account; reloadAccounts: () => void };

export function Settings({ account, accounts, reloadAccounts }: PageProps) {
  // The account's settings are on its record: wait for the accounts.
  if (!account) return <p class="muted">Loading…</p>;
  return (
    <Page title={`Settings: ${account.name}`}>
      <Webhook account={account} reloadAccounts={reloadAccounts} />
      <ApiKey account={account} reloadAccounts={reloadAccounts} />
      <Credits account={account} />
      {account.kind === "agency" ? (
        <Subaccounts account={account} reloadAccounts={reloadAccounts} subaccounts={accounts.filter((a) => a.agencyId === account.id)} />
      ) : null}
      <ServerState />
    </Page>
  );
}

function ApiKey({ account, reloadAccounts }: Settled) {
  const generate = useAction();
  const [fresh, setFresh] = useState(false);
  const rotate = async () => {
    setFresh(false);
    if (await generate.run(() => admin().rotateApiKey(account.id))) {
      setFresh(true);
      reloadAccounts();
    }
  };
  return (
    <section class="card" aria-labelledby="key-title">
      <h2 id="key-title">Account &gt; API Key</h2>
      <InputField label="API key" readOnly value={account.apiKey} class="mono" />
      <ErrorNote error={generate.error} />
      {fresh ? <Note>A new key was generated: the old one is refused from now on.</Note> : null}
      <button type="button" disabled={generate.busy} onClick={rotate}>
        Generate
      </button>
    </section>
  );
}

const CREDIT_COLUMNS: Column<Schemas["CreditTransaction"]>[] = [
  { head: "When", cell: (t) => <Time at={t.createdAt} /> },
  { head: "Amount", cell: (t) => (t.amount > 0 ? `+${t.amount}` : t.amount) },
  { head: "Balance after", cell: (t) => t.balanceAfter },
  { head: "Source", cell: (t) => t.source },
  { head: "Description", cell: (t) => t.description },
];

function Credits({ account }: { account: Account }) {
  const credits = useLoad(() => admin().credits(account.id), [account.id]);
  useReloadOn(account.id, ofType("credits.changed"), credits.reload);
  const set = useAction();
  const add = useAction();
  const reload = (_: unknown, form: HTMLFormElement) => (form.reset(), credits.reload());
  return (
    <section class="card" aria-labelledby="credits-title">
      <h2 id="credits-title">Credits</h2>
      <Loading loaded={credits}>
        {(data) => (
          <>
            <p>
              Balance: <strong>{data.balance}</strong>
            </p>
            <div class="columns">
              <ActionForm
                action={set}
                aria-label="Set the balance"
                submit="Set balance"
                onSubmit={(form) => admin().setCredits(account.id, Number(formValue(form, "balance")))}
                onDone={reload}
              >
                <InputField
                  label="Set the balance to"
                  name="balance"
                  type="number"
                  min={0}
                  max={1000000000}
                  step="any"
                  required
                  hint="0 rehearses an account with no credits: the bot stops, and says why."
                />
              </ActionForm>
              <ActionForm
                action={add}
                aria-label="Add or remove credits"
                submit="Add credits"
                onSubmit={(form) => admin().adjustCredits(account.id, Number(formValue(form, "amount")))}
                onDone={reload}
              >
                <InputField
                  label="Add credits (negative removes)"
                  name="amount"
                  type="number"
                  min={-1000000000}
                  max={1000000000}
                  step="any"
                  required
                />
              </ActionForm>
            </div>
            <Table
              columns={CREDIT_COLUMNS}
              rows={[...data.transactions].reverse()}
              rowKey={(t) => t.id}
              caption="Credit history, newest first"
            />
          </>
        )}
      </Loading>
    </section>
  );
}

function Subaccounts({ account, reloadAccounts, subaccounts }: Settled & { subaccounts: Account[] }) {
  const action = useAction();
  const create = (form: HTMLFormElement) => {
    const name = formValue(form, "name").trim();
    return admin().createSubaccount(account.id, { email: formValue(form, "email"), ...(name ? { name } : {}) });
  };
  return (
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
      <ActionForm action={action} submit="Add sub-account" onSubmit={create} onDone={(_, form) => (form.reset(), reloadAccounts())}>
        <InputField label="Sub-account email" name="email" type="email" required />
        <InputField label="Sub-account name" name="name" maxLength={200} />
      </ActionForm>
    </section>
  );
}
