// Set-up the model bot's tests share: the gym account they seed (Acme Fitness, its Live Combined
// campaign "Spring funnel" answered by the bot, replies to the built-in inbox), a message received
// in-process with the bot waited for, and a fake endpoint with an Intake whose model bot asks it,
// closed after each test.
import { createIntake, type Intake, type IntakeOptions, type Seed } from "@intake/server";
import { createModelBot, type ModelBotOptions } from "@intake/server/node";
import { afterEach, expect } from "vitest";
import { startFakeModel } from "./fake-model.js";

type SeedAccount = NonNullable<Seed["accounts"]>[number];
type SeedCampaign = NonNullable<SeedAccount["campaigns"]>[number];

/** The gym account with `apiKey`, what `campaign` and `account` add or change (a field given as undefined is left out). */
export function gymSeed(apiKey: string, campaign: Partial<SeedCampaign> = {}, account: Partial<SeedAccount> = {}): Seed {
  const spring = {
    id: "cmp_spring",
    name: "Spring funnel",
    type: "Combined",
    state: "Live",
    goal: "Book a free trial class.",
    ...campaign,
  } as SeedCampaign;
  const gym = {
    id: "acc_gym",
    name: "Acme Fitness",
    apiKey,
    webhookUrl: "/__inbox/acc_gym",
    credits: 100,
    campaigns: [spring],
    ...account,
  };
  return { accounts: [Object.fromEntries(Object.entries(gym).filter(([, value]) => value !== undefined)) as SeedAccount] };
}

/** Sends `body` on the custom channel as the contact u1 (or `extra.fromId`) in-process and waits for the bot; the message as the admin API shows it. */
export async function receiveMessage(intake: Intake, apiKey: string, sid: string, body: string, extra: Record<string, string> = {}) {
  const response = await intake.fetch(
    new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ customData: { messageSid: sid, fromId: "u1", toId: "acme", body, ...extra } }),
    }),
  );
  expect(response.status).toBe(200);
  const { messageId } = (await response.json()) as { messageId: string };
  await intake.admin.settle();
  return intake.admin.message(messageId);
}

/** Closes after each test what it was given, the last first; it gives back what it was given. */
export type Closing = <T extends { close(): unknown }>(thing: T) => T;

/** A `Closing` for this file's tests (call it at the top of the file). */
export function closedAfterEach(): Closing {
  const open: Array<{ close(): unknown }> = [];
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  return (thing) => {
    open.push(thing);
    return thing;
  };
}

/** A fake model endpoint and an Intake on `seed` whose model bot ("tiny-model") asks it; both closed after the test. */
export async function startModelIntake(closing: Closing, seed: Seed, bot: Partial<ModelBotOptions> = {}, options: IntakeOptions = {}) {
  const fake = closing(await startFakeModel());
  const intake = closing(
    createIntake({ seed, rateLimit: 0, ...options, bot: createModelBot({ model: "tiny-model", baseUrl: fake.baseUrl, ...bot }) }),
  );
  return { fake, intake };
}
