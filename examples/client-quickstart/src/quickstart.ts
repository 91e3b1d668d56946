import { createIntakeClient, type FetchFn, type IntakeClientOptions } from "@intake/client";

export interface QuickstartConfig {
  baseUrl: string;
  /** A regular account's key (funnel and custom channel). */
  apiKey: string;
  /** An agency account's key (sub-account credits). */
  agencyKey: string;
  listId: string;
  subaccountEmail: string;
  /** Only for a stateless mock on 127.0.0.1 such as `prism mock`. */
  allowInsecureLoopback?: boolean;
  /** A fetch that trusts a test server's certificate, for example. */
  fetch?: FetchFn;
}

/** One call path per auth form, as an integrator would write them. */
export async function quickstart(config: QuickstartConfig) {
  const common: Omit<IntakeClientOptions, "auth" | "apiKey"> = {
    baseUrl: config.baseUrl,
    allowInsecureLoopback: config.allowInsecureLoopback ?? false,
    ...(config.fetch ? { fetch: config.fetch } : {}),
  };

  // 1. A funnel from an automation platform: Bearer form, snake_case fields. Look up, then create.
  const funnel = createIntakeClient({ ...common, auth: "bearer", apiKey: config.apiKey });
  const lead = { phone_number: "+14155550123", first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" };
  const contact = (await funnel.contacts.find({ phoneNumber: lead.phone_number })) ?? (await funnel.contacts.create(lead));
  const membership = await funnel.lists.addContact(config.listId, { contact_id: contact.id });

  // 2. A custom channel: apiKey query form, camelCase fields. Hand over a user's message.
  const channel = createIntakeClient({ ...common, auth: "query", apiKey: config.apiKey });
  const received = await channel.messages.receive({
    customData: {
      messageSid: `SM-${Date.now()}`,
      fromId: "user-4821",
      toId: "acme-support",
      body: "Is the offer still on?",
      channel: "acme-chat",
    },
  });

  // 3. An agency: x-api-key header form. Grant credits after a payment, once per idempotency key.
  const agency = createIntakeClient({ ...common, auth: "header", apiKey: config.agencyKey });
  const grant = await agency.subaccounts.grantCredits(
    { email: config.subaccountEmail, amount: 500, description: "Auto-recharge" },
    { idempotencyKey: "rch_quickstart_001" },
  );

  return { contact, membership, received, grant };
}
