import type { Seed } from "@intake/server";

export const KEYS = {
  acme: "ik_test_acme_00000000000001",
  globex: "ik_test_globex_000000000001",
  agency: "ik_test_agency_000000000001",
  otherAgency: "ik_test_otheragency_0000001",
  sub: "ik_test_subone_000000000001",
};

/** Two businesses (for tenancy), and two agencies with sub-accounts. */
export const SEED: Seed = {
  accounts: [
    {
      id: "acc_acme",
      name: "Acme",
      apiKey: KEYS.acme,
      credits: 100,
      // Draft: the API's behaviour is tested here without the bot answering; engine.test.ts has its own.
      campaigns: [{ id: "cmp_acme", name: "Acme funnel", state: "Draft" }],
      lists: [
        { id: "lst_acme", name: "Acme leads", campaignId: "cmp_acme" },
        { id: "lst_acme_other", name: "Acme newsletter" },
      ],
    },
    {
      id: "acc_globex",
      name: "Globex",
      apiKey: KEYS.globex,
      campaigns: [{ id: "cmp_globex", name: "Globex funnel" }],
      lists: [{ id: "lst_globex", name: "Globex leads" }],
    },
    {
      id: "acc_agency",
      kind: "agency",
      name: "Northwind",
      apiKey: KEYS.agency,
      subaccounts: [
        { id: "sub_one", email: "one@northwind.example", apiKey: KEYS.sub, credits: 5 },
        { id: "sub_two", email: "two@northwind.example" },
      ],
    },
    {
      id: "acc_other_agency",
      kind: "agency",
      name: "Other agency",
      apiKey: KEYS.otherAgency,
      subaccounts: [{ id: "sub_foreign", email: "foreign@other.example" }],
    },
  ],
};
