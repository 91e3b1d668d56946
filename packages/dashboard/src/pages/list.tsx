/** A list: its name and linked campaign, its members a page at a time, and contacts added by hand or from a CSV file (the funnel's "manual import" route). */
import { unwrap } from "@intake/server/admin-client";
import Papa from "papaparse";
import { useState } from "preact/hooks";
import { admin, type Schemas } from "../api/admin.js";
import { useReloadOn } from "../api/live.js";
import { useLocation } from "../router/router.js";
import { ActionForm } from "../ui/action-form.js";
import { Check, formChecked, formValue, InputField } from "../ui/fields.js";
import { useAction, useLoad } from "../ui/load.js";
import { Loading, Note, Page } from "../ui/page.js";
import { Pager } from "../ui/pager.js";
import { Table, type Column } from "../ui/table.js";
import { movesNote } from "./add-to-list.js";
import { DeleteRecord, TAKES } from "./delete-record.js";
import { CampaignSelect } from "./lists.js";
import { CAMPAIGN_CHANGE, CONTACT_COLUMNS, LIST_CHANGE, offsetIn, PAGE_SIZE, useCampaigns, type PageProps } from "./shared.js";

/** The columns a CSV file may have (a header row names them); phone is needed for a new contact. */
const CSV_FIELDS = ["phone", "firstName", "lastName", "email"] as const;

const MEMBER_COLUMNS: Column<Schemas["Contact"]>[] = [
  ...CONTACT_COLUMNS,
  { head: "Bot", cell: (contact) => (contact.botPaused ? "paused" : "active") },
];

/** Adds contacts as one batch; an import also says where each came from (`rows`) and what a wrong one does (`onInvalid`). */
type Add = (
  source: "manual" | "import",
  contacts: Schemas["ImportContact"][],
  options?: Pick<Schemas["ImportInput"], "rows" | "onInvalid">,
) => Promise<unknown>;

/** What the last add did: its counts, and the rows an import skipped. */
interface Outcome {
  summary: string;
  skipped: Schemas["SkippedEntry"][];
}

export function ListDetail({ id, accountId }: { id: string } & PageProps) {
  const offset = offsetIn(useLocation().query);
  const list = useLoad(() => unwrap(admin().raw.GET("/lists/{listId}", { params: { path: { listId: id } } })), [id]);
  const members = useLoad(
    () =>
      unwrap(admin().raw.GET("/lists/{listId}/contacts", { params: { path: { listId: id }, query: { limit: PAGE_SIZE + 1, offset } } })),
    [id, offset],
  );
  const campaigns = useCampaigns(accountId);
  useReloadOn(accountId, (event) => LIST_CHANGE(event) && (!("listId" in event) || event.listId === id), list.reload, members.reload);
  useReloadOn(accountId, CAMPAIGN_CHANGE, campaigns.reload);
  const save = useAction();
  const [result, setResult] = useState<Outcome | undefined>();

  const add: Add = async (source, contacts, options = {}) => {
    const outcome = await admin().importContacts(id, { source, contacts, ...options });
    const skipped = outcome.skipped.length ? ` ${outcome.skipped.length} ${outcome.skipped.length === 1 ? "row" : "rows"} skipped:` : "";
    setResult({
      summary: `${outcome.added} added, ${outcome.alreadyMembers} already members.${movesNote(outcome.campaignMoves, campaigns.data)}${skipped}`,
      skipped: outcome.skipped,
    });
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
            onSubmit={(form) =>
              admin().updateList(id, { name: formValue(form, "name"), campaignId: formValue(form, "campaignId") || null })
            }
            onDone={list.reload}
          >
            <InputField label="Name" name="name" defaultValue={current.name} required maxLength={200} />
            {campaigns.data ? <CampaignSelect campaigns={campaigns.data} value={current.campaignId} /> : null}
          </ActionForm>
          <div class="columns">
            <AddByHand add={add} />
            <ImportCsv add={add} />
          </div>
          {result ? <Note>{result.summary}</Note> : null}
          {result?.skipped.length ? (
            <ul aria-label="Skipped rows">
              {result.skipped.map((entry) => (
                <li key={entry.index}>{`${entry.row === null ? `Entry ${entry.index + 1}` : `Row ${entry.row}`}: ${entry.message}`}</li>
              ))}
            </ul>
          ) : null}

          <h2>Members ({current.memberCount})</h2>
          <Loading loaded={members}>
            {(rows) => (
              <>
                <Table columns={MEMBER_COLUMNS} rows={rows.slice(0, PAGE_SIZE)} rowKey={(contact) => contact.id} />
                <Pager label="Member pages" to={`/lists/${id}`} offset={offset} size={PAGE_SIZE} count={rows.length} />
              </>
            )}
          </Loading>
          <DeleteRecord noun="list" name={current.name} takes={TAKES.list} remove={() => admin().deleteList(id)} back="/lists" />
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
    <ActionForm
      class="card"
      title="Add a contact by hand"
      titleId="add-by-hand"
      action={action}
      submit="Add contact"
      onSubmit={(form) => add("manual", [contactFrom(form)])}
      onDone={(_, form) => form.reset()}
    >
      <InputField label="Phone" name="phone" type="tel" required placeholder="+14155550123" />
      <InputField label="First name" name="firstName" />
      <InputField label="Last name" name="lastName" />
      <InputField label="Email" name="email" type="email" />
    </ActionForm>
  );
}

