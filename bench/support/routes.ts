/** The four routes bench/http.ts measures (and bench/profile.ts profiles), against a store seeded by benchSeed(STORED, STORED). */
import type { Route } from "./load.js";
import { BENCH_KEY, benchContactId, benchListId, benchNewPhone, benchPhone, benchSender } from "./seed.js";

export const STORED = 1000;

export const routes: Route[] = [
  {
    name: "create contact (POST /contacts)",
    call: (n) => ({ method: "POST", path: `/contacts?apiKey=${BENCH_KEY}`, body: `{"phone":"${benchNewPhone(n)}","firstName":"Lead"}` }),
  },
  {
    name: "look up contact (GET /contacts?phoneNumber)",
    call: (n) => ({ method: "GET", path: `/contacts?apiKey=${BENCH_KEY}&phoneNumber=${encodeURIComponent(benchPhone(n % STORED))}` }),
  },
  {
    // 1,000 lists × 1,000 contacts: every add is a new membership.
    name: "add to list (POST /lists/{listId}/contacts)",
    call: (n) => ({
      method: "POST",
      path: `/lists/${benchListId(n % STORED)}/contacts?apiKey=${BENCH_KEY}`,
      body: `{"contactId":"${benchContactId(Math.floor(n / STORED) % STORED)}"}`,
    }),
  },
  {
    name: "receive message (POST /incoming_custom_channel_message)",
    call: (n) => ({
      method: "POST",
      path: `/incoming_custom_channel_message?apiKey=${BENCH_KEY}`,
      body: `{"customData":{"messageSid":"SM${n}","fromId":"${benchSender(n % STORED)}","toId":"acme","body":"Hello"}}`,
    }),
  },
];
