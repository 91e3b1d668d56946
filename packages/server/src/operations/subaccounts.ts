/** POST /subaccounts/credits. */
import { HttpError, badRequest, notFound } from "../shared/errors.js";
import { isCreditAmount, roundCredits } from "../store/store.js";
import type { Handler } from "./types.js";

export const grantSubaccountCredits: Handler<"grantSubaccountCredits"> = ({ account, body, headers }, { store, limits }) => {
  if (account.kind !== "agency") {
    throw new HttpError(403, "NOT_AGENCY", `Only agency accounts can grant credits to sub-accounts; this key belongs to a ${account.kind} account.`);
  }
  const key = headers.get("idempotency-key");
  const fingerprint = stableJson(body);
  if (key) {
    store.expireIdempotency(limits.idempotencyTtlMs);
    const first = store.idempotent(account.id, key);
    if (first) {
      if (first.fingerprint !== fingerprint) {
        throw badRequest("IDEMPOTENCY_KEY_REUSED", `Idempotency-Key ${key} was already used for a different request; use a new key for a new grant.`);
      }
      return { status: 200, body: JSON.parse(first.body), headers: { "idempotent-replayed": "true" } };
    }
  }
  const subaccount = store.subaccount(account.id, body.email);
  if (!subaccount) throw notFound("SUBACCOUNT_NOT_FOUND", `No sub-account of this agency has the email ${body.email}.`);
  const amount = creditAmount(body.amount);
  store.addCredits(subaccount, amount, {
    description: body.description?.trim() || `Credits granted by ${account.name}`,
    source: "agency_grant",
    idempotencyKey: key,
  });
  const result = { success: true, sub_account_id: subaccount.id, credits_added: amount, new_balance: subaccount.credits };
  if (key) store.remember({ accountId: account.id, key, fingerprint, status: 200, body: JSON.stringify(result) });
  return { status: 200, body: result };
};

/** A grant's amount, as kept (to 6 decimal places). */
export function creditAmount(amount: number): number {
  if (!isCreditAmount(amount) || amount < 0) {
    throw badRequest("INVALID_AMOUNT", "amount must be a positive number of credits with at most 6 decimal places, at most 1000000000.");
  }
  return roundCredits(amount);
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