/**
 * The contacts of a CSV file with a header row, and the row each came from (the header is row 1,
 * as a spreadsheet numbers them; blank rows count, and are left out).
 */
async function contactsIn(file: File): Promise<{ contacts: Schemas["ImportContact"][]; rows: number[] }> {
  const parsed = Papa.parse<string[]>(await file.text(), { header: false, skipEmptyLines: false });
  // A delimiter it cannot guess (blank rows upset the guess) is a comma: not the file's fault.
  const error = parsed.errors.find((e) => e.type !== "Delimiter");
  if (error) throw new Error(`Row ${(error.row ?? 0) + 1}: ${error.message}`);
  const [header = [], ...records] = parsed.data;
  const columns = header.map((name) => name.trim());
  const contacts: Schemas["ImportContact"][] = [];
  const rows: number[] = [];
  records.forEach((cells, i) => {
    if (cells.every((cell) => !cell.trim())) return;
    const contact: Schemas["ImportContact"] = {};
    for (const field of CSV_FIELDS) {
      const value = cells[columns.indexOf(field)]?.trim();
      if (columns.includes(field) && value) contact[field] = value;
    }
    contacts.push(contact);
    rows.push(i + 2);
  });
  return { contacts, rows };
}

function ImportCsv({ add }: { add: Add }) {
  const action = useAction();
  const upload = async (form: HTMLFormElement) => {
    const file = (form.elements.namedItem("file") as HTMLInputElement).files?.[0];
    if (!file) return;
    const { contacts, rows } = await contactsIn(file);
    await add("import", contacts, { rows, onInvalid: formChecked(form, "skipInvalid") ? "skip" : "refuse" });
  };
  return (
    <ActionForm class="card" title="Import a CSV file" titleId="import-csv" action={action} submit="Import" onSubmit={upload}>
      <InputField
        label="CSV file"
        hint={`A header row naming columns ${CSV_FIELDS.join(", ")}.`}
        name="file"
        type="file"
        accept=".csv,text/csv"
        required
      />
      <Check name="skipInvalid" label="Import the valid rows and list the others" />
      <small class="muted">
        Otherwise a file with a wrong row imports nothing, and each wrong row is named. Imported leads enter the list's campaign's funnel:
        its opening message goes out (a large import queued), which cannot be taken back.
      </small>
    </ActionForm>
  );
}
