/** Contacts: search by phone, email or name, a page at a time; a new one by hand. */
import { admin, type Schemas } from "../api/admin.js";
import { ofType, useReloadOn } from "../api/live.js";
import { href, navigate, useLocation } from "../router/router.js";
import { useLoad } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Pager } from "../ui/pager.js";
import { Table, type Column } from "../ui/table.js";
import { Time } from "../ui/text.js";
import { NewContact } from "./new-contact.js";
import { CONTACT_COLUMNS, nameOf, offsetIn, PAGE_SIZE, useCampaigns, useLists, type PageProps } from "./shared.js";

const columns = (listName: (id: string) => string, campaignName: (id: string | null) => string): Column<Schemas["ContactRow"]>[] => [
  ...CONTACT_COLUMNS,
  { head: "Lists", cell: (contact) => (contact.listIds.length ? contact.listIds.map(listName).join(", ") : "—") },
  { head: "Campaign", cell: (contact) => campaignName(contact.campaignId) },
  { head: "Bot", cell: (contact) => (contact.botPaused ? <span class="badge warn">paused</span> : <span class="badge">active</span>) },
  { head: "Added", cell: (contact) => <Time at={contact.createdAt} /> },
];

export function Contacts({ accountId }: PageProps) {
  const { query } = useLocation();
  const q = query.get("q") ?? "";
  const offset = offsetIn(query);
  // One more than a page tells whether there is a next one.
  const contacts = useLoad(
    () => admin().contacts({ accountId, order: "newest", limit: PAGE_SIZE + 1, offset, ...(q ? { q } : {}) }),
    [accountId, q, offset],
  );
  const campaigns = useCampaigns(accountId);
  const lists = useLists(accountId);
  // A row shows the contact, its lists and campaign by name, and its bot.
  useReloadOn(
    accountId,
    ofType("contact.created", "contact.updated", "contact.deleted", "list.joined", "bot.outcome", "alert.raised"),
    contacts.reload,
  );
  useReloadOn(accountId, ofType("list.created", "list.updated", "list.deleted"), lists.reload);
  useReloadOn(accountId, ofType("campaign.created", "campaign.updated", "campaign.deleted"), campaigns.reload);
  const listName = (id: string) => nameOf(lists.data, id);
  const campaignName = (id: string | null) => (id ? nameOf(campaigns.data, id) : "—");

  const search = (event: Event) => {
    event.preventDefault();
    const value = ((event.currentTarget as HTMLFormElement).elements.namedItem("q") as HTMLInputElement).value.trim();
    navigate(href("/contacts", { q: value || undefined }));
  };

  return (
    <Page
      title="Contacts"
      actions={
        <a class="button" href="#new-contact">
          New contact
        </a>
      }
    >
      <form class="search" role="search" onSubmit={search}>
        <label for="contact-search">Search by phone, email or name</label>
        <input id="contact-search" name="q" type="search" defaultValue={q} placeholder="+14155550123, ada@example.com, Ada" />
        <button type="submit">Search</button>
      </form>
      <Loading loaded={contacts}>
        {(rows) => (
          <>
            <Table
              columns={columns(listName, campaignName)}
              rows={rows.slice(0, PAGE_SIZE)}
              rowKey={(contact) => contact.id}
              caption={`Contacts${q ? ` matching ${q}` : ""}`}
              captionHidden
            />
            {rows.length === 0 ? <p class="muted">No contacts{q ? " found" : " yet"}.</p> : null}
            <Pager
              label="Contact pages"
              to="/contacts"
              query={{ q: q || undefined }}
              offset={offset}
              size={PAGE_SIZE}
              count={rows.length}
              range
            />
          </>
        )}
      </Loading>
      <NewContact accountId={accountId} />
    </Page>
  );
}
