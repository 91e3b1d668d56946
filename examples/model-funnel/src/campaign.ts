/**
 * The funnel rehearsed: a gym's free trial week, its campaign written for a model (language,
 * instructions, company info, FAQs, resources, goal), its list, and the lead's side of the
 * conversation. Change a word of the campaign or of the lead's messages and the model is asked
 * something new: record again (`npm run record`), or replay finds no recording for it.
 */
import type { Seed } from "@intake/server";

export const KEY = "ik_example_model_funnel_0001";
export const ACCOUNT = "acc_fit_club";
export const CAMPAIGN = "cmp_trial_week";
export const LIST = "lst_trial_week";

export const SEED: Seed = {
  accounts: [
    {
      id: ACCOUNT,
      name: "Fit Club",
      apiKey: KEY,
      credits: 100,
      // The bot's answers on the custom channel go to the server's own webhook inbox.
      webhookUrl: `/__inbox/${ACCOUNT}`,
      defaultCampaignId: CAMPAIGN,
      campaigns: [
        {
          id: CAMPAIGN,
          name: "Free trial week",
          type: "Combined",
          state: "Live",
          channel: "messaging_app",
          language: "en",
          botInstructions:
            "You are Fit Club's assistant. Answer in two sentences at most, warmly and plainly. Never invent prices or class times: use the company info. If the lead asks for something only staff can decide (group or corporate plans, refunds, medical questions), hand the conversation to a person.",
          companyInfo:
            "Fit Club is a gym in the town centre, open 6:00 to 22:00. Evening classes on weekdays at 6:00 and 7:30 pm: HIIT Mon/Wed, spin Tue/Thu, yoga Fri. Mats and towels are provided.",
          goal: "Book the lead's first class of the free trial week.",
          faqs: [{ question: "How much is a membership after the trial?", answer: "29 dollars a month, no joining fee." }],
          resources: [{ title: "Timetable", url: "https://fitclub.example/timetable" }],
          openingTemplate: {
            body: "Hi {{firstName}}, thanks for signing up for a free trial week at Fit Club! Any questions before your first class?",
            approval: "approved",
          },
          triggerOnNewListContacts: true,
          handOffPhrases: ["talk to a person"],
        },
      ],
      lists: [{ id: LIST, name: "Trial week leads", campaignId: CAMPAIGN }],
    },
  ],
};

/** The lead, as the landing page sends it. */
export const LEAD = { phone_number: "+14155550123", first_name: "Maya", last_name: "Lopez" };

/** What the lead writes back, one message after each answer. */
export const LEAD_SAYS = [
  "Hi! What time are the evening classes?",
  "Great. Do I need to bring anything?",
  "Also, my company might want memberships for our whole team of 40. Who can I talk to about a corporate plan?",
];
