/** Team alerts raised when the bot hands a conversation to a person. */
import type { PageProps } from "./shared.js";
import { admin } from "../api/admin.js";
import { useLive } from "../api/live.js";
import { useLoad } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Link, Time } from "../ui/text.js";

export function Alerts({ accountId }: PageProps) {
  const alerts = useLoad(() => admin().alerts(accountId), [accountId]);
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
