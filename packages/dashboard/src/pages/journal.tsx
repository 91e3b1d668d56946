/** The request journal: recent /v1 requests, newest first, refusals marked. */
import type { PageProps } from "./shared.js";
import { admin } from "../api/admin.js";
import { useLive } from "../api/live.js";
import { href, navigate, useLocation } from "../router/router.js";
import { useLoad } from "../ui/load.js";
import { Loading, Page } from "../ui/page.js";
import { Json, Time } from "../ui/text.js";

export function Journal({ accountId }: PageProps) {
  const { query } = useLocation();
  const failedOnly = query.get("failed") === "1";
  const journal = useLoad(() => admin().journal({ accountId, limit: 200 }), [accountId]);
  useLive(accountId, (events) => events.some((e) => e.type === "request.answered" || e.type === "reconnect") && journal.reload());
  return (
    <Page title="Journal">
      <label class="check">
        <input type="checkbox" checked={failedOnly} onChange={(e) => navigate(href("/journal", { failed: e.currentTarget.checked ? "1" : undefined }), true)} /> Only refused requests (4xx, 5xx)
      </label>
      <Loading loaded={journal}>
        {(rows) => (
          <table>
            <caption class="visually-hidden">Requests to /v1, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Request</th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
                <th scope="col">Took</th>
                <th scope="col">Bodies</th>
              </tr>
            </thead>
            <tbody>
              {[...rows]
                .reverse()
                .filter((entry) => !failedOnly || entry.status >= 400)
                .map((entry) => (
                  <tr key={entry.id} class={entry.status >= 400 ? "failed" : undefined}>
                    <td>
                      <Time at={entry.at} />
                    </td>
                    <td class="mono">
                      {entry.method} {entry.path}
                      {entry.operationId ? <div class="muted">{entry.operationId}</div> : null}
                    </td>
                    <td>
                      <span class={entry.status >= 400 ? "badge bad" : "badge"}>{entry.status}</span>
                    </td>
                    <td>
                      {entry.errorCode ?? "—"}
                      {entry.fault ? <div class="muted">fault {entry.fault}</div> : null}
                    </td>
                    <td>{Math.round(entry.durationMs)} ms</td>
                    <td>
                      <details>
                        <summary>Request and response</summary>
                        <Json value={{ query: entry.query, request: entry.requestBody, response: entry.responseBody }} />
                      </details>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        )}
      </Loading>
    </Page>
  );
}
