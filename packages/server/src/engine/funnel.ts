/**
 * The funnel: a contact joining a list linked to a Live campaign with `Trigger on New Contacts
 * Added to List` on gets the campaign's opening message, on the campaign's built-in channel.
 *
 * "At once": an import (or a manual add) is one batch; adds through the API to one list within
 * `burstWindowMs` of the first are one burst. A batch of 1 to 3, and the first three of a burst,
 * are sent at once; a batch of 4 or more, and a burst's fourth add onward, go through a queue that
 * each campaign drains at one message per `queueIntervalMs`. A lead who gets the opening message
 * is followed up if the campaign says so (follow-ups.ts).
 */
import { settingsOf, type CampaignSettings } from "../domain/campaigns.js";
import { updateContact } from "../domain/contacts.js";
import { charge, NO_CREDITS } from "../domain/credits.js";
import { ownedBy, type Domain } from "../domain/domain.js";
import { rescheduleJob } from "../domain/jobs.js";
import { readJob } from "../store/job-payloads.js";
import type { CampaignRecord, ContactRecord } from "../store/models.js";
import { startFollowUps } from "./follow-ups.js";
import { recordOnChannel, sendsNothingFirst, subjectOf } from "./outreach.js";
import type { Scheduler } from "./scheduler.js";

export interface FunnelOptions {
  /** Adds to one list within this time of a burst's first are "at once". Default 10 000 ms. */
  burstWindowMs: number;
  /** Sent at once: up to this many. Default 3. */
  immediateLimit: number;
  /** The queue's safe rate: one opening message per campaign every this many ms. Default 10 000 (6 a minute). */
  queueIntervalMs: number;
}

export const FUNNEL_DEFAULTS: FunnelOptions = { burstWindowMs: 10_000, immediateLimit: 3, queueIntervalMs: 10_000 };

export interface FunnelDeps {
  domain: Domain;
  scheduler: Scheduler;
  options: FunnelOptions;
}

/** Why the trigger does not fire for this campaign, or undefined when it does: one that sends first, with the toggle on. */
function triggerOff(settings: CampaignSettings): string | undefined {
  return (
    sendsNothingFirst(settings) ??
    (settings.triggerOnNewListContacts ? undefined : "The campaign's Trigger on New Contacts Added to List is off.")
  );
}

export function startFunnel({ domain, scheduler, options }: FunnelDeps) {
  const { store, clock } = domain;
  const bursts = new Map<string, { start: number; count: number }>();
  const lastSlot = new Map<string, number>();
  const campaignOf = (accountId: string, id: string) => ownedBy(accountId, store.campaign.get(id));
  const followUps = startFollowUps(domain, scheduler);

  domain.events.on(["list.joined"], ({ list, contact, source, batchSize }) => {
    // Seeded members are the starting state.
    if (source === "seed") return;
    const campaign = list.campaignId ? campaignOf(list.accountId, list.campaignId) : undefined;
    if (!campaign) return;
    if (triggerOff(settingsOf(campaign))) return;
    const payload = { campaignId: campaign.id, contactId: contact.id };
    // A queued opening is a job (GET /__admin/jobs) until it is sent: recorded only then, it takes
    // its place in the conversation in the order things happened.
    scheduler.add("opening", payload, isAtOnce(list.id, source, batchSize) ? null : nextSlot(campaign.id));
  });

  function isAtOnce(listId: string, source: string, batchSize: number): boolean {
    if (source !== "api") return batchSize <= options.immediateLimit;
    const now = clock.now();
    let burst = bursts.get(listId);
    if (!burst || now - burst.start >= options.burstWindowMs) bursts.set(listId, (burst = { start: now, count: 0 }));
    burst.count++;
    return burst.count <= options.immediateLimit;
  }

  /** Each campaign's queue sends one message per interval, the first slot being now. */
  function nextSlot(campaignId: string): number {
    const last = lastSlot.get(campaignId) ?? latestQueued(campaignId);
    const slot = Math.max(clock.now(), last + options.queueIntervalMs);
    lastSlot.set(campaignId, slot);
    return slot;
  }

  /** The last slot taken by a campaign's queue, from the stored jobs (after a restart). */
  function latestQueued(campaignId: string): number {
    let latest = Number.NEGATIVE_INFINITY;
    for (const job of store.job.all()) {
      const read = readJob(job);
      if (read?.kind === "opening" && job.runAt !== null && read.payload.campaignId === campaignId) latest = Math.max(latest, job.runAt);
    }
    return latest;
  }

  /**
   * Why the opening message cannot go, or undefined when it can: the trigger's conditions again
   * (they may have changed while it waited in the queue), then the message's own.
   */
  function whyNot(campaign: CampaignRecord, contact: ContactRecord): string | undefined {
    const settings = settingsOf(campaign);
    const off = triggerOff(settings);
    if (off) return off;
    const template = settings.openingTemplate;
    if (!template) return "The campaign has no opening template.";
    if (template.approval !== "approved") {
      return `The opening template is ${template.approval}, not approved: a template is sent only once the messaging channel approves it.`;
    }
    if (!contact.phone) return `The contact has no phone number to reach on ${settings.channel}.`;
    const opened = store.message
      .group("contact", contact.id)
      .some((m) => m.source === "opening" && m.campaignId === campaign.id && m.status === "sent");
    if (opened) return "The contact has already received this campaign's opening message.";
    return undefined;
  }

  scheduler.on("opening", (payload) => {
    const subject = subjectOf(domain, payload);
    if (!subject) return;
    const { campaign, contact, account } = subject;
    const reason = whyNot(campaign, contact);
    if (reason) return void recordOnChannel(domain, campaign, contact, { status: "not_sent", error: reason });
    if (!charge(domain, account, contact, "opening"))
      return void recordOnChannel(domain, campaign, contact, { status: "not_sent", error: NO_CREDITS });
    recordOnChannel(domain, campaign, contact, { status: "sent" });
    if (contact.campaignId !== campaign.id) updateContact(domain, contact, { campaignId: campaign.id });
    followUps.schedule(campaign, contact, 0);
  });

  return {
    /**
     * After the state was loaded: forgets what it worked out from the old one, and spaces queued
     * openings whose slots passed while the server was down, so the queue keeps its safe rate.
     */
    restore() {
      bursts.clear();
      lastSlot.clear();
      const queued = [...store.job.all()].flatMap((job) => {
        const read = readJob(job);
        return read?.kind === "opening" && job.runAt !== null ? [{ job, runAt: job.runAt, campaignId: read.payload.campaignId }] : [];
      });
      queued.sort((a, b) => a.runAt - b.runAt);
      const slots = new Map<string, number>();
      for (const { job, runAt, campaignId } of queued) {
        const slot = Math.max(runAt, clock.now(), (slots.get(campaignId) ?? Number.NEGATIVE_INFINITY) + options.queueIntervalMs);
        rescheduleJob(domain, job, slot);
        slots.set(campaignId, slot);
      }
    },
  };
}
