/**
 * The funnel: a contact joining a list linked to a Live campaign with `Trigger on New Contacts
 * Added to List` on gets the campaign's opening message, on the campaign's built-in channel.
 *
 * "At once": an import (or a manual add) is one batch; adds through the API to one list within
 * `burstWindowMs` of the first are one burst. A batch of 1 to 3, and the first three of a burst,
 * are sent at once; a batch of 4 or more, and a burst's fourth add onward, go through a queue that
 * each campaign drains at one message per `queueIntervalMs`.
 *
 * Leads who do not answer are followed up after quiet times of 24 h, 72 h and 7 days (the
 * campaign's settings), up to its cycles of messages; any message from the contact cancels the
 * rest (conversation.ts).
 */
import type { CampaignSettings } from "../records/present-admin.js";
import type { Clock } from "../shared/clock.js";
import type { CampaignRecord, ContactRecord, MessageRecord } from "../store/models.js";
import type { Store } from "../store/store.js";
import type { Credits } from "./credits.js";
import type { DomainEvents } from "./events.js";
import { recordOutbound, type Outbound } from "../records/outbound.js";
import { render } from "./render.js";
import { followUpKey } from "./conversation.js";
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

const HOUR = 3_600_000;
const DEFAULT_FOLLOW_UP = "Hi {{firstName}}, just checking in on my last message: are you still interested?";

export interface FunnelDeps {
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  events: DomainEvents;
  credits: Credits;
  options: FunnelOptions;
}

/** Why this campaign sends nothing first (no opening, no follow-up), or undefined when it does: only a Live one that is not Incoming. */
function sendsNothingFirst(settings: CampaignSettings): string | undefined {
  if (settings.state !== "Live") return `The campaign is ${settings.state}; only a Live campaign sends.`;
  if (settings.type === "Incoming") return "The campaign is Incoming; it sends no opening messages.";
  return undefined;
}

/** Why the trigger does not fire for this campaign, or undefined when it does: one that sends first, with the toggle on. */
function triggerOff(settings: CampaignSettings): string | undefined {
  return sendsNothingFirst(settings) ?? (settings.triggerOnNewListContacts ? undefined : "The campaign's Trigger on New Contacts Added to List is off.");
}

export function createFunnel({ store, clock, scheduler, events, credits, options }: FunnelDeps) {
  const bursts = new Map<string, { start: number; count: number }>();
  const lastSlot = new Map<string, number>();
  const settingsOf = (campaign: CampaignRecord) => JSON.parse(campaign.settings) as CampaignSettings;

  events.on("contactAddedToList", ({ list, contact, source, batchSize }) => {
    const campaign = list.campaignId ? store.campaign(list.accountId, list.campaignId) : undefined;
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
    return store
      .jobs()
      .filter((job) => job.kind === "opening" && job.runAt !== null && (JSON.parse(job.payload) as { campaignId: string }).campaignId === campaignId)
      .reduce((latest, job) => Math.max(latest, job.runAt!), Number.NEGATIVE_INFINITY);
  }

  /** An opening message or follow-up on the campaign's built-in channel, to the contact's phone. */
  function record(campaign: CampaignRecord, contact: ContactRecord, message: Pick<Outbound, "status"> & Partial<Pick<Outbound, "body" | "source" | "error">>): MessageRecord {
    const settings = settingsOf(campaign);
    return recordOutbound(store, {
      contact,
      channel: settings.channel,
      body: settings.openingTemplate ? render(settings.openingTemplate.body, contact) : "",
      source: "opening",
      toId: contact.phone,
      campaignId: campaign.id,
      ...message,
    });
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
    const opened = store
      .conversation(contact.id)
      .some((m) => m.source === "opening" && m.campaignId === campaign.id && m.status === "sent");
    if (opened) return "The contact has already received this campaign's opening message.";
    return undefined;
  }

  scheduler.on("opening", (payload) => {
    const campaign = store.campaignById(String(payload.campaignId));
    const contact = campaign && store.contact(campaign.accountId, String(payload.contactId));
    if (!campaign || !contact) return;
    const reason = whyNot(campaign, contact);
    if (reason) return void record(campaign, contact, { status: "not_sent", error: reason });
    const account = store.account(campaign.accountId)!;
    if (!credits.charge(account, contact, "opening")) {
      return void record(campaign, contact, { status: "not_sent", error: "The account has no credits left." });
    }
    record(campaign, contact, { status: "sent" });
    if (contact.campaignId !== campaign.id) store.updateContact(contact, { campaignId: campaign.id });
    scheduleFollowUp(campaign, contact, 0);
  });

  /** Follow-ups are for leads who have not written: one who has, at any time, is in a conversation. */
  const hasWritten = (contact: ContactRecord) => store.conversation(contact.id).some((m) => m.direction === "inbound");

  function scheduleFollowUp(campaign: CampaignRecord, contact: ContactRecord, step: number) {
    const { followUps } = settingsOf(campaign);
    if (!followUps.enabled || step >= followUps.cycles * followUps.messagesPerCycle || hasWritten(contact)) return;
    const position = step % followUps.messagesPerCycle;
    const quiet = followUps.delaysHours[Math.min(position, followUps.delaysHours.length - 1)]!;
    scheduler.add("follow_up", { campaignId: campaign.id, contactId: contact.id, step }, clock.now() + quiet * HOUR, followUpKey(contact.id));
  }

  scheduler.on("follow_up", (payload) => {
    const campaign = store.campaignById(String(payload.campaignId));
    const contact = campaign && store.contact(campaign.accountId, String(payload.contactId));
    if (!campaign || !contact) return;
    const settings = settingsOf(campaign);
    // One that stopped sending first (not Live, or become Incoming) stops its follow-ups too.
    if (sendsNothingFirst(settings) || !settings.followUps.enabled || hasWritten(contact)) return;
    const step = Number(payload.step);
    const texts = settings.followUps.messages;
    const text = render(texts.length ? texts[step % texts.length]! : DEFAULT_FOLLOW_UP, contact);
    const account = store.account(campaign.accountId)!;
    if (!credits.charge(account, contact, "follow_up")) {
      record(campaign, contact, { status: "not_sent", error: "The account has no credits left.", body: text, source: "follow_up" });
      return;
    }
    record(campaign, contact, { status: "sent", body: text, source: "follow_up" });
    scheduleFollowUp(campaign, contact, step + 1);
  });

  return {
    /**
     * After the state was loaded: forgets what it worked out from the old one, and spaces queued
     * openings whose slots passed while the server was down, so the queue keeps its safe rate.
     */
    restore() {
      bursts.clear();
      lastSlot.clear();
      const queued = store
        .jobs()
        .filter((job) => job.kind === "opening" && job.runAt !== null)
        .sort((a, b) => a.runAt! - b.runAt!);
      const slots = new Map<string, number>();
      for (const job of queued) {
        const { campaignId } = JSON.parse(job.payload) as { campaignId: string };
        const slot = Math.max(job.runAt!, clock.now(), (slots.get(campaignId) ?? Number.NEGATIVE_INFINITY) + options.queueIntervalMs);
        store.rescheduleJob(job, slot);
        slots.set(campaignId, slot);
      }
    },
  };
}
