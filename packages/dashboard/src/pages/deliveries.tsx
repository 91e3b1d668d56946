/** Outgoing webhooks with their attempts: status codes, errors, timings, the headers and payload. */
import { unwrap, type Delivery } from "@intake/server/admin-client";
import { admin } from "../api/admin.js";
import { ofType, useReloadOn } from "../api/live.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import { ContactLink, duration, Json, Time } from "../ui/text.js";
import type { PageProps } from "./shared.js";

const ATTEMPT_COLUMNS: Column<Delivery["attempts"][number]>[] = [
  { head: "#", cell: (a) => a.number },
  { head: "Started", cell: (a) => <Time at={a.startedAt} /> },
  { head: "Took", cell: (a) => duration(a.durationMs) },
  { head: "Status", cell: (a) => a.status ?? "none" },
  { head: "Error", cell: (a) => a.error ?? "—" },
  {
    head: "Signed headers",
    class: "mono",
    cell: (a) =>
      a.webhookSignature === null ? (
        "not kept"
      ) : (
        <>
          webhook-timestamp: {a.webhookTimestamp}
          <br />
          webhook-signature: {a.webhookSignature}
        </>
      ),
  },
  { head: "Next attempt", cell: (a) => <Time at={a.nextAttemptAt} /> },
];

export function Deliveries({ accountId }: PageProps) {
  const deliveries = useLoad(() => admin().deliveries({ accountId }), [accountId]);
  useReloadOn(accountId, ofType("delivery.queued", "delivery.attempted", "delivery.updated", "contact.updated"), deliveries.reload);
  return (
    <Page title="Deliveries">
      <Loading loaded={deliveries}>
        {(rows) => (
          <>
            {rows.length === 0 ? <p class="muted">No webhooks sent yet.</p> : null}
            <ol class="deliveries">
              {[...rows].reverse().map((delivery) => (
                <DeliveryItem key={delivery.id} delivery={delivery} onChange={deliveries.reload} />
              ))}
            </ol>
          </>
        )}
      </Loading>
    </Page>
  );
}

function DeliveryItem({ delivery, onChange }: { delivery: Delivery; onChange: () => void }) {
  const redeliver = useAction();
  return (
    <li class="card delivery" data-delivery-id={delivery.id}>
      <h2>
        <span class={`badge state-${delivery.state}`}>{delivery.state}</span>{" "}
        {delivery.kind === "reply" ? "Reply webhook" : "Auto-recharge webhook"}
        {delivery.contact ? ` to ${delivery.contact.name}` : ""} · <Time at={delivery.createdAt} />
      </h2>
      <Facts delivery={delivery} />
      <Table columns={ATTEMPT_COLUMNS} rows={delivery.attempts} rowKey={(a) => a.number} caption="Attempts" />
      <details>
        <summary>Payload</summary>
        <Json value={delivery.payload} />
      </details>
      <ErrorNote error={redeliver.error} />
      <button
        type="button"
        disabled={redeliver.busy || delivery.state === "pending"}
        onClick={() =>
          redeliver.run(() =>
            unwrap(admin().raw.POST("/deliveries/{deliveryId}/redeliver", { params: { path: { deliveryId: delivery.id } } })).then(
              onChange,
            ),
          )
        }
      >
        Redeliver
      </button>
    </li>
  );
}

function Facts({ delivery }: { delivery: Delivery }) {
  const contactId = typeof delivery.payload.contactId === "string" ? delivery.payload.contactId : null;
  return (
    <dl class="facts">
      <dt>URL</dt>
      <dd class="mono">{delivery.url ?? "—"}</dd>
      {delivery.contact || contactId ? (
        <>
          <dt>Contact</dt>
          <dd>
            <ContactLink contact={delivery.contact} id={contactId} />
          </dd>
        </>
      ) : null}
      {delivery.messageId ? (
        <>
          <dt>Message</dt>
          <dd class="mono">{delivery.messageId}</dd>
        </>
      ) : null}
      <dt>Headers</dt>
      <dd class="mono">
        webhook-id: {delivery.webhookId}
        <br />
        content-type: application/json
        <br />
        webhook-timestamp, webhook-signature: each attempt's, below
      </dd>
      <dt>Next attempt</dt>
      <dd>
        <Time at={delivery.nextAttemptAt} />
      </dd>
      {delivery.lastError ? (
        <>
          <dt>Last error</dt>
          <dd class="error-text">{delivery.lastError}</dd>
        </>
      ) : null}
    </dl>
  );
}
