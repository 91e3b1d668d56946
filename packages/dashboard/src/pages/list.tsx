/** A list: its name and linked campaign, its members a page at a time, and contacts added by hand or from a CSV file (the funnel's "manual import" route). */
import { unwrap } from "@intake/server/admin-client";
import Papa from "papaparse";
import { useState } from "preact/hooks";
import { admin, type Schemas } from "../api/admin.js";
import { useReloadOn } from "../api/live.js";
import { useLocation } from "../router/router.js";
import { ActionForm } from "../ui/action-form.js";
import { formValue, InputField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { Loading, Note, Page } from "../ui/page.js";
import { Pager } from "../ui/pager.js";
import { Table, type Column } from "../ui/table.js";
import { movesNote } from "./add-to-list.js";
import { CampaignSelect } from "./lists.js";
import { CAMPAIGN_CHANGE, CONTACT_COLUMNS, LIST_CHANGE, offsetIn, PAGE_SIZE, useCampaigns, type PageProps } from "./shared.js";

/** The columns a CSV file may have (a header row names them); phone is needed for a new contact. */
const CSV_FIELDS = ["phone", "firstName", "lastName", "email"] as const;

const MEMBER_COLUMNS: Column<Schemas["Contact"]>[] = [...CONTACT_COLUMNS, { head: "Bot", cell: (contact) => (contact.botPaused ? "paused" : "active") }];

type Add = (source: "manual" | "import", contacts: Schemas["SeedContact"][]) => Promise<unknown>;

export function ListDetail({ id, accountId }: { id: string } & PageProps) {
  const offset = offsetIn(useLocation().query);
  const list = useLoad(() => unwrap(admin().raw.GET("/lists/{listId}", { params: { path: { listId: id } } })), [id]);
  const members = useLoad(() => unwrap(admin().raw.GET("/lists/{listId}/contacts", { params: { path: { listId: id }, query: { limit: PAGE_SIZE + 1, offset } } })), [id, offset]);
  const campaigns = useCampaigns(accountId);
  useReloadOn(accountId, (event) => LIST_CHANGE(event) && (!("listId" in event) || event.listId === id), list.reload, members.reload);
  useReloadOn(accountId, CAMPAIGN_CHANGE, campaigns.reload);
  const save = useAction();
  const [result, setResult] = useState<string | undefined>();

  const add: Add = async (source, contacts) => {
    const outcome = await admin().importContacts(id, { source, contacts });
    setResult(`${outcome.added} added, ${outcome.alreadyMembers} already members.${movesNote(outcome.campaignMoves, campaigns.data)}`);
    list.reload();
    members.reload();
  };

  return (
    <Loading loaded={list}>
      {(current) => (
        <Page title={`List: ${current.name}`}>
          <ActionForm
            class="card"
            aria-label="List settings"
            action={save}
            submit="Save list"
            onSubmit={(form) => admin().updateList(id, { name: formValue(form, "name"), campaignId: formValue(form, "campaignId") || null })}
            onDone={list.reload}
          >
            <InputField label="Name" name="name" defaultValue={current.name} required maxLength={200} />
            {campaigns.data ? <CampaignSelect campaigns={campaigns.data} value={current.campaignId} /> : null}
          </ActionForm>
          <div class="columns">
            <AddByHand add={add} />
            <ImportCsv add={add} />
          </div>
          {result ? <Note>{result}</Note> : null}

          <h2>Members ({current.memberCount})</h2>
          <Loading loaded={members}>
            {(rows) => (
              <>
                <Table columns={MEMBER_COLUMNS} rows={rows.slice(0, PAGE_SIZE)} rowKey={(contact) => contact.id} />
                <Pager label="Member pages" to={`/lists/${id}`} offset={offset} size={PAGE_SIZE} count={rows.length} />
              </>
            )}
          </Loading>
        </Page>
      )}
    </Loading>
  );
}

function AddByHand({ add }: { add: Add }) {
  const action = useAction();
  const contactFrom = (form: HTMLFormElement) => {
    const contact: Schemas["SeedContact"] = { phone: formValue(form, "phone") };
    for (const field of ["firstName", "lastName", "email"] as const) if (formValue(form, field)) contact[field] = formValue(form, field);
    return contact;
  };
  return (
    <ActionForm class="card" title="Add a contact by hand" titleId="add-by-hand" action={action} submit="Add contact" onSubmit={(form) => add("manual", [contactFrom(form)])} onDone={(_, form) => form.reset()}>
      <InputField label="Phone" name="phone" type="tel" required placeholder="+14155550123" />
      <InputField label="First name" name="firstName" />
      <InputField label="Last name" name="lastName" />
      <InputField label="Email" name="email" type="email" />
    </ActionForm>
  );
}

/** The contacts of a CSV file with a header row. */
async function contactsIn(file: File): Promise<Schemas["SeedContact"][]> {
  const parsed = Papa.parse<Record<string, string>>(await file.text(), { header: true, skipEmptyLines: true, transformHeader: (h) => h.trim() });
  if (parsed.errors.length) throw new Error(`Row ${(parsed.errors[0]!.row ?? 0) + 2}: ${parsed.errors[0]!.message}`);
  return parsed.data.map((row) => {
    const contact: Schemas["SeedContact"] = {};
    for (const field of CSV_FIELDS) if (row[field]?.trim()) contact[field] = row[field]!.trim();
    return contact;
  });
}

function ImportCsv({ add }: { add: Add }) {
  const action = useAction();
  const upload = async (form: HTMLFormElement) => {
    const file = (form.elements.namedItem("file") as HTMLInputElement).files?.[0];
    if (file) await add("import", await contactsIn(file));
  };
  return (
    <ActionForm class="card" title="Import a CSV file" titleId="import-csv" action={action} submit="Import" onSubmit={upload}>
      <InputField label="CSV file" hint={`A header row naming columns ${CSV_FIELDS.join(", ")}.`} name="file" type="file" accept=".csv,text/csv" required />
    </ActionForm>
  );
}
