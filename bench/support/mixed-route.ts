/**
 * The route bench:mixed loads: the requests of a user's integration in one stream, over a store
 * seeded by benchSeed(STORED, STORED, { senders: true }).
 */
import type { Seed } from "@intake/server";
import type { Call, Route } from "./load.js";
import { STORED } from "./routes.js";
import { BENCH_KEY, benchContactId, benchListId, benchNewPhone, benchPhone, benchSeed, benchSender } from "./seed.js";

/**
 * Ten requests in turn, as a user's integration mixes them: two creates, three lookups, two list
 * adds, one send, two received messages. Each kind has its own sequence, so writes never repeat.
 */
export const MIX = ["create", "lookup", "add", "receive", "lookup", "create", "send", "add", "lookup", "receive"] as const;
export type Kind = (typeof MIX)[number];
const perTen = (kind: Kind) => MIX.filter((k) => k === kind).length;
const calls: Record<Kind, (i: number) => Call> = {
  create: (i) => ({ method: "POST", path: `/contacts?apiKey=${BENCH_KEY}`, body: `{"phone":"${benchNewPhone(i)}","firstName":"Lead"}` }),
  lookup: (i) => ({ method: "GET", path: `/contacts?apiKey=${BENCH_KEY}&phoneNumber=${encodeURIComponent(benchPhone(i % STORED))}` }),
  add: (i) => ({
    method: "POST",
    path: `/lists/${benchListId(i % STORED)}/contacts?apiKey=${BENCH_KEY}`,
    body: `{"contactId":"${benchContactId(Math.floor(i / STORED) % STORED)}"}`,
  }),
  send: (i) => ({
    method: "POST",
    path: `/send_custom_channel_message?apiKey=${BENCH_KEY}`,
    body: `{"customData":{"fromId":"${benchSender(i % STORED)}","customChannel":"acme","body":"Your demo is booked for Tuesday."}}`,
  }),
  receive: (i) => ({
    method: "POST",
    path: `/incoming_custom_channel_message?apiKey=${BENCH_KEY}`,
    body: `{"customData":{"messageSid":"SM${i}","fromId":"${benchSender(i % STORED)}","toId":"acme","body":"How much is it?"}}`,
  }),
};
export const mixed: Route = {
  name: "mixed",
  call: (n) => {
    const kind = MIX[n % MIX.length]!;
    const before = MIX.slice(0, n % MIX.length).filter((k) => k === kind).length;
    return calls[kind](Math.floor(n / MIX.length) * perTen(kind) + before);
  },
};

/**
 * The seed the mixed route runs over: one account of STORED contacts (each with a custom-channel
 * sender id) and STORED lists, a Live campaign with an FAQ the received messages ask, and the
 * account's webhook at `webhookUrl`.
 */
export function mixedSeed(webhookUrl: string): Seed {
  const { accounts } = benchSeed(STORED, STORED, { senders: true });
  return {
    accounts: accounts!.map((account) => ({
      ...account,
      webhookUrl,
      webhookSecret: "whsec_YmVuY2gtc2VjcmV0LWZvci1taXhlZC1sb2Fk",
      credits: 100_000_000,
      campaigns: [{ id: "cmp_bench", name: "Bench", state: "Live", faqs: [{ question: "How much is it?", answer: "29 a month." }] }],
    })),
  };
}
