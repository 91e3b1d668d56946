/** The shell: login, the account picker, the navigation, and the page the path names. */
import type { ComponentChildren, ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { admin, onUnauthorized, token, type Account } from "./api/admin.js";
import { ofType, useReloadOn } from "./api/live.js";
import { Alerts } from "./pages/alerts.js";
import { CampaignDetail } from "./pages/campaign.js";
import { Campaigns } from "./pages/campaigns.js";
import { Contacts } from "./pages/contacts.js";
import { Conversation } from "./pages/conversation.js";
import { Deliveries } from "./pages/deliveries.js";
import { Faults } from "./pages/faults.js";
import { Inbox } from "./pages/inbox.js";
import { Journal } from "./pages/journal.js";
import { ListDetail } from "./pages/list.js";
import { Lists } from "./pages/lists.js";
import { Login } from "./pages/login.js";
import { Queue } from "./pages/queue.js";
import { Settings } from "./pages/settings.js";
import type { PageProps } from "./pages/shared.js";
import { href, match, navigate, useLocation } from "./router/router.js";
import { useLoad } from "./ui/load.js";
import { ErrorNote } from "./ui/page.js";
import { Link } from "./ui/text.js";

/** The pages in the navigation, in its order; the root is the contacts page. */
const PAGES: { path: string; label: string; Page: ComponentType<PageProps> }[] = [
  { path: "/contacts", label: "Contacts", Page: Contacts },
  { path: "/lists", label: "Lists", Page: Lists },
  { path: "/campaigns", label: "Campaigns", Page: Campaigns },
  { path: "/deliveries", label: "Deliveries", Page: Deliveries },
  { path: "/inbox", label: "Inbox", Page: Inbox },
  { path: "/queue", label: "Queue & clock", Page: Queue },
  { path: "/alerts", label: "Alerts", Page: Alerts },
  { path: "/journal", label: "Journal", Page: Journal },
  { path: "/faults", label: "Faults", Page: Faults },
  { path: "/settings", label: "Settings", Page: Settings },
];

/** A record's page: its path names its id. */
const DETAILS: [pattern: string, Detail: ComponentType<{ id: string } & PageProps>][] = [
  ["/contacts/:id", Conversation],
  ["/lists/:id", ListDetail],
  ["/campaigns/:id", CampaignDetail],
];

export function App() {
  const [loggedIn, setLoggedIn] = useState(() => token.get() !== null);
  useEffect(
    () =>
      onUnauthorized(() => {
        token.clear();
        setLoggedIn(false);
      }),
    [],
  );
  if (!loggedIn) return <Login onLogIn={() => setLoggedIn(true)} />;
  return <Shell onLogOut={() => (token.clear(), setLoggedIn(false))} />;
}

function Shell({ onLogOut }: { onLogOut: () => void }) {
  const { path, query } = useLocation();
  const accounts = useLoad(() => admin().accounts(), []);
  const chosen = query.get("account");
  const account = accounts.data?.find((a) => a.id === chosen);
  // Every page reads the accounts from here: their names, settings, keys and credits.
  useReloadOn(null, ofType("account.created", "account.updated", "credits.changed"), accounts.reload);

  useEffect(() => {
    // No account chosen (or one gone): the first, on the contacts page when at the root.
    if (!accounts.data?.length || account) return;
    const first = accounts.data[0]!.id;
    navigate(href(path === "/" ? "/contacts" : path, { account: first }), true);
  }, [accounts.data, account, path]);

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Intake</span>
        {accounts.data ? <AccountPicker accounts={accounts.data} value={chosen} path={path} /> : null}
        <button type="button" class="link-button" onClick={onLogOut}>
          Log out
        </button>
      </header>
      <nav aria-label="Pages" class="side">
        <ul>
          {PAGES.map(({ path: to, label }) => (
            <li key={to}>
              <Link to={to} current={path === to || path.startsWith(`${to}/`)}>
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <ErrorNote error={accounts.error} />
        {/* A page starts loading with the account's id, alongside the accounts, not after them. */}
        {chosen && (account || !accounts.data) ? (
          <Route path={path} accountId={chosen} account={account} accounts={accounts.data ?? []} reloadAccounts={accounts.reload} />
        ) : null}
      </main>
    </div>
  );
}

/** Agencies with their sub-accounts under them. */
function AccountPicker({ accounts, value, path }: { accounts: Account[]; value: string | null; path: string }) {
  const top = accounts.filter((a) => a.kind !== "subaccount");
  const under = (agency: Account) => accounts.filter((a) => a.agencyId === agency.id);
  // Another account's record is not on its pages: go to the section's list.
  const section = `/${path.split("/")[1] ?? "contacts"}`;
  return (
    <label class="picker">
      Account
      <select
        value={value ?? ""}
        onChange={(event) => navigate(href(section, { account: (event.currentTarget as HTMLSelectElement).value }))}
      >
        {top.map((a) =>
          a.kind === "agency" ? (
            <optgroup key={a.id} label={`${a.name} (agency)`}>
              <option value={a.id}>{a.name} (agency)</option>
              {under(a).map((sub) => (
                <option key={sub.id} value={sub.id}>
                  {sub.name} (sub-account)
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ),
        )}
      </select>
    </label>
  );
}

function Route({ path, ...props }: { path: string } & PageProps): ComponentChildren {
  for (const [pattern, Detail] of DETAILS) {
    const params = match(pattern, path);
    if (params) return <Detail key={params.id} id={params.id!} {...props} />;
  }
  const found = PAGES.find((page) => page.path === (path.replace(/\/$/, "") || "/contacts"));
  if (found) return <found.Page {...props} />;
  return (
    <p role="alert">
      No page at {path}. <Link to="/contacts">Contacts</Link>
    </p>
  );
}
