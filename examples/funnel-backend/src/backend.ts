/**
 * A landing page's backend. On a form submission it records the lead's consent (no consent, no
 * messages), then waits 15 minutes before creating the contact, so a lead who writes to the
 * business first is already in the incoming conversation; then it creates the contact (the service
 * returns the existing one for a known phone) and adds it to the campaign's list.
 */
import { appendFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { IntakeClient } from "@intake/client";
import { realTimers, type Timers } from "./timers.js";

export interface LeadForm {
  phone: string;
  firstName: string;
  lastName?: string;
  email?: string;
  /** The box the lead ticked, and the words next to it. */
  consent: boolean;
  consentText: string;
}

export type LeadResult =
  { phone: string; outcome: "added_to_funnel" | "already_known"; contactId: string } | { phone: string; outcome: "failed"; error: unknown };

export interface BackendOptions {
  intake: IntakeClient<"query">;
  listId: string;
  /** Where consent is kept, one JSON line per lead (append-only, so it is never rewritten). */
  consentLog: string;
  /** Default 15 minutes. */
  delayMs?: number;
  timers?: Timers;
  /** Called when the wait is over: the lead joined the funnel, was already known, or failed. */
  onDone?: (result: LeadResult) => void;
}

const MAX_BODY_BYTES = 16 * 1024;

export function createBackend(options: BackendOptions) {
  const timers = options.timers ?? realTimers;
  const delayMs = options.delayMs ?? 15 * 60 * 1000;

  async function sendToIntake(form: LeadForm, consentedAt: string) {
    try {
      // A lead who wrote to the business during the wait is already in the incoming conversation
      // (that is what the wait is for): leave it there rather than start the funnel on top of it.
      const existing = await options.intake.contacts.find({ phoneNumber: form.phone });
      if (existing) return options.onDone?.({ phone: form.phone, contactId: existing.id, outcome: "already_known" });
      const contact = await options.intake.contacts.create({
        phone: form.phone,
        firstName: form.firstName,
        lastName: form.lastName,
        email: form.email,
        customFields: { consent: true, consentAt: consentedAt, source: "landing-page" },
      });
      await options.intake.lists.addContact(options.listId, { contactId: contact.id });
      options.onDone?.({ phone: form.phone, contactId: contact.id, outcome: "added_to_funnel" });
    } catch (error) {
      options.onDone?.({ phone: form.phone, outcome: "failed", error });
    }
  }

  /** Takes a submission; returns when the lead will reach Intake. */
  async function submit(form: LeadForm, from: string): Promise<{ scheduledFor: string }> {
    if (form.consent !== true) throw new FormError("The lead did not agree to be contacted: nothing is sent.");
    if (!form.phone || !form.firstName) throw new FormError("phone and firstName are required.");
    // Caught now, while the lead is on the page, rather than when the contact is created.
    if (!/^\+[1-9][\d\s().-]{6,20}$/.test(form.phone.trim())) throw new FormError("phone must include the country code, starting with +.");
    const consentedAt = new Date(timers.now()).toISOString();
    await appendFile(
      options.consentLog,
      `${JSON.stringify({ phone: form.phone, email: form.email ?? null, text: form.consentText, at: consentedAt, from })}\n`,
    );
    timers.setTimeout(() => void sendToIntake(form, consentedAt), delayMs);
    return { scheduledFor: new Date(timers.now() + delayMs).toISOString() };
  }

  /** POST /leads with the form as JSON. */
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== "POST" || req.url !== "/leads") return answer(res, 404, { error: "POST /leads" });
    // Bytes first, decoded once: a character split across two chunks stays whole.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return answer(res, 413, { error: `The form is larger than ${MAX_BODY_BYTES} bytes.` });
      chunks.push(chunk);
    }
    try {
      answer(res, 202, await submit(JSON.parse(Buffer.concat(chunks).toString("utf8")) as LeadForm, req.socket.remoteAddress ?? "unknown"));
    } catch (error) {
      answer(res, error instanceof FormError ? 422 : 400, { error: (error as Error).message });
    }
  }

  return { submit, handle };
}

export class FormError extends Error {}

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
