/**
 * The one check of records that come in whole rather than through the operations that make them:
 * `PUT /__admin/snapshot`, createIntake's `snapshot`, a data file or an `intake-snapshot/1` JSON
 * file at start (all of them through loadSnapshot). Each record is checked against its kind's
 * schema in the admin contract (SnapshotRecords), then what the operations would have refused:
 * an API key of two accounts, a sub-account's email twice in its agency, a record of an account
 * the records do not have, a webhook URL by the rule every admin route applies, an id used twice
 * within a kind (found by the store as it loads them). The first record that fails is refused by
 * its path; nothing is changed.
 */
import type { OpenApiDocument } from "@intake/spec";
import type { ValidateFunction } from "ajv";
import { adminDocument } from "../generated/admin-document.js";
import * as builtFull from "../generated/validators-records-full.js";
import * as builtQuick from "../generated/validators-records-quick.js";
import { built } from "../shared/built-validators.js";
import { HttpError } from "../shared/errors.js";
import { fieldPath } from "../shared/field-path.js";
import { nonFinite, notFinite } from "../shared/finite.js";
import { schemaError } from "../shared/schema-errors.js";
import { webhookUrlProblem } from "../shared/webhook-url.js";
import { KIND_NAMES, type KindName } from "../store/store.js";
import type { Rules } from "./domain.js";
import { invalid } from "./errors.js";

/** A record refused: which (its kind, its place among them, its id if it has one) and why, by its path. */
export class RecordRefused extends HttpError<"VALIDATION_ERROR"> {
  constructor(
    readonly kind: KindName,
    readonly index: number,
    readonly id: string | undefined,
    /** What is wrong, starting with the field's path: `records.account[1].apiKey is ...`. */
    readonly problem: string,
  ) {
    super(400, "VALIDATION_ERROR", `${problem} Nothing was changed.`);
  }
}

/**
 * Checks every record; throws RecordRefused for the first that fails (or a 400 for records that
 * are not arrays by kind). Ids used twice within a kind are found as the store loads them (its
 * index of ids is made then anyway: a second one would cost a start on a large data file
 * seconds), and refused in the same words (`duplicateId`).
 */
export function checkRecords(records: unknown, rules: Pick<Rules, "allowHttpWebhooks">): void {
  if (typeof records !== "object" || records === null || Array.isArray(records))
    throw invalid("records must be an object of arrays, by kind. Nothing was changed.");
  const unknown = Object.keys(records).find((kind) => !(KIND_NAMES as string[]).includes(kind));
  if (unknown !== undefined)
    throw invalid(`Unknown field records.${unknown}. Allowed in records: ${KIND_NAMES.join(", ")}. Nothing was changed.`);
  const byKind = records as Partial<Record<KindName, unknown>>;
  const quick = validators("quick");
  const accounts = new Set<string>();
  const keys = accountKeys(rules);
  for (const kind of KIND_NAMES) {
    const list = byKind[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalid(`records.${kind} must be an array. Nothing was changed.`);
    const valid = quick[kind];
    // A plain loop allocating nothing per record: a data file's million messages go through it.
    for (let index = 0; index < list.length; index++) {
      const record: unknown = list[index];
      if (!valid(record)) throw refused(kind, index, record, schemaProblem(record, kind, index));
      if (kind === "account") {
        const problem = keys.problem(record as AccountFields);
        if (problem) throw refused(kind, index, record, `${fieldPath(["records", kind, String(index), problem.field])} ${problem.text}`);
        accounts.add((record as AccountFields).id);
        continue;
      }
      const text = jsonTextProblem(kind, record);
      if (text)
        throw refused(
          kind,
          index,
          record,
          `${fieldPath(["records", kind, String(index), text])} must be the JSON text of an object: the server reads it as one.`,
        );
      const { accountId } = record as { accountId?: string };
      if (accountId !== undefined && !accounts.has(accountId)) {
        throw refused(
          kind,
          index,
          record,
          `records.${kind}[${index}].accountId names account ${accountId}, which these records do not have.`,
        );
      }
    }
  }
}

/** The fields that hold an object as JSON text (the schema says only "a string"), by kind. */
const JSON_TEXT: Partial<Record<KindName, string[]>> = {
  campaign: ["settings"],
  contact: ["customFields"],
  delivery: ["payload"],
  job: ["payload"],
  idempotencyRecord: ["body"],
};

/** The first field of the record that should hold an object's JSON text and does not. */
function jsonTextProblem(kind: KindName, record: unknown): string | undefined {
  for (const field of JSON_TEXT[kind] ?? []) {
    const text = (record as Record<string, unknown>)[field];
    if (typeof text !== "string") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return field;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) return field;
  }
  return undefined;
}

