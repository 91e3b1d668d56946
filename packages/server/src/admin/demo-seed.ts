/**
 * The built-in demo (`intake-server --demo`, `npm start`): a business with a Live funnel campaign
 * and its list, and an agency with a sub-account on auto-recharge. The keys are fixed so the
 * README's commands work as printed; never use them outside a local demo.
 */
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
      credits: 500,
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
          followUps: { enabled: true, messages: ["Just checking in: still keen on a free class?", "Our spring offer ends soon. Want a spot?"] },
        },
      ],
      lists: [{ id: "lst_spring_leads", name: "Spring funnel leads", campaignId: "cmp_spring" }],
      contacts: [{ id: "ct_demo_ada", phone: "+14155550100", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" }],
    },
    {
      id: "acc_agency",
      kind: "agency",
      name: "Northwind Agency",
      email: "billing@northwind.example",
      apiKey: DEMO_KEYS.agency,
      webhookSecret: DEMO_WEBHOOK_SECRETS.agency,
      subaccounts: [
        {
          id: "sub_client_one",
          name: "Client One",
          email: "client-one@northwind.example",
          apiKey: DEMO_KEYS.subaccount,
          credits: 42,
          autoRecharge: { threshold: 10, amount: 500 },
        },
      ],
    },
  ],
};
