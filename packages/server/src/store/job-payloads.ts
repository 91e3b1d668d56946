/**
 * The kinds of job the engine runs and what each carries, declared once. A job is stored with its
 * payload as JSON text (`JobRecord.payload`, as the data file and snapshots hold it): `readJob`
 * reads it back, typed by the job's kind, so no code guesses a payload from the keys it has.
 */
import type { JobRecord } from "./models.js";

export interface JobPayloads {
  /** A received message for the bot to answer. */
  inbound: { messageId: string };
  /** A webhook delivery's next attempt. */
  deliver: { deliveryId: string };
  /** A campaign's opening message to a contact who joined its list. */
  opening: { campaignId: string; contactId: string };
  /** A campaign's follow-up number `step` (counted over every cycle, from 0) to a contact. */
  follow_up: { campaignId: string; contactId: string; step: number };
}

export type JobKind = keyof JobPayloads;

/** A stored job's kind and payload, the one typed by the other. */
export type Job = { [K in JobKind]: { kind: K; payload: JobPayloads[K] } }[JobKind];

// A record, so a kind added to JobPayloads and left out here fails to compile.
const KINDS: Record<JobKind, true> = { inbound: true, deliver: true, opening: true, follow_up: true };

export const isJobKind = (kind: string): kind is JobKind => Object.hasOwn(KINDS, kind);

/**
 * The job's kind and payload, or undefined for a kind no code runs (a data file written by hand
 * may hold one). The payload is trusted as the engine wrote it: a data file's is checked only for
 * being JSON text (domain/records-check.ts).
 */
export function readJob(record: JobRecord): Job | undefined {
  if (!isJobKind(record.kind)) return undefined;
  return { kind: record.kind, payload: JSON.parse(record.payload) as never };
}
