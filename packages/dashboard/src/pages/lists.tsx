/** Lists with their linked campaign and members; contacts added by hand or from a CSV file (the funnel's "manual import" route). */
import Papa from "papaparse";
import { useState } from "preact/hooks";
import { PAGE_SIZE, type PageProps } from "./shared.js";
import { unwrap } from "@intake/server/admin-client";
import { admin, type Schemas } from "../api/admin.js";
import { useLive } from "../api/live.js";
import { navigate, href, useLocation } from "../router/router.js";
import { Field, formValue } from "../ui/form.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { contactName, Link, Time } from "../ui/text.js";

export function Lists({ accountId }: PageProps) {
  const lists = useLoad(() => admin().lists(accountId), [accountId]);
  const campaigns = useLoad(() => admin().campaigns(accountId), [accountId]);
  useLive(accountId, (events) => events.some((e) => e.type === "contact.created" || e.type === "request.answered" || e.type === "reconnect") && lists.reload());
  const create = useAction();
  return (
    <Page title="Lists">
      <Loading loaded={lists}>
        {(rows) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Linked campaign</th>
                <th scope="col">Members</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((list) => (
                <tr key={list.id}>
                  <td>
                    <Link to={`/lists/${list.id}`}>{list.name}</Link>
                  </td>
                  <td>{list.campaignId ? <Link to={`/campaigns/${list.campaignId}`}>{campaigns.data?.find((c) => c.id === list.campaignId)?.name ?? list.campaignId}</Link> : "—"}</td>
                  <td>{list.memberCount}</td>
                  <td>
                    <Time at={list.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loading>
      <form
        class="card"
        aria-labelledby="new-list"
        onSubmit={async (event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const campaignId = formValue(form, "campaignId") || null;
          let created: Schemas["List"] | undefined;
          const ok = await create.run(async () => {
            created = await admin().createList({ accountId, name: formValue(form, "name"), campaignId });
          });
          if (ok && created) navigate(href(`/lists/${created.id}`));
        }}
      >
        <h2 id="new-list">New list</h2>
        <Field label="Name">{(id) => <input id={id} name="name" required maxLength={200} />}</Field>
        <CampaignSelect campaigns={campaigns.data ?? []} value={null} />
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.busy}>
          Create list
        </button>
      </form>
    </Page>
  );
}

function CampaignSelect({ campaigns, value }: { campaigns: Schemas["Campaign"][]; value: string | null }) {
  return (
    <Field label="Linked campaign" hint="New members get its opening message when its trigger is on.">
      {(id) => (
        <select id={id} name="campaignId">
          <option value="" selected={value === null}>
            None
          </option>
          {campaigns.map((c) => (
            <option key={c.id} value={c.id} selected={c.id === value}>
              {c.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The columns a CSV file may have (a header row names them); phone is needed for a new contact. */
const CSV_FIELDS = ["phone", "firstName", "lastName", "email"] as const;

export function ListDetail({ id, accountId }: { id: string } & PageProps) {
  const { query } = useLocation();
  const offset = Number(query.get("offset") ?? 0) || 0;
  const list = useLoad(() => unwrap(admin().raw.GET("/lists/{listId}", { params: { path: { listId: id } } })), [id]);
  const members = useLoad(() => unwrap(admin().raw.GET("/lists/{listId}/contacts", { params: { path: { listId: id }, query: { limit: PAGE_SIZE + 1, offset } } })), [id, offset]);
  const campaigns = useLoad(() => admin().campaigns(accountId), [accountId]);
  useLive(accountId, (events) => {
    if (events.some((e) => e.type === "contact.created" || e.type === "request.answered" || e.type === "reconnect")) {
      list.reload();
      members.reload();
    }
  });
  const save = useAction();
  const add = useAction();
  const upload = useAction();
  const [result, setResult] = useState<string | undefined>();

  const importContacts = async (source: "manual" | "import", contacts: Schemas["SeedContact"][]) => {
    const outcome = await admin().importContacts(id, { source, contacts });
    setResult(`${outcome.added} added, ${outcome.alreadyMembers} already members.`);
    list.reload();
    members.reload();
  };

  return (
    <Loading loaded={list}>
      {(current) => (
        <Page title={`List: ${current.name}`}>
          <form
            class="card"
            aria-label="List settings"
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget;
              void save.run(() =>
                admin().updateList(id, { name: formValue(form, "name"), campaignId: formValue(form, "campaignId") || null }).then(list.reload),
              );
            }}
          >
            <Field label="Name">{(fieldId) => <input id={fieldId} name="name" defaultValue={current.name} required maxLength={200} />}</Field>
            {campaigns.data ? <CampaignSelect campaigns={campaigns.data} value={current.campaignId} /> : null}
            <ErrorNote error={save.error} />
            <button type="submit" disabled={save.busy}>
              Save list
            </button>
          </form>

          <div class="columns">
            <form
              class="card"
              aria-labelledby="add-by-hand"
              onSubmit={async (event) => {
                event.preventDefault();
                const form = event.currentTarget;
                const contact: Schemas["SeedContact"] = { phone: formValue(form, "phone") };
                for (const field of ["firstName", "lastName", "email"] as const) if (formValue(form, field)) contact[field] = formValue(form, field);
                if (await add.run(() => importContacts("manual", [contact]))) form.reset();
              }}
            >
              <h2 id="add-by-hand">Add a contact by hand</h2>
              <Field label="Phone">{(fieldId) => <input id={fieldId} name="phone" type="tel" required placeholder="+14155550123" />}</Field>
              <Field label="First name">{(fieldId) => <input id={fieldId} name="firstName" />}</Field>
              <Field label="Last name">{(fieldId) => <input id={fieldId} name="lastName" />}</Field>
              <Field label="Email">{(fieldId) => <input id={fieldId} name="email" type="email" />}</Field>
              <ErrorNote error={add.error} />
              <button type="submit" disabled={add.busy}>
                Add contact
              </button>
            </form>

            <form
              class="card"
              aria-labelledby="import-csv"
              onSubmit={async (event) => {
                event.preventDefault();
                const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement;
                const file = input.files?.[0];
                if (!file) return;
                await upload.run(async () => {
                  const parsed = Papa.parse<Record<string, string>>(await file.text(), { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() });
                  if (parsed.errors.length) throw new Error(`Row ${(parsed.errors[0]!.row ?? 0) + 2}: ${parsed.errors[0]!.message}`);
                  const contacts = parsed.data.map((row) => {
                    const contact: Schemas["SeedContact"] = {};
                    for (const field of CSV_FIELDS) if (row[field]?.trim()) contact[field] = row[field]!.trim();
                    return contact;
                  });
                  await importContacts("import", contacts);
                });
              }}
            >
              <h2 id="import-csv">Import a CSV file</h2>
              <Field label="CSV file" hint={`A header row naming columns ${CSV_FIELDS.join(", ")}.`}>
                {(fieldId) => <input id={fieldId} name="file" type="file" accept=".csv,text/csv" required />}
              </Field>
              <ErrorNote error={upload.error} />
              <button type="submit" disabled={upload.busy}>
                Import
              </button>
            </form>
          </div>
          {result ? (
            <p role="status" class="note">
              {result}
            </p>
          ) : null}

          <h2>Members ({current.memberCount})</h2>
          <Loading loaded={members}>
            {(rows) => (
              <>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Phone</th>
                      <th scope="col">Email</th>
                      <th scope="col">Bot</th>
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
                        <td>{contact.botPaused ? "paused" : "active"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <nav class="pager" aria-label="Member pages">
                  {offset > 0 ? <Link to={`/lists/${id}`} query={{ offset: String(Math.max(0, offset - PAGE_SIZE)) }}>Previous page</Link> : null}
                  {rows.length > PAGE_SIZE ? <Link to={`/lists/${id}`} query={{ offset: String(offset + PAGE_SIZE) }}>Next page</Link> : null}
                </nav>
              </>
            )}
          </Loading>
        </Page>
      )}
    </Loading>
  );
}
