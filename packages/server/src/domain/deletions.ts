/**
 * Deleting a contact, a list or a campaign (the admin API, the dashboard): the record goes, and so
 * does whatever would be left pointing at it, so no later request or job meets an id that names
 * nothing. What each takes is stated in admin-openapi.yaml (the three delete operations). Each is
 * one event carrying every record it removed or changed, then a `job.cancelled` for each job it
 * called off, so whoever follows the queue sees them go.
 *
 * The caller stops the engine's work in flight first and picks the stored jobs up after
 * (engine.whilePaused): jobs removed here are then never run, and nothing running writes for a
 * record that is gone.
 */
import { readJob, type Job } from "../store/job-payloads.js";
import type { CampaignRecord, ContactRecord, ListRecord } from "../store/models.js";
import { publish, writable, type Domain } from "./domain.js";
import { cancelJob } from "./jobs.js";

/** Cancels the stored jobs that match, read by their kind (one of a kind no code runs stays). */
function cancelJobs(domain: Domain, matches: (job: Job) => boolean): void {
  for (const record of [...domain.store.job.all()]) {
    const job = readJob(record);
    if (job && matches(job)) cancelJob(domain, record);
  }
}

/**
 * The contact and its conversation: messages, their deliveries and attempts, alerts, list
 * memberships and pending work. Its credit transactions stay: the account's history adds up to its balance.
 */
export function deleteContact(domain: Domain, contact: ContactRecord): void {
  const store = writable(domain);
  const messages = new Set<string>();
  const deliveries = new Set<string>();
  for (const message of [...store.message.group("contact", contact.id)]) {
    for (const delivery of [...store.delivery.group("message", message.id)]) {
      for (const attempt of [...store.deliveryAttempt.group("delivery", delivery.id)]) store.deliveryAttempt.remove(attempt.id);
      store.delivery.remove(delivery.id);
      deliveries.add(delivery.id);
    }
    store.message.remove(message.id);
    messages.add(message.id);
  }
  for (const alert of [...store.alert.group("contact", contact.id)]) store.alert.remove(alert.id);
  for (const member of [...store.listMember.group("contact", contact.id)]) store.listMember.remove(member.id);
  store.contact.remove(contact.id);
  publish(domain, { type: "contact.deleted", contact });
  cancelJobs(domain, (job) => {
    switch (job.kind) {
      case "opening":
      case "follow_up":
        return job.payload.contactId === contact.id;
      case "inbound":
        return messages.has(job.payload.messageId);
      case "deliver":
        return deliveries.has(job.payload.deliveryId);
      default:
        return job satisfies never;
    }
  });
}

/**
 * The list and its memberships; its contacts and its campaign stay. The opening messages its
 * campaign still has queued for its members go too, but for members on another list of that
 * campaign (one of whose joins may have queued it).
 */
export function deleteList(domain: Domain, list: ListRecord): void {
  const store = writable(domain);
  const members = [...store.listMember.group("list", list.id)];
  for (const member of members) store.listMember.remove(member.id);
  store.list.remove(list.id);
  publish(domain, { type: "list.deleted", list });
  const campaignId = list.campaignId;
  if (campaignId === null) return;
  const otherLists = store.list.group("account", list.accountId).filter((other) => other.campaignId === campaignId);
  const stillJoined = (contactId: string) => otherLists.some((other) => store.listMember.get(`${other.id}:${contactId}`) !== undefined);
  const left = new Set(members.map((member) => member.contactId).filter((contactId) => !stillJoined(contactId)));
  cancelJobs(domain, (job) => job.kind === "opening" && job.payload.campaignId === campaignId && left.has(job.payload.contactId));
}

/**
 * The campaign, and every reference to it: lists unlinked, the account's default cleared,
 * contacts, messages and alerts naming none; its queued openings and follow-ups cancelled.
 */
export function deleteCampaign(domain: Domain, campaign: CampaignRecord): void {
  const store = writable(domain);
  const account = store.account.get(campaign.accountId);
  const unlinked = store.list.group("account", campaign.accountId).filter((list) => list.campaignId === campaign.id);
  for (const list of unlinked) store.list.update(list, { campaignId: null });
  const wasDefault = account?.defaultCampaignId === campaign.id;
  if (account && wasDefault) store.account.update(account, { defaultCampaignId: null });
  for (const contact of store.contact.group("account", campaign.accountId)) {
    if (contact.campaignId === campaign.id) store.contact.update(contact, { campaignId: null });
    for (const message of store.message.group("contact", contact.id))
      if (message.campaignId === campaign.id) store.message.update(message, { campaignId: null });
  }
  for (const alert of store.alert.group("account", campaign.accountId))
    if (alert.campaignId === campaign.id) store.alert.update(alert, { campaignId: null });
  store.campaign.remove(campaign.id);
  publish(domain, { type: "campaign.deleted", campaign });
  // Told as their own changes too, so whoever follows lists and accounts sees them move.
  for (const list of unlinked) publish(domain, { type: "list.updated", list });
  if (account && wasDefault) publish(domain, { type: "account.updated", account });
  cancelJobs(domain, (job) => (job.kind === "opening" || job.kind === "follow_up") && job.payload.campaignId === campaign.id);
}
