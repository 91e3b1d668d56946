/** Records as the admin API shows them (admin-openapi.yaml's schemas). */
import { settingsOf } from "../domain/campaigns.js";
import type { components } from "../generated/admin.js";
import type {
  AccountRecord,
  AlertRecord,
  CampaignRecord,
  ContactRecord,
  CreditTransactionRecord,
  DeliveryAttemptRecord,
  DeliveryRecord,
  JobRecord,
  ListRecord,
  MessageRecord,
} from "../store/models.js";
import type { ContactRef } from "./subjects.js";

type Schemas = components["schemas"];
export function toAccount(record: AccountRecord): Schemas["Account"] {
  return {
    id: record.id,
    kind: record.kind as Schemas["AccountKind"],
    name: record.name,
    email: record.email,
    userId: record.userId,
    agencyId: record.agencyId,
    apiKey: record.apiKey,
    webhookUrl: record.webhookUrl,
    webhookSecret: record.webhookSecret,
    autoRechargeUrl: record.autoRechargeUrl,
    autoRecharge:
      record.autoRechargeThreshold === null || record.autoRechargeAmount === null
        ? null
        : { threshold: record.autoRechargeThreshold, amount: record.autoRechargeAmount },
    defaultCampaignId: record.defaultCampaignId,
    credits: record.credits,
    createdAt: record.createdAt,
  };
}

export function toCampaign(record: CampaignRecord): Schemas["Campaign"] {
  return { id: record.id, accountId: record.accountId, ...settingsOf(record), createdAt: record.createdAt };
}

export function toList(record: ListRecord, memberCount: number): Schemas["List"] {
  return {
    id: record.id,
    accountId: record.accountId,
    name: record.name,
    campaignId: record.campaignId,
    memberCount,
    createdAt: record.createdAt,
  };
}

export function toAdminContact(record: ContactRecord): Schemas["Contact"] {
  return {
    id: record.id,
    accountId: record.accountId,
    firstName: record.firstName,
    lastName: record.lastName,
    phone: record.phone,
    email: record.email,
    customFields: record.customFields ? (JSON.parse(record.customFields) as Record<string, unknown>) : {},
    fromId: record.fromId,
    customChannel: record.customChannel,
    botPaused: record.botPaused,
    campaignId: record.campaignId,
    createdAt: record.createdAt,
  };
}

/** A copy: a stored message already has the contract's shape, and callers must not change it. */
export function toMessage(record: MessageRecord): Schemas["Message"] {
  return { ...record };
}

/** `contact`: whom it is about, with the name a person reads (records/subjects.ts). */
export function toDelivery(record: DeliveryRecord, attempts: readonly DeliveryAttemptRecord[], contact: ContactRef): Schemas["Delivery"] {
  return {
    id: record.id,
    contact,
    accountId: record.accountId,
    kind: record.kind,
    messageId: record.messageId,
    url: record.url,
    webhookId: record.webhookId,
    payload: JSON.parse(record.payload) as Record<string, unknown>,
    state: record.state,
    attempts: attempts.map((a) => ({
      number: a.number,
      startedAt: a.startedAt,
      // Attempts saved before they kept their headers have none.
      webhookTimestamp: a.webhookTimestamp ?? null,
      webhookSignature: a.webhookSignature ?? null,
      durationMs: a.durationMs,
      status: a.status,
      error: a.error,
      nextAttemptAt: a.nextAttemptAt,
    })),
    nextAttemptAt: record.nextAttemptAt,
    lastError: record.lastError,
    createdAt: record.createdAt,
    completedAt: record.completedAt,
  };
}

export function toAlert(record: AlertRecord, contact: ContactRef): Schemas["Alert"] {
  return {
    id: record.id,
    contact,
    accountId: record.accountId,
    contactId: record.contactId,
    campaignId: record.campaignId,
    messageId: record.messageId,
    reason: record.reason,
    createdAt: record.createdAt,
  };
}

export function toJob(record: JobRecord, contact: ContactRef): Schemas["Job"] {
  return {
    id: record.id,
    contact,
    kind: record.kind as Schemas["Job"]["kind"],
    runAt: record.runAt === null ? null : new Date(record.runAt).toISOString(),
    payload: JSON.parse(record.payload) as Record<string, unknown>,
  };
}

export function toTransaction(record: CreditTransactionRecord): Schemas["CreditTransaction"] {
  return {
    id: record.id,
    amount: record.amount,
    balanceAfter: record.balanceAfter,
    description: record.description,
    source: record.source,
    idempotencyKey: record.idempotencyKey,
    createdAt: record.createdAt,
  };
}
