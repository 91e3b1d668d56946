/** Queued openings, follow-ups, retries and their times; a virtual clock's buttons to advance and settle. */
import { admin, type Schemas } from "../api/admin.js";
import { useReloadOn } from "../api/live.js";
import { useAction, useLoad } from "../ui/load.js";
import { ErrorNote, Loading, Page } from "../ui/page.js";
import { Table, type Column } from "../ui/table.js";
import { ContactLink, Json, Time } from "../ui/text.js";
import type { PageProps } from "./shared.js";

const STEPS: [label: string, ms: number][] = [
  ["Advance a minute", 60_000],
  ["Advance an hour", 3_600_000],
  ["Advance a day", 86_400_000],
];

const contactOf = (job: Schemas["Job"]) => (typeof job.payload.contactId === "string" ? job.payload.contactId : undefined);

const COLUMNS: Column<Schemas["Job"]>[] = [
  { head: "Runs at", cell: (job) => <Time at={job.runAt} /> },
  { head: "Kind", cell: (job) => job.kind.replace("_", "-") },
  { head: "Contact", cell: (job) => <ContactLink contact={job.contact} id={contactOf(job)} /> },
  {
    head: "Details",
    cell: (job) => (
      <details>
        <summary>Payload</summary>
        <Json value={job.payload} />
      </details>
    ),
  },
];

const NOTHING_SCHEDULED =
  "Nothing scheduled yet: openings queued when four or more contacts join a list at once, follow-ups after a contact's quiet time, bot replies and webhook retries show here with the time they run.";

export function Queue(_: PageProps) {
  const clock = useLoad(() => admin().clock(), []);
  const jobs = useLoad(() => admin().jobs(), []);
  useReloadOn(
    null,
    (event) => event.type.startsWith("job.") || event.type === "clock.advanced" || event.type === "contact.updated",
    clock.reload,
    jobs.reload,
  );
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
            {now.mode === "real" ? (
              <p class="muted">A real clock runs by itself: start the server with --clock virtual to advance it from here.</p>
            ) : null}
            <ErrorNote error={action.error} />
          </div>
        )}
      </Loading>
      <Loading loaded={jobs}>
        {(rows) => (
          <Table
            columns={COLUMNS}
            rows={rows}
            rowKey={(job) => job.id}
            caption="Scheduled work, soonest first (every account)"
            empty={NOTHING_SCHEDULED}
          />
        )}
      </Loading>
    </Page>
  );
}
