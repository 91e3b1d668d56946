/** What every page is given by the shell, and what several pages share. */
import { admin, type Account, type Schemas } from "../api/admin.js";
import { ofType } from "../api/live.js";
import { useLoad } from "../ui/load.js";
import type { Column } from "../ui/table.js";
import { contactName, Link } from "../ui/text.js";

export interface PageProps {
  accountId: string;
  /** Undefined until the accounts are loaded. */
  account: Account | undefined;
  accounts: Account[];
  reloadAccounts: () => void;
}

/** Rows a page of contacts (or of a list's members) shows. */
export const PAGE_SIZE = 50;

/** Where a paged list starts (`?offset=`). */
export const offsetIn = (query: URLSearchParams) => Number(query.get("offset") ?? 0) || 0;

export const useCampaigns = (accountId: string) => useLoad(() => admin().campaigns(accountId), [accountId]);
export const useLists = (accountId: string) => useLoad(() => admin().lists(accountId), [accountId]);

/** What changes a list's row or its members: a list made or changed, a contact joining one, a member's name or bot. */
export const LIST_CHANGE = ofType("list.created", "list.updated", "list.deleted", "list.joined", "contact.updated", "contact.deleted");
/** What changes a campaign's row or name. */
export const CAMPAIGN_CHANGE = ofType("campaign.created", "campaign.updated", "campaign.deleted");

/** The name of the record with this id among those loaded; the id until they are. */
export const nameOf = (records: { id: string; name: string }[] | undefined, id: string) =>
  records?.find((record) => record.id === id)?.name ?? id;

/** A contact's name (a link to its conversation), phone and email: the first columns of each table of contacts. */
export const CONTACT_COLUMNS: Column<Schemas["Contact"]>[] = [
  { head: "Name", cell: (contact) => <Link to={`/contacts/${contact.id}`}>{contactName(contact)}</Link> },
  { head: "Phone", cell: (contact) => contact.phone ?? "—" },
  { head: "Email", cell: (contact) => contact.email ?? "—" },
];
