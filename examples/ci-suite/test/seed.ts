import type { Seed } from "@intake/server";

export const API_KEY = "ik_ci_suite_example_key_000001";
export const LIST_ID = "lst_signups";

/** One business with a Live funnel campaign behind the sign-ups list. */
export const seed: Seed = {
  accounts: [
    {
      id: "acc_shop",
      name: "Shop",
      apiKey: API_KEY,
      // Reply webhooks go to the server's own inbox (GET /__admin/inbox/acc_shop), whatever its port.
      webhookUrl: "/__inbox/acc_shop",
      credits: 100,
      campaigns: [
        {
          id: "cmp_welcome",
          name: "Welcome",
          state: "Live",
          triggerOnNewListContacts: true,
          openingTemplate: { body: "Welcome, {{firstName}}!", approval: "approved" },
        },
      ],
      lists: [{ id: LIST_ID, name: "Sign-ups", campaignId: "cmp_welcome" }],
    },
  ],
};
