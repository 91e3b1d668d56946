/**
 * Scheduled work as stored records: the engine's scheduler queues, moves and ends its jobs through
 * these, so a restart finds what was pending and the live feed sees it come and go.
 */
import type { JobKind, JobPayloads } from "../store/job-payloads.js";
import type { JobRecord } from "../store/models.js";
import { publish, timestamp, writable, type Domain } from "./domain.js";

/** Stores a job, its payload as JSON text (the data file's and snapshots' shape). */
export function queueJob<K extends JobKind>(
  domain: Domain,
  kind: K,
  payload: JobPayloads[K],
  runAt: number | null,
  key: string | null,
): JobRecord {
  const job = writable(domain).job.insert({
    id: domain.ids.id("job_"),
    kind,
    runAt,
    key,
    payload: JSON.stringify(payload),
    createdAt: timestamp(domain),
  });
  publish(domain, { type: "job.queued", job });
  return job;
}

export function rescheduleJob(domain: Domain, job: JobRecord, runAt: number | null): void {
  writable(domain).job.update(job, { runAt });
  publish(domain, { type: "job.rescheduled", job });
}

/** The job did its work: it is removed. */
export function finishJob(domain: Domain, job: JobRecord): void {
  if (remove(domain, job)) publish(domain, { type: "job.ran", job });
}

/** The job is no longer wanted (a contact answered the follow-ups it was for). */
export function cancelJob(domain: Domain, job: JobRecord): void {
  if (remove(domain, job)) publish(domain, { type: "job.cancelled", job });
}

/** Removes this very record: not another of its id in a state loaded meanwhile. */
function remove(domain: Domain, job: JobRecord): boolean {
  return domain.store.job.get(job.id) === job && writable(domain).job.remove(job.id);
}
