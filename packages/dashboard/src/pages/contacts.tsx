/** Contacts: search by phone, email or name, a page at a time. */
import type { PageProps } from "../app.js";
import { admin, call } from "../api.js";
import { useLive } from "../live.js";
import { href, navigate, useLocation } from "../router.js";
import { contactName, Link, Loading, Page, Time, useLoad } from "../ui.js";

export const PAGE_SIZE = 50;

export function Contacts({ accountId }: PageProps) {
  const { query } = useLocation();
  const q = query.get("q") ?? "";
  const offset = Number(query.get("offset") ?? 0) || 0;
  // One more than a page tells whether there is a next one.
  const contacts = useLoad(
    () => call(admin.GET("/contacts", { params: { query: { accountId: accountId, order: "newest", limit: PAGE_SIZE + 1, offset, ...(q ? { q } : {}) } } })),
    [accountId, q, offset],
  );
  const campaigns = useLoad(() => call(admin.GET("/campaigns", { params: { query: { accountId } } })), [accountId]);
  const lists = useLoad(() => call(admin.GET("/lists", { params: { query: { accountId } } })), [accountId]);
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
