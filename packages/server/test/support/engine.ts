// Set-up the engine's tests share: the gym account's seed (a Live Combined campaign with an
// approved opening, the trigger on, its list), a server over HTTPS on a virtual clock with the
// business's and the agency's clients, webhook receivers on 127.0.0.1, the admin calls they make
// most, and the contract's schema for an outgoing webhook.
import type { IntakeOptions, Seed } from "@intake/server";
import { document } from "@intake/spec";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterEach } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "./harness.js";
import { startReceiver, type Receiver } from "./receiver.js";

export const KEY = "ik_engine_business_000000001";
export const AGENCY_KEY = "ik_engine_agency_0000000001";
export const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
export const AGENCY_SECRET = "whsec_C2VjcmV0LWZvci10aGUtYWdlbmN5LTAx";
export const SECOND = 1000;
export const HOUR = 3_600_000;

/** The contract's schema for an outgoing webhook's body. */
export function webhookSchema(name: "ReplyWebhookPayload" | "AutoRechargeWebhookPayload") {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: "intake", components: document.components });
  return (body: unknown) => {
    const check = ajv.getSchema(`intake#/components/schemas/${name}`)!;
    return check(body) ? [] : check.errors;
  };
}

/** The server `start` started last, until the test ends (or `stop`). */
export let harness: HttpsHarness | undefined;
const receivers: Receiver[] = [];

/** Closes after each test the server and the receivers it made (call it at the top of a test file). */
export function closeServersAfterEach() {
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    while (receivers.length) await receivers.pop()!.close();
  });
}

/** A webhook receiver on 127.0.0.1, closed after the test. */
export async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

/** Forgets the receiver made last: the test closed it itself. */
export function forgetLastReceiver() {
  receivers.pop();
}

type CampaignSeed = NonNullable<NonNullable<Seed["accounts"]>[number]["campaigns"]>[number];

export function seed(webhookUrl: string | null, campaign: Partial<CampaignSeed> = {}, credits = 100): Seed {
  return {
    accounts: [
      {
        id: "acc_gym",
        name: "Acme Fitness",
        userId: "usr_gym_owner",
        apiKey: KEY,
        webhookUrl,
        webhookSecret: SECRET,
        credits,
        campaigns: [
          {
            id: "cmp_spring",
            name: "Spring funnel",
            type: "Combined",
            state: "Live",
            companyInfo: "Acme Fitness runs three gyms downtown.",
            goal: "Book a free trial class.",
            faqs: [{ question: "How much is a membership?", answer: "Memberships start at 29 dollars a month." }],
            openingTemplate: { body: "Hi {{firstName}}, thanks for your interest! Want a free trial class?", approval: "approved" },
            triggerOnNewListContacts: true,
            ...campaign,
          },
        ],
        lists: [{ id: "lst_leads", name: "Spring leads", campaignId: "cmp_spring" }],
      },
    ],
  };
}

/** A server on `s` over HTTPS on a virtual clock; clients for the business (query and bearer) and the agency. */
export async function start(s: Seed, options: IntakeOptions = {}) {
  harness = await startHarness({ seed: s, clock: "virtual", ...options });
  const target = httpsTarget(harness);
  return {
    h: harness,
    query: client(target, "query", KEY),
    bearer: client(target, "bearer", KEY),
    agency: client(target, "header", AGENCY_KEY),
  };
}

/** Stops the server `start` started (a test that starts another). */
export async function stop() {
  await harness!.close();
  harness = undefined;
}

export const settle = () => harness!.admin("POST", "/settle");
export const advance = async (ms: number) => (await harness!.admin("POST", "/clock/advance", { ms })).body;
export const get = async (path: string) => (await harness!.admin("GET", path)).body;
export const conversation = async (contactId: string) => (await get(`/contacts/${contactId}`)).messages as Array<Record<string, any>>;
/** The scheduler's stored jobs of one kind. */
export const jobsOf = async (kind: string) =>
  ((await get("/jobs")) as Array<{ kind: string; runAt: string }>).filter((j) => j.kind === kind);
