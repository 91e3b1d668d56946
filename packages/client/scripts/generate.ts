/**
 * Regenerates src/generated/webhook-payloads.ts from the contract's webhooks (openapi.yaml, through
 * @intake/spec's document): for each outgoing webhook, the fields its payload requires and each
 * field's JSON type. verifyWebhook tells a payload's kind by them, without shipping the document
 * (tens of kB) in the webhooks entry. A schema using more than required fields of plain types is
 * refused here, so the check at run time never silently ignores a rule of the contract.
 */
import { document } from "@intake/spec";
import { banner, emit } from "../../../scripts/codegen.js";

/** The name verifyWebhook gives each webhook's kind, by the contract's webhook name. */
const KINDS: Record<string, string> = { customChannelReply: "reply", subaccountAutoRecharge: "auto_recharge" };
const TYPES = new Set(["string", "number", "integer", "boolean"]);
const ANNOTATIONS = new Set(["type", "description", "format", "example", "examples"]);

type Schema = { $ref?: string; type?: string; required?: string[]; properties?: Record<string, Schema> } & Record<string, unknown>;
const doc = document as unknown as {
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
  components: { schemas: Record<string, Schema> };
};

const shapes: Record<string, { schema: string; required: string[]; types: Record<string, string> }> = {};
for (const [name, webhook] of Object.entries(doc.webhooks)) {
  const kind = KINDS[name];
  if (!kind)
    throw new Error(`openapi.yaml has a webhook ${name} this generator does not name: add it to KINDS (and to IntakeWebhook's union).`);
  const ref = webhook.post.requestBody.content["application/json"]?.schema.$ref ?? "";
  const schemaName = ref.replace("#/components/schemas/", "");
  const schema = doc.components.schemas[schemaName];
  if (!schema || schema.type !== "object") throw new Error(`${name}: its payload is not a $ref to an object schema`);
  const types: Record<string, string> = {};
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const extra = Object.keys(property).filter((key) => !ANNOTATIONS.has(key));
    if (!TYPES.has(property.type ?? "") || extra.length)
      throw new Error(
        `${schemaName}.${field}: only fields of a plain type are checked at run time (found ${JSON.stringify(property)}); extend verifyWebhook's check first.`,
      );
    types[field] = property.type!;
  }
  shapes[kind] = { schema: schemaName, required: schema.required ?? [], types };
}

const text =
  banner("packages/client/scripts/generate.ts from openapi.yaml") +
  `\n/** Per webhook kind: its payload schema's name, the fields it requires and each field's JSON type. */\n` +
  `export const WEBHOOK_PAYLOADS = ${JSON.stringify(shapes, null, 2)} as const;\n`;
await emit(new URL("../src/generated/", import.meta.url), { "webhook-payloads.ts": text }, "packages/client/src/generated");
