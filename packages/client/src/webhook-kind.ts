/**
 * A verified payload's kind, by the contract's webhook schemas (generated from openapi.yaml into
 * WEBHOOK_PAYLOADS): a payload is a kind when it has every field that kind's schema requires, each
 * of its JSON type. Anything else is `unknown`: signed by Intake, but not a shape this version knows.
 */
import { WEBHOOK_PAYLOADS } from "./generated/webhook-payloads.js";

export type KnownWebhookKind = keyof typeof WEBHOOK_PAYLOADS;

export function webhookKind(payload: unknown): KnownWebhookKind | undefined {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return undefined;
  const fields = payload as Record<string, unknown>;
  return (Object.keys(WEBHOOK_PAYLOADS) as KnownWebhookKind[]).find((kind) => {
    const { required, types } = WEBHOOK_PAYLOADS[kind];
    const present = Object.keys(types).filter((field) => fields[field] !== undefined) as Array<keyof typeof types>;
    return required.every((field) => field in fields) && present.every((field) => hasType(fields[field], types[field]));
  });
}

function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeof value === type;
}
