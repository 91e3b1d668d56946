import type { Seed } from "@intake/server";

export const BENCH_KEY = "ik_bench_http_000000000001";
export const benchPhone = (i: number) => `+1${String(2_000_000_000 + i)}`;
/** A phone number no seeded contact has: the n-th create of a run makes a new contact. */
export const benchNewPhone = (n: number) => `+1${String(3_000_000_000 + n)}`;
export const benchEmail = (i: number) => `lead${i}@example.com`;
export const benchContactId = (i: number) => `ct_b${i}`;
export const benchListId = (i: number) => `lst_b${i}`;
export const benchSender = (i: number) => `user-${i}`;

/** What the fixed-answer servers and handlers send: a lookup's answer, the same size as Intake's. */
export const FIXED_LOOKUP = {
  success: true,
  contactId: "ct_bench_fixed_0001",
  contact: {
    id: "ct_bench_fixed_0001",
    firstName: "Lead",
    lastName: "Number 1",
    phone: "+12000000001",
    email: "lead1@example.com",
    customFields: {},
    createdAt: "2026-01-01T00:00:00.000Z",
  },
};

/**
 * One account with `contacts` contacts and `lists` lists, none linked to a campaign: an add
 * measures the API, not the funnel it would start.
 */
export function benchSeed(contacts: number, lists = 1, options: { senders?: boolean } = {}): Seed {
  return {
    accounts: [
      {
        id: "acc_bench",
        name: "Bench",
        apiKey: BENCH_KEY,
        lists: Array.from({ length: lists }, (_, i) => ({ id: benchListId(i), name: `Bench ${i}` })),
        contacts: Array.from({ length: contacts }, (_, i) => ({
          id: benchContactId(i),
          phone: benchPhone(i),
          email: benchEmail(i),
          firstName: "Lead",
          lastName: `Number ${i}`,
          // A custom-channel sender id, for benchmarks that receive messages from the contacts.
          ...(options.senders ? { fromId: benchSender(i) } : {}),
        })),
      },
    ],
  };
}