/** A record used the id of one before it, of its kind. */
export function duplicateId(kind: KindName, index: number, id: string): RecordRefused {
  return new RecordRefused(
    kind,
    index,
    id,
    `records.${kind}[${index}].id ${id} is also the id of an earlier ${kind} record: ids are unique within a kind.`,
  );
}

function refused(kind: KindName, index: number, record: unknown, problem: string): RecordRefused {
  const id = typeof record === "object" && record !== null ? (record as { id?: unknown }).id : undefined;
  return new RecordRefused(kind, index, typeof id === "string" ? id : undefined, problem);
}

type AccountFields = {
  id: string;
  apiKey: string;
  agencyId: string | null;
  email: string | null;
  webhookUrl: string | null;
  autoRechargeUrl: string | null;
};

/** What makes an account one of a kind (its API key, a sub-account's email in its agency), and its webhook URLs. */
function accountKeys(rules: Pick<Rules, "allowHttpWebhooks">) {
  const apiKeys = new Map<string, string>();
  const emails = new Map<string, string>();
  return {
    problem(account: AccountFields): { field: string; text: string } | undefined {
      const holder = apiKeys.get(account.apiKey);
      if (holder !== undefined)
        return { field: "apiKey", text: `is also the API key of account ${holder}: an API key belongs to one account.` };
      apiKeys.set(account.apiKey, account.id);
      if (account.agencyId !== null && account.email !== null) {
        const email = `${account.agencyId} ${account.email.toLowerCase()}`;
        const other = emails.get(email);
        if (other !== undefined)
          return {
            field: "email",
            text: `${account.email} is also the email of sub-account ${other} of agency ${account.agencyId}: a sub-account's email is its own within its agency.`,
          };
        emails.set(email, account.id);
      }
      for (const field of ["webhookUrl", "autoRechargeUrl"] as const) {
        const value = account[field];
        const text = value === null ? undefined : webhookUrlProblem(value, rules.allowHttpWebhooks);
        if (text) return { field, text };
      }
      return undefined;
    },
  };
}

/** Why a record failed its schema, starting with the field's path. */
function schemaProblem(record: unknown, kind: KindName, index: number): string {
  // JSON.parse reads 1e400 as Infinity: said as what it is, not as "must be a number".
  const infinite = nonFinite(record);
  if (infinite) return notFinite(fieldPath(["records", kind, String(index), ...infinite]));
  const full = validators("full")[kind];
  full(record);
  const at = `/records/${kind}/${index}`;
  const problem = schemaError((full.errors ?? []).map((error) => ({ ...error, instancePath: at + error.instancePath }))).message;
  // Its verbose errors hold the record: let go of it (a message may carry a 5 MiB file).
  recordValidators.full.release();
  return problem;
}

/** Each kind's schema, by kind (the key of its validators): its SnapshotRecords items in the admin contract, registered as `admin`. */
export function recordSchemas(doc: OpenApiDocument): Record<KindName, Record<string, unknown>> {
  const schemas = (doc.components as { schemas: Record<string, { properties?: Record<string, { items: { $ref: string } }> }> }).schemas;
  const records = schemas.SnapshotRecords!.properties!;
  return Object.fromEntries(
    KIND_NAMES.map((kind): [KindName, Record<string, unknown>] => [kind, { $ref: `admin${records[kind]!.items.$ref}` }]),
  ) as Record<KindName, Record<string, unknown>>;
}

/**
 * Each kind's validators, built from the admin contract (npm run generate): a quick one that
 * stops at the first error and takes no number past a double's range (every record goes through
 * it, a data file's million messages included), and, once a record fails it, one that reports
 * every error, whose errors are let go of once read. Both check a date-time's shape only.
 */
const recordValidators = { quick: built(builtQuick, "validators-records-quick"), full: built(builtFull, "validators-records-full") };

type ByKind = Record<KindName, ValidateFunction>;
const lookedUp: { quick?: ByKind; full?: ByKind } = {};

function validators(which: "quick" | "full"): ByKind {
  const made = lookedUp[which];
  if (made) return made;
  const schemas = Object.entries(recordSchemas(adminDocument));
  return (lookedUp[which] = Object.fromEntries(
    schemas.map(([kind, schema]) => [kind, recordValidators[which].get(kind, schema)]),
  ) as ByKind);
}
