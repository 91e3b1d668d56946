// The page the browser test loads: @intake/client and the server's msw handlers in a real
// browser, requests intercepted by msw's service worker. It runs a funnel round trip and leaves
// what it saw in window.__intakeResult for the test to read.
import { createIntakeClient } from "@intake/client";
import { createIntakeHandlers } from "@intake/server/msw";
import { setupWorker } from "msw/browser";

declare global {
  interface Window {
    __intakeResult?: unknown;
  }
}

const KEY = "ik_browser_funnel_key_000001";

async function roundTrip() {
  const webhooks: Array<{ url: string; headers: Record<string, string>; body: string }> = [];
  const mock = createIntakeHandlers({
    seed: {
      accounts: [
        {
          id: "acc_browser",
          name: "Acme",
          apiKey: KEY,
          credits: 10,
          webhookUrl: "https://hooks.acme.test/intake",
          webhookSecret: "whsec_YnJvd3Nlci10ZXN0LXNlY3JldC0wMDAwMDE=",
          campaigns: [
            {
              id: "cmp_spring",
              name: "Spring",
              state: "Live",
              triggerOnNewListContacts: true,
              openingTemplate: { body: "Hi {{firstName}}, welcome!", approval: "approved" },
              faqs: [{ question: "How much is a membership?", answer: "29 a month." }],
            },
          ],
          lists: [{ id: "lst_leads", name: "Leads", campaignId: "cmp_spring" }],
        },
      ],
    },
    // Outgoing webhooks are captured here rather than sent anywhere.
    fetch: async (request) => {
      webhooks.push({ url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() });
      return new Response(null, { status: 204 });
    },
  });
  const worker = setupWorker(...mock.handlers);
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledRequest: "error", quiet: true });

  const funnel = createIntakeClient({ auth: "bearer", apiKey: KEY, baseUrl: mock.baseUrl });
  const channel = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: mock.baseUrl });
  const lead = await funnel.contacts.create({ phone_number: "+14155550123", first_name: "Ada" });
  const found = await funnel.contacts.find({ phoneNumber: "+14155550123" });
  const membership = await funnel.lists.addContact("lst_leads", { contact_id: lead.id });
  const inbound = await channel.messages.receive({
    customData: { messageSid: "SM-browser-1", fromId: "user-1", toId: "acme", body: "How much is a membership?" },
  });
  let refused: unknown;
  try {
    await funnel.contacts.create({ phone_number: "not a phone", first_name: "X" });
  } catch (error) {
    refused = { name: (error as Error).name, status: (error as { status?: number }).status, code: (error as { code?: string }).code };
  }
  await mock.intake.admin.settle();
  return {
    controlledByWorker: navigator.serviceWorker.controller !== null,
    lead,
    foundId: found?.id,
    membership,
    inbound,
    refused,
    messages: (await mock.intake.admin.messages({ accountId: "acc_browser" })).map((m) => ({
      direction: m.direction,
      source: m.source,
      status: m.status,
      body: m.body,
    })),
    webhooks,
  };
}

roundTrip().then(
  (result) => (window.__intakeResult = { ok: true, result }),
  (error: Error) => (window.__intakeResult = { ok: false, error: `${error.name}: ${error.message}\n${error.stack}` }),
);
