// The engine in msw mode: no port anywhere. Webhook deliveries go through the injected fetch
// (or, by default, through msw itself, to a handler of the test's own).
import { createIntakeClient } from "@intake/client";
import type { Seed } from "@intake/server";
import { createIntakeHandlers } from "@intake/server/msw";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";

const KEY = "ik_msw_engine_business_00001";
const SECRET = "whsec_bXN3LWVuZ2luZS1zZWNyZXQtMDAwMDAx";
const seed: Seed = {
  accounts: [
    {
      name: "Acme",
      userId: "usr_acme",
      apiKey: KEY,
      webhookUrl: "https://hooks.acme.test/intake",
      webhookSecret: SECRET,
      credits: 10,
      campaigns: [
        {
          id: "cmp_spring",
          name: "Spring",
          state: "Live",
          faqs: [{ question: "How much is a membership?", answer: "29 a month." }],
          openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
          triggerOnNewListContacts: true,
        },
      ],
      lists: [{ id: "lst_leads", name: "Leads", campaignId: "cmp_spring" }],
    },
  ],
};

let server: ReturnType<typeof setupServer> | undefined;
afterEach(() => server?.close());

async function settle(adminUrl: string, token: string) {
  const response = await fetch(`${adminUrl}/settle`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
}

describe("msw mode", () => {
  it("a funnel round trip, with the reply webhook captured through the injected fetch", async () => {
    const captured: Request[] = [];
    const mock = createIntakeHandlers({
      seed,
      adminToken: "adm_msw",
      fetch: async (request) => {
        captured.push(request.clone());
        return new Response(null, { status: 204 });
      },
    });
    server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: "error" });
    const funnel = createIntakeClient({ auth: "bearer", apiKey: KEY, baseUrl: mock.baseUrl });
    const channel = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: mock.baseUrl });

    const lead = await funnel.contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
    await funnel.lists.addContact("lst_leads", { contact_id: lead.id });
    await channel.messages.receive({
      customData: { messageSid: "SM-1", fromId: "+14155550123", toId: "acme", body: "How much is a membership?", channel: "acme-chat" },
    });
    await settle(mock.adminUrl, "adm_msw");

    const messages = (await mock.intake.admin.contact(lead.id)).messages;
    expect(messages.map((m) => [m.source, m.status, m.body])).toEqual([
      ["opening", "sent", "Hi Ada!"],
      ["api_receive", "received", "How much is a membership?"],
      ["bot", "sent", "29 a month."],
    ]);
    expect(captured).toHaveLength(1);
    const body = await captured[0]!.text();
    expect(JSON.parse(body)).toMatchObject({
      contactId: lead.id,
      body: "29 a month.",
      toId: "+14155550123",
      channel: "acme-chat",
      userId: "usr_acme",
    });
    expect(() => new Webhook(SECRET).verify(body, Object.fromEntries(captured[0]!.headers))).not.toThrow();
  });

  it("without an injected fetch, deliveries go through msw to a handler of the test's own", async () => {
    const mock = createIntakeHandlers({ seed, adminToken: "adm_msw" });
    const hooks: unknown[] = [];
    server = setupServer(
      ...mock.handlers,
      http.post("https://hooks.acme.test/intake", async ({ request }) => {
        hooks.push(await request.json());
        return new HttpResponse(null, { status: 200 });
      }),
    );
    server.listen({ onUnhandledRequest: "error" });
    const channel = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: mock.baseUrl });
    await channel.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "acme", body: "How much is a membership?" } });
    await settle(mock.adminUrl, "adm_msw");
    expect(hooks).toEqual([expect.objectContaining({ body: "29 a month.", toId: "u1" })]);
    expect((await mock.intake.admin.deliveries())[0]).toMatchObject({ state: "delivered" });
  });

  it("the handlers start with the rate limit off; rateLimit turns it on", async () => {
    const free = createIntakeHandlers({ seed, origin: "https://free.intake.test" });
    const limited = createIntakeHandlers({ seed, rateLimit: 1, origin: "https://limited.intake.test" });
    server = setupServer(...free.handlers, ...limited.handlers);
    server.listen({ onUnhandledRequest: "error" });
    const client = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: free.baseUrl, maxRetries: 0 });
    for (let i = 0; i < 130; i++) await expect(client.contacts.find({ email: `a${i}@example.com` })).resolves.toBeNull();
    const other = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: limited.baseUrl, maxRetries: 0 });
    await other.contacts.find({ email: "a@example.com" });
    await expect(other.contacts.find({ email: "a@example.com" })).rejects.toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it.each(["real", "virtual"] as const)("a client that waits the Retry-After it is told is served, under the %s clock", async (clock) => {
    const mock = createIntakeHandlers({ seed, rateLimit: 1, rateLimitWindowMs: 1000, clock, origin: `https://${clock}.intake.test` });
    server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: "error" });
    const retries: number[] = [];
    const client = createIntakeClient({
      auth: "query",
      apiKey: KEY,
      baseUrl: mock.baseUrl,
      maxRetries: 2,
      logger: (entry) => entry.event === "retry" && retries.push(entry.delayMs ?? 0),
    });
    await expect(client.contacts.find({ email: "a@example.com" })).resolves.toBeNull();
    await expect(client.contacts.find({ email: "a@example.com" })).resolves.toBeNull();
    expect(retries).toEqual([1000]);
  });

  it("each createIntakeHandlers call is its own service, with its own state", async () => {
    const a = createIntakeHandlers({ seed, origin: "https://a.intake.test" });
    const b = createIntakeHandlers({ seed, origin: "https://b.intake.test" });
    server = setupServer(...a.handlers, ...b.handlers);
    server.listen({ onUnhandledRequest: "error" });
    await createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: a.baseUrl }).contacts.create({ phone: "+14155550123" });
    await expect(
      createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: b.baseUrl }).contacts.find({ phoneNumber: "+14155550123" }),
    ).resolves.toBeNull();
  });
});
