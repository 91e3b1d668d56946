/** The request journal: recent /v1 requests, newest first, refusals marked. */
import { admin, type Schemas } from "../api/admin.js";
import { ofType, useReloadOn } from "../api/live.js";
import { href, navigate, useLocation } from "../router/router.js";
import { Check } from "../ui/fields.js";
import { useLoad } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import { duration, Json, Time } from "../ui/text.js";
import type { PageProps } from "./shared.js";

type Entry = Schemas["JournalEntry"];
const refused = (entry: Entry) => entry.status >= 400;

const COLUMNS: Column<Entry>[] = [
  { head: "When", cell: (entry) => <Time at={entry.at} /> },
  {
    head: "Request",
    class: "mono",
    cell: (entry) => (
      <>
        {entry.method} {entry.path}
        {entry.operationId ? <div class="muted">{entry.operationId}</div> : null}
      </>
    ),
  },
  { head: "Status", cell: (entry) => <span class={refused(entry) ? "badge bad" : "badge"}>{entry.status}</span> },
  {
    head: "Error",
    cell: (entry) => (
      <>
        {entry.errorCode ?? "—"}
        {entry.fault ? <div class="muted">fault {entry.fault}</div> : null}
      </>
    ),
  },
  { head: "Took", cell: (entry) => duration(entry.durationMs) },
  {
    head: "Bodies",
    cell: (entry) => (
      <details>
        <summary>Request and response</summary>
        <Json value={{ query: entry.query, request: entry.requestBody, response: entry.responseBody }} />
      </details>
    ),
  },
];

export function Journal({ accountId }: PageProps) {
  const { query } = useLocation();
  const failedOnly = query.get("failed") === "1";
  const journal = useLoad(() => admin().journal({ accountId, limit: 200 }), [accountId]);
  useReloadOn(accountId, ofType("request.answered"), journal.reload);
  return (
    <Page title="Journal">
      <Check
        label="Only refused requests (4xx, 5xx)"
        checked={failedOnly}
        onChange={(e) => navigate(href("/journal", { failed: e.currentTarget.checked ? "1" : undefined }), true)}
      />
      <Loading loaded={journal}>
        {(rows) => (
          <Table
            columns={COLUMNS}
            rows={[...rows].reverse().filter((entry) => !failedOnly || refused(entry))}
            rowKey={(entry) => entry.id}
            rowClass={(entry) => (refused(entry) ? "failed" : undefined)}
            caption="Requests to /v1, newest first"
            captionHidden
            empty={
              failedOnly
                ? "No refused request among the latest ones: a request answered 4xx or 5xx shows here."
                : "Nothing yet: each request to /v1 with this account's key shows here, newest first, with its bodies and answer."
            }
          />
        )}
      </Loading>
    </Page>
  );
}
