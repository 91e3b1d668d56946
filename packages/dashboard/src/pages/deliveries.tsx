/** Outgoing webhooks with their attempts: status codes, errors, timings, the headers and payload. */
import type { PageProps } from "./shared.js";
import type { Delivery } from "@intake/server/admin-client";
import { unwrap } from "@intake/server/admin-client";
import { admin } from "../api/admin.js";
import { useLive } from "../api/live.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { Json, Link, Time } from "../ui/text.js";

export function Deliveries({ accountId }: PageProps) {
  const deliveries = useLoad(() => admin().deliveries({ accountId }), [accountId]);
  useLive(accountId, (events) => events.some((e) => e.type === "delivery.attempted" || e.type === "reconnect") && deliveries.reload());
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
        <span class={`badge state-${delivery.state}`}>{delivery.state}</span> {delivery.kind === "reply" ? "Reply webhook" : "Auto-recharge webhook"} <Time at={delivery.createdAt} />
      </h2>
      <dl class="facts">
        <dt>URL</dt>
        <dd class="mono">{delivery.url ?? "—"}</dd>
        {delivery.messageId ? (
          <>
            <dt>Message</dt>
            <dd>
              {typeof delivery.payload.contactId === "string" ? <Link to={`/contacts/${delivery.payload.contactId}`}>{delivery.messageId}</Link> : delivery.messageId}
            </dd>
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
      <table>
        <caption>Attempts</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Started</th>
            <th scope="col">Took</th>
            <th scope="col">Status</th>
            <th scope="col">Error</th>
            <th scope="col">Signed headers</th>
            <th scope="col">Next attempt</th>
          </tr>
        </thead>
        <tbody>
          {delivery.attempts.map((a) => (
            <tr key={a.number}>
              <td>{a.number}</td>
              <td>
                <Time at={a.startedAt} />
              </td>
              <td>{Math.round(a.durationMs)} ms</td>
              <td>{a.status ?? "none"}</td>
              <td>{a.error ?? "—"}</td>
              <td class="mono">
                {a.webhookSignature === null ? (
                  "not kept"
                ) : (
                  <>
                    webhook-timestamp: {a.webhookTimestamp}
                    <br />
                    webhook-signature: {a.webhookSignature}
                  </>
                )}
              </td>
              <td>
                <Time at={a.nextAttemptAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>Payload</summary>
        <Json value={delivery.payload} />
      </details>
      <ErrorNote error={redeliver.error} />
      <button
        type="button"
        disabled={redeliver.busy || delivery.state === "pending"}
        onClick={() => redeliver.run(() => unwrap(admin().raw.POST("/deliveries/{deliveryId}/redeliver", { params: { path: { deliveryId: delivery.id } } })).then(onChange))}
      >
        Redeliver
      </button>
    </li>
  );
}
