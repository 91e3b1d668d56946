/** Contacts: search by phone, email or name, a page at a time. */
import { PAGE_SIZE, type PageProps } from "./shared.js";
import { admin } from "../api/admin.js";
import { useLive } from "../api/live.js";
import { href, navigate, useLocation } from "../router/router.js";
import { useLoad } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { contactName, Link, Time } from "../ui/text.js";

export function Contacts({ accountId }: PageProps) {
  const { query } = useLocation();
  const q = query.get("q") ?? "";
  const offset = Number(query.get("offset") ?? 0) || 0;
  // One more than a page tells whether there is a next one.
  const contacts = useLoad(
    () => admin().contacts({ accountId, order: "newest", limit: PAGE_SIZE + 1, offset, ...(q ? { q } : {}) }),
    [accountId, q, offset],
  );
  const campaigns = useLoad(() => admin().campaigns(accountId), [accountId]);
  const lists = useLoad(() => admin().lists(accountId), [accountId]);
  const listName = (id: string) => lists.data?.find((l) => l.id === id)?.name ?? id;
  useLive(accountId, (events) => {
    if (events.some((e) => e.type === "contact.created" || e.type === "bot.outcome" || e.type === "alert.raised" || e.type === "reconnect")) contacts.reload();
  });
  const campaignName = (id: string | null) => (id ? (campaigns.data?.find((c) => c.id === id)?.name ?? id) : "—");

  const search = (event: Event) => {
    event.preventDefault();
    const value = ((event.currentTarget as HTMLFormElement).elements.namedItem("q") as HTMLInputElement).value.trim();
    navigate(href("/contacts", { q: value || undefined }));
  };

  return (
    <Page title="Contacts">
      <form class="search" role="search" onSubmit={search}>
        <label for="contact-search">Search by phone, email or name</label>
        <input id="contact-search" name="q" type="search" defaultValue={q} placeholder="+14155550123, ada@example.com, Ada" />
        <button type="submit">Search</button>
      </form>
      <Loading loaded={contacts}>
        {(rows) => (
          <>
            <table>
              <caption class="visually-hidden">Contacts{q ? ` matching ${q}` : ""}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Email</th>
                  <th scope="col">Lists</th>
                  <th scope="col">Campaign</th>
                  <th scope="col">Bot</th>
                  <th scope="col">Added</th>
                </tr>
              </thead>
              <tbody>
                {rows.slice(0, PAGE_SIZE).map((contact) => (
                  <tr key={contact.id}>
                    <td>
                      <Link to={`/contacts/${contact.id}`}>{contactName(contact)}</Link>
                    </td>
                    <td>{contact.phone ?? "—"}</td>
                    <td>{contact.email ?? "—"}</td>
                    <td>{contact.listIds.length ? contact.listIds.map(listName).join(", ") : "—"}</td>
                    <td>{campaignName(contact.campaignId)}</td>
                    <td>{contact.botPaused ? <span class="badge warn">paused</span> : <span class="badge">active</span>}</td>
                    <td>
                      <Time at={contact.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {rows.length === 0 ? <p class="muted">No contacts{q ? " found" : " yet"}.</p> : null}
            <nav class="pager" aria-label="Contact pages">
              {offset > 0 ? <Link to="/contacts" query={{ q: q || undefined, offset: String(Math.max(0, offset - PAGE_SIZE)) || undefined }}>Previous page</Link> : null}
              <span class="muted">
                {rows.length ? `${offset + 1}–${offset + Math.min(rows.length, PAGE_SIZE)}` : ""}
              </span>
              {rows.length > PAGE_SIZE ? <Link to="/contacts" query={{ q: q || undefined, offset: String(offset + PAGE_SIZE) }}>Next page</Link> : null}
            </nav>
          </>
        )}
      </Loading>
    </Page>
  );
}
