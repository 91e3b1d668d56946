/**
 * The whole state at once: a seed applied (through the same operations as the API's), a reset, a
 * snapshot taken or loaded. Each is all or nothing: one that fails leaves the state as it was.
 */
import type { components } from "../generated/admin.js";
import { DuplicateId, type Counts, type KindName, type Records } from "../store/store.js";
import type { AccountRecord } from "../store/models.js";
import { checkInboxes, createAccount } from "./accounts.js";
import { campaignIn, createCampaign } from "./campaigns.js";
import { setClock } from "./clock.js";
import { upsertContact } from "./contacts.js";
import { isoTime, ownedBy, publish, writable, type Domain } from "./domain.js";
import { fail, invalid, notIn } from "./errors.js";
import { createList, join } from "./lists.js";
import { roomForAll } from "./capacity.js";
import { checkRecords, duplicateId } from "./records-check.js";

type Schemas = components["schemas"];
export type Seed = Schemas["Seed"];
export type Snapshot = Schemas["Snapshot"];

export const SNAPSHOT_FORMAT = "intake-snapshot/1";

/** Applies a whole seed, or nothing of it. Its shape is checked by the caller (against the admin contract). */
export function applySeed(domain: Domain, seed: Seed): Counts {
  const before = writable(domain).records();
  try {
    const seeded: AccountRecord[] = [];
    for (const entry of seed.accounts ?? []) {
      const owner = createAccount(domain, entry, entry.kind ?? "standard", null, "seed");
      seeded.push(owner);
      seedOwned(domain, owner, entry);
      for (const sub of entry.subaccounts ?? []) {
        if (owner.kind !== "agency") throw invalid(`Account ${owner.id} has sub-accounts but is not an agency (kind: agency).`);
        const account = createAccount(domain, sub, "subaccount", owner, "seed");
        seeded.push(account);
        seedOwned(domain, account, sub);
      }
    }
    // Once every account is made: a seed's account may send its webhooks to a later one's inbox.
    for (const account of seeded) checkInboxes(domain, account, `Seed account ${account.id}: `);
  } catch (error) {
    replace(domain, before, "rollback");
    throw error;
  }
  return domain.store.counts();
}

/** An account's nested campaigns, lists and contacts, in that order so references resolve. */
function seedOwned(domain: Domain, owner: AccountRecord, seed: Schemas["SeedAccount"] | Schemas["SeedSubaccount"]) {
  for (const campaign of seed.campaigns ?? []) createCampaign(domain, owner, campaign);
  if (seed.defaultCampaignId) {
    campaignIn(domain, owner.id, seed.defaultCampaignId, `Account ${owner.id}'s defaultCampaignId`);
    writable(domain).account.update(owner, { defaultCampaignId: seed.defaultCampaignId });
    publish(domain, { type: "account.updated", account: owner });
  }
  for (const contact of seed.contacts ?? []) upsertContact(domain, owner, contact);
  for (const list of seed.lists ?? []) {
    const record = createList(domain, owner, list);
    const members = (list.contactIds ?? []).map(
      (contactId) =>
        ownedBy(owner.id, domain.store.contact.get(contactId)) ??
        fail(notIn(`List ${record.id}: no contact ${contactId} in account ${owner.id}.`)),
    );
    // Seeded members are the starting state: they do not trigger opening messages.
    join(domain, record, members, "seed", `seed:${record.id}`);
  }
}

/**
 * Back to a seed (none: empty), at `clockTo` when given (a virtual clock rewound first, so the
 * seed's records are made at that time); one that fails leaves the state, and the clock, as they were.
 */
export function resetState(domain: Domain, seed: Seed | undefined, clockTo?: number): Counts {
  const before = writable(domain).records();
  const was = domain.clock.now();
  try {
    if (clockTo !== undefined) setClock(domain, clockTo);
    writable(domain).clear();
    if (seed) applySeed(domain, seed);
  } catch (error) {
    if (clockTo !== undefined) setClock(domain, was);
    replace(domain, before, "rollback");
    throw error;
  }
  publish(domain, { type: "state.replaced", cause: "reset" });
  return domain.store.counts();
}

export function snapshot(domain: Domain): Snapshot {
  const now = isoTime(domain.clock.now());
  return {
    format: SNAPSHOT_FORMAT,
    savedAt: now,
    clock: { mode: domain.clock.mode, now },
    ids: (domain.ids.state() ?? null) as Snapshot["ids"],
    records: writable(domain).records() as unknown as Snapshot["records"],
  };
}

/**
 * Replaces the state with a snapshot's records (at start, a restore, or the data file's after a
 * commit failed: "rollback"), each checked first as records-check.ts says: one that fails is
 * refused by its path, and nothing is changed. The clock is the caller's.
 */
export function loadSnapshot(domain: Domain, snapshot: Snapshot, cause: "load" | "restore" | "rollback"): Counts {
  if (snapshot.format !== SNAPSHOT_FORMAT) throw invalid(`Not a snapshot this server can read (format ${String(snapshot.format)}).`);
  checkRecords(snapshot.records, domain.rules);
  // What is loaded (at start, put back) was held already; a restore brings new records.
  if (cause === "restore")
    roomForAll(domain, { contacts: snapshot.records.contact?.length ?? 0, messages: snapshot.records.message?.length ?? 0 });
  try {
    replace(domain, snapshot.records as unknown as Partial<Records>, cause);
  } catch (error) {
    if (error instanceof DuplicateId) throw duplicateId(error.table as KindName, error.index, error.id);
    throw invalid(`${(error as Error).message}. Nothing was changed.`);
  }
  return domain.store.counts();
}

function replace(domain: Domain, records: Partial<Records>, cause: "load" | "restore" | "rollback"): void {
  writable(domain).load(records);
  publish(domain, { type: "state.replaced", cause });
}
