/** Team alerts raised when the bot hands a conversation to a person. */
import { admin, type Schemas } from "../api/admin.js";
import { ofType, useReloadOn } from "../api/live.js";
import { useLoad } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import { ContactLink, Time } from "../ui/text.js";
import type { PageProps } from "./shared.js";

const COLUMNS: Column<Schemas["Alert"]>[] = [
  { head: "When", cell: (alert) => <Time at={alert.createdAt} /> },
  { head: "Contact", cell: (alert) => <ContactLink contact={alert.contact} id={alert.contactId} /> },
  { head: "Reason", cell: (alert) => alert.reason },
];

export function Alerts({ accountId }: PageProps) {
  const alerts = useLoad(() => admin().alerts(accountId), [accountId]);
  useReloadOn(accountId, ofType("alert.raised", "contact.updated"), alerts.reload);
  return (
    <Page title="Alerts">
      <Loading loaded={alerts}>
        {(rows) =>
          rows.length === 0 ? (
            <p class="muted">No hand-offs yet.</p>
          ) : (
            <Table columns={COLUMNS} rows={[...rows].reverse()} rowKey={(alert) => alert.id} />
          )
        }
      </Loading>
    </Page>
  );
}
