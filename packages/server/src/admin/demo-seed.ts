/**
 * The built-in demo (`intake-server --demo`, `npm start`): a business with a Live funnel campaign
 * and its list, a lead on its custom channel, and an agency with a sub-account on auto-recharge.
 * Every account's webhooks go to its own inbox in the server (`/__inbox/<accountId>`), so they
 * show as delivered with no receiver of one's own. The keys are fixed so the README's commands
 * work as printed; never use them outside a local demo.
 */
import type { AdminClient } from "./client.js";
import type { Seed } from "../domain/state.js";

export const DEMO_KEYS = {
  business: "ik_demo_business_7Hq2xK9mPwRt4wBn",
  agency: "ik_demo_agency_3Jd8sLq0VzKp1zQw7",
  subaccount: "ik_demo_subaccount_8Lm3QaT2YxGf5",
};

/** Fixed too, so a webhook receiver can be started with the secret before the server. */
export const DEMO_WEBHOOK_SECRETS = {
  business: "whsec_ZGVtby1idXNpbmVzcy13ZWJob29rLXNlY3JldA==",
  agency: "whsec_ZGVtby1hZ2VuY3ktd2ViaG9vay1zZWNyZXQ=",
  subaccount: "whsec_ZGVtby1zdWJhY2NvdW50LXdlYmhvb2stc2VjcmV0",
};

export const DEMO_SEED: Seed = {
  accounts: [
    {
      id: "acc_acme",
      name: "Acme Fitness",
      email: "owner@acme.example",
      userId: "usr_acme_owner",
      apiKey: DEMO_KEYS.business,
      webhookSecret: DEMO_WEBHOOK_SECRETS.business,
      webhookUrl: "/__inbox/acc_acme",
      credits: 500,
      // Messages from custom-channel senders the funnel has not reached go to its bot too.
      defaultCampaignId: "cmp_spring",
      campaigns: [
        {
          id: "cmp_spring",
          name: "Spring membership funnel",
          type: "Combined",
          language: "en",
          state: "Live",
          channel: "messaging_app",
          botInstructions: "You are Acme Fitness's friendly assistant. Keep answers short and invite the lead to book a free trial class.",
          companyInfo: "Acme Fitness runs three gyms downtown, open 6:00 to 22:00 every day.",
          faqs: [
            { question: "How much is a membership?", answer: "Memberships start at 29 dollars a month, with no joining fee this spring." },
            { question: "What are your opening hours?", answer: "Every day from 6:00 to 22:00." },
            { question: "Do you have a free trial?", answer: "Yes: your first class is free. Shall I book one for you?" },
          ],
          resources: [{ title: "Class timetable", url: "https://acme.example/timetable" }],
          goal: "Book a free trial class.",
          openingTemplate: {
            body: "Hi {{firstName}}, thanks for your interest in Acme Fitness! Would you like to book a free trial class this week?",
            approval: "approved",
          },
          triggerOnNewListContacts: true,
          followUps: {
            enabled: true,
            messages: ["Just checking in: still keen on a free class?", "Our spring offer ends soon. Want a spot?"],
          },
        },
      ],
      lists: [{ id: "lst_spring_leads", name: "Spring funnel leads", campaignId: "cmp_spring" }],
      contacts: [
        { id: "ct_demo_ada", phone: "+14155550100", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
        // A lead who writes in on the custom channel (the site's chat): see startDemo.
        { id: "ct_demo_grace", firstName: "Grace", lastName: "Hopper", fromId: "grace.hopper", customChannel: "site_chat" },
      ],
    },
    {
      id: "acc_agency",
      kind: "agency",
      name: "Northwind Agency",
      email: "billing@northwind.example",
      apiKey: DEMO_KEYS.agency,
      webhookSecret: DEMO_WEBHOOK_SECRETS.agency,
      webhookUrl: "/__inbox/acc_agency",
      autoRechargeUrl: "/__inbox/acc_agency",
      subaccounts: [
        {
          id: "sub_client_one",
          name: "Client One",
          email: "client-one@northwind.example",
          apiKey: DEMO_KEYS.subaccount,
          webhookSecret: DEMO_WEBHOOK_SECRETS.subaccount,
          webhookUrl: "/__inbox/sub_client_one",
          credits: 42,
          autoRecharge: { threshold: 10, amount: 500 },
        },
      ],
    },
  ],
};

/** The message the demo's custom-channel lead sends as the server starts. */
export const DEMO_FIRST_MESSAGE = { contactId: "ct_demo_grace", body: "Hi! How much is a membership?" } as const;

/**
 * What `--demo` does once its server is up, so the first page opened shows the service at work:
 * the demo's custom-channel lead writes in (a simulated message, as POST
 * /__admin/contacts/ct_demo_grace/inbound makes one), the campaign's bot answers, and the answer
 * is delivered to the account's webhook inbox. Resolves once that delivery is done. A server that
 * starts from a data file's state does not run it: that state is the one kept.
 */
export async function startDemo(admin: AdminClient): Promise<void> {
  await admin.simulateInbound(DEMO_FIRST_MESSAGE.contactId, { body: DEMO_FIRST_MESSAGE.body, via: "demo" });
  await admin.settle();
}
