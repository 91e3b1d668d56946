/** Queued openings, follow-ups, retries and their times; a virtual clock's buttons to advance and settle. */
import type { PageProps } from "./shared.js";
import { admin } from "../api/admin.js";
import { useLive } from "../api/live.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { Json, Link, Time } from "../ui/text.js";

const STEPS: [label: string, ms: number][] = [
  ["Advance a minute", 60_000],
  ["Advance an hour", 3_600_000],
  ["Advance a day", 86_400_000],
];

export function Queue(_: PageProps) {
  const clock = useLoad(() => admin().clock(), []);
  const jobs = useLoad(() => admin().jobs(), []);
  useLive(null, (events) => {
    if (events.some((e) => e.type.startsWith("job.") || e.type === "clock.advanced" || e.type === "reconnect")) {
      clock.reload();
      jobs.reload();
    }
  });
  const action = useAction();
  const act = (run: () => Promise<unknown>) =>
    action.run(async () => {
      await run();
      clock.reload();
      jobs.reload();
    });

  return (
    <Page title="Queue & clock">
      <Loading loaded={clock}>
        {(now) => (
          <div class="card">
            <p>
              Clock ({now.mode}): <Time at={now.now} />
            </p>
            <div class="buttons">
              {now.mode === "virtual"
                ? STEPS.map(([label, ms]) => (
                    <button type="button" key={ms} disabled={action.busy} onClick={() => act(() => admin().advanceClock(ms))}>
                      {label}
                    </button>
                  ))
                : null}
              <button type="button" disabled={action.busy} onClick={() => act(() => admin().settle())}>
                Settle
              </button>
            </div>
            {now.mode === "real" ? <p class="muted">A real clock runs by itself: start the server with --clock virtual to advance it from here.</p> : null}
            <ErrorNote error={action.error} />
          </div>
        )}
      </Loading>
      <Loading loaded={jobs}>
        {(rows) => (
          <table>
            <caption>Scheduled work, soonest first (every account)</caption>
            <thead>
              <tr>
                <th scope="col">Runs at</th>
                <th scope="col">Kind</th>
                <th scope="col">Contact</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((job) => {
                const contactId = typeof job.payload.contactId === "string" ? job.payload.contactId : undefined;
                return (
                  <tr key={job.id}>
                    <td>
                      <Time at={job.runAt} />
                    </td>
                    <td>{job.kind.replace("_", "-")}</td>
                    <td>{contactId ? <Link to={`/contacts/${contactId}`}>{contactId}</Link> : "—"}</td>
                    <td>
                      <details>
                        <summary>Payload</summary>
                        <Json value={job.payload} />
                      </details>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Loading>
    </Page>
  );
}
