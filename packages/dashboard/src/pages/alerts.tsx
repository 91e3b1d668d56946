/** Team alerts raised when the bot hands a conversation to a person. */
import type { PageProps } from "../app.js";
import { admin, call } from "../api.js";
import { useLive } from "../live.js";
import { Link, Loading, Page, Time, useLoad } from "../ui.js";

export function Alerts({ accountId }: PageProps) {
  const alerts = useLoad(() => call(admin.GET("/alerts", { params: { query: { accountId } } })), [accountId]);
  useLive(accountId, (events) => events.some((e) => e.type === "alert.raised" || e.type === "reconnect") && alerts.reload());
  return (
    <Page title="Alerts">
      <Loading loaded={alerts}>
        {(rows) =>
          rows.length === 0 ? (
            <p class="muted">No hand-offs yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Contact</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {[...rows].reverse().map((alert) => (
                  <tr key={alert.id}>
                    <td>
                      <Time at={alert.createdAt} />
                    </td>
                    <td>
                      <Link to={`/contacts/${alert.contactId}`}>{alert.contactId}</Link>
                    </td>
                    <td>{alert.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
    </Page>
  );
}
