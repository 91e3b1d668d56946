/**
 * POST /subaccounts/credits: an agency grants credits to one of its sub-accounts. With an
 * Idempotency-Key, a retry (the same request again) answers what the first did and grants nothing
 * more; the key is remembered for `idempotencyTtlMs`.
 */
import type { components } from "@intake/spec";
import { HttpError, badRequest, notFound } from "../shared/errors.js";
import type { AccountRecord } from "../store/models.js";
import { isCreditAmount, moveCredits, roundCredits } from "./credits.js";
import { publish, timestamp, writable, type Domain } from "./domain.js";

type Schemas = components["schemas"];

export function grantCredits(
  domain: Domain,
  agency: AccountRecord,
  input: Schemas["GrantCreditsInput"],
  key: string | null,
): { result: Schemas["GrantCreditsResult"]; replayed: boolean } {
  if (agency.kind !== "agency") {
    throw new HttpError(
      403,
      "NOT_AGENCY",
      `Only agency accounts can grant credits to sub-accounts; this key belongs to a ${agency.kind} account.`,
    );
  }
  const fingerprint = stableJson(input);
  if (key) {
    expireKeys(domain);
    const first = domain.store.idempotencyRecord.get(keyId(agency.id, key));
    if (first) {
      if (first.fingerprint !== fingerprint) {
        throw badRequest(
          "IDEMPOTENCY_KEY_REUSED",
          `Idempotency-Key ${key} was already used for a different request; use a new key for a new grant.`,
        );
      }
      return { result: JSON.parse(first.body) as Schemas["GrantCreditsResult"], replayed: true };
    }
  }
  const subaccount = domain.store.account.find("subaccountEmail", agency.id, input.email.toLowerCase());
  if (!subaccount) throw notFound("SUBACCOUNT_NOT_FOUND", `No sub-account of this agency has the email ${input.email}.`);
  const amount = grantAmount(input.amount);
  moveCredits(domain, subaccount, amount, {
    description: input.description?.trim() || `Credits granted by ${agency.name}`,
    source: "agency_grant",
    idempotencyKey: key,
  });
  const result = { success: true, sub_account_id: subaccount.id, credits_added: amount, new_balance: subaccount.credits };
  if (key) remember(domain, agency, key, fingerprint, JSON.stringify(result));
  return { result, replayed: false };
}

/** A grant's amount, as kept (to 6 decimal places). */
function grantAmount(amount: number): number {
  if (!isCreditAmount(amount) || amount < 0) {
    throw badRequest("INVALID_AMOUNT", "amount must be a positive number of credits with at most 6 decimal places, at most 1000000000.");
  }
  return roundCredits(amount);
}

const keyId = (accountId: string, key: string) => `${accountId}\n${key}`;

function remember(domain: Domain, agency: AccountRecord, key: string, fingerprint: string, body: string): void {
  const store = writable(domain);
  const id = keyId(agency.id, key);
  const fields = { accountId: agency.id, key, fingerprint, status: 200, body, createdAt: timestamp(domain) };
  const known = store.idempotencyRecord.get(id);
  const record = known ? store.idempotencyRecord.update(known, fields) : store.idempotencyRecord.insert({ id, ...fields });
  publish(domain, { type: "idempotency.saved", record });
}

/** Drops the keys older than the time they are remembered for (records are kept oldest first). */
function expireKeys(domain: Domain): void {
  const cutoff = domain.clock.now() - domain.limits.idempotencyTtlMs;
  const expired: string[] = [];
  for (const record of domain.store.idempotencyRecord.all()) {
    if (Date.parse(record.createdAt) >= cutoff) break;
    expired.push(record.id);
  }
  if (expired.length === 0) return;
  for (const id of expired) writable(domain).idempotencyRecord.remove(id);
  publish(domain, { type: "idempotency.expired", ids: expired });
}

/** JSON with object keys sorted, so equal requests compare equal whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
