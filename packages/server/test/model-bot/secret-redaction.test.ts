// Secrets in words from outside: a model endpoint or a webhook receiver that echoes the model key,
// an account's API key or webhook secret, or the admin token (in full, masked, URL-encoded) has it
// redacted before the words are stored (the message's bot.error, a delivery's attempt, the
// snapshot), published (the live events) or answered (the test webhook).
import type { Intake } from "@intake/server";
import { describe, expect, it } from "vitest";
import { refuses, said, webPage } from "../support/fake-model.js";
import { closedAfterEach, gymSeed, receiveMessage, startModelIntake } from "../support/model-bot.js";

const KEY = "ik_redaction_0000000000000Qz9X";
const WEBHOOK_SECRET = "whsec_c2VjcmV0LW9mLXRoZS1hY2NvdW50+/==";
const ADMIN_TOKEN = "adm_redaction_token_00000Wq7J";
// A key with characters a URL encodes, so its URL-encoded form is not the key itself.
const MODEL_KEY = "sk-test/Model+Key=0123456789abcdefZq8V";

const seed = gymSeed(KEY, {}, { webhookUrl: undefined, webhookSecret: WEBHOOK_SECRET });

/** The secret URL-encoded with lower-case hex digits (`%2f`), as some encoders write it. */
const lowerEncoded = (secret: string) => encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** Every form a secret must not show in: whole, URL-encoded, and a masked form's visible ends. */
function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), lowerEncoded(secret), secret.slice(0, 8), secret.slice(-4)];
}
const SECRETS = [MODEL_KEY, KEY, WEBHOOK_SECRET, ADMIN_TOKEN];

/** The key as OpenAI shows it: its first characters, stars, its last four. */
const masked = (secret: string) => `${secret.slice(0, 8)}${"*".repeat(24)}${secret.slice(-4)}`;

const closing = closedAfterEach();

async function start(options: { receiver?: (request: Request) => Response } = {}) {
  const receiver = options.receiver;
  const { fake, intake } = await startModelIntake(
    closing,
    seed,
    { apiKey: MODEL_KEY },
    { adminToken: ADMIN_TOKEN, ...(receiver ? { fetch: async (request: Request) => receiver(request) } : {}) },
  );
  const events: unknown[] = [];
  intake.subscribe({ deliver: (entry) => void events.push(entry.event()), end() {} });
  return { fake, intake, events };
}

const receive = (server: Intake, sid: string, body: string) => receiveMessage(server, KEY, sid, body);

/** What was stored and published of the bot's runs and the webhooks' attempts (not the accounts, which hold their keys). */
async function outsideWords(server: Intake, events: unknown[]) {
  const { records } = server.snapshot();
  return JSON.stringify({
    messages: records.message,
    attempts: records.deliveryAttempt,
    deliveries: await server.admin.deliveries(),
    events,
  });
}

function expectNoSecret(text: string) {
  for (const secret of SECRETS) for (const form of forms(secret)) expect(text).not.toContain(form);
}

describe("a model endpoint's words are stored and published with every configured secret redacted", () => {
  it.each([
    ["the model key in full", `Incorrect API key provided: Bearer ${MODEL_KEY}.`, "Incorrect API key provided: Bearer [REDACTED]."],
    [
      "the model key masked (OpenAI's form)",
      `Incorrect API key provided: ${masked(MODEL_KEY)}. You can find your API key at https://platform.openai.com.`,
      "Incorrect API key provided: [REDACTED]. You can",
    ],
    [
      "the model key URL-encoded",
      `Refused: /v1/chat?key=${encodeURIComponent(MODEL_KEY)} is not allowed`,
      "Refused: /v1/chat?key=[REDACTED] is not allowed",
    ],
    ["the model key URL-encoded in lower-case hex", `Refused key=${lowerEncoded(MODEL_KEY)}`, "Refused key=[REDACTED]"],
    [
      "an account's API key, its webhook secret and the admin token",
      `Seen: ${KEY}, ${WEBHOOK_SECRET} and ${ADMIN_TOKEN}x`,
      "Seen: [REDACTED], [REDACTED] and [REDACTED]x",
    ],
  ])("%s", async (_, words, shown) => {
    const { fake, intake, events } = await start();
    fake.answer(() => refuses(401, words));
    const message = await receive(intake, "SM-1", "Hola");
    expect(message.botOutcome).toBe("bot_refused");
    expect(message.bot!.error).toContain(shown);
    await expect.poll(() => events.some((event) => (event as { type: string }).type === "bot.outcome")).toBe(true);
    expect(JSON.stringify(events)).toContain(shown.replace(/"/g, '\\"'));
    expectNoSecret(await outsideWords(intake, events));
  });

  it("a web page's first words, cut where the key is, show none of it", async () => {
    const { fake, intake, events } = await start();
    // The key starts 10 characters before the 120 the error keeps of the page's words.
    fake.answer(() => webPage(`<html><body><p>${"w".repeat(100)} token: ${MODEL_KEY} and more words after it</p></body></html>`));
    const message = await receive(intake, "SM-1", "Hola");
    expect(message.botOutcome).toBe("bot_unavailable");
    expect(message.bot!.error).toContain("token: [REDACTED]");
    expectNoSecret(await outsideWords(intake, events));
    expect(message.bot!.error).not.toContain(MODEL_KEY.slice(0, 6));
  });

  it("an answer's content the server cannot read, cut where the key is, shows none of it", async () => {
    const { fake, intake, events } = await start();
    fake.answer(() => said({ note: `${"n".repeat(60)}${MODEL_KEY}` }));
    const message = await receive(intake, "SM-1", "Hola");
    expect(message.botOutcome).toBe("bot_unavailable");
    expect(message.bot!.error).toContain("[REDACTED]");
    expect(message.bot!.error).not.toContain(MODEL_KEY.slice(0, 6));
    expectNoSecret(await outsideWords(intake, events));
  });

  it("a secret shorter than 8 characters is not searched for (it would match ordinary words)", async () => {
    const { fake, intake } = await startModelIntake(closing, seed, { apiKey: "sk-1234" });
    fake.answer(() => refuses(401, "Incorrect API key provided: sk-1234."));
    expect((await receive(intake, "SM-1", "Hola")).bot!.error).toContain("Incorrect API key provided: sk-1234.");
  });
});

describe("a webhook receiver's answer is stored and answered with every configured secret redacted", () => {
  const echoing = () =>
    new Response(
      `Unknown signing secret ${WEBHOOK_SECRET} (${encodeURIComponent(WEBHOOK_SECRET)}), key ${masked(KEY)}, model ${MODEL_KEY}`,
      { status: 401 },
    );
  const shown = "HTTP 401: Unknown signing secret [REDACTED] ([REDACTED]), key [REDACTED], model [REDACTED]";

  it("a delivery's attempt", async () => {
    const { fake, intake, events } = await start({ receiver: echoing });
    await intake.admin.updateAccount("acc_gym", { webhookUrl: "https://hooks.example.test/in" });
    fake.answer(() => said("¡Hola!"));
    await receive(intake, "SM-1", "Hola");
    const [delivery] = await intake.admin.deliveries();
    expect(delivery!.attempts[0]!.error).toBe(shown);
    expect(events).toContainEqual(expect.objectContaining({ type: "delivery.attempted", error: shown }));
    expectNoSecret(await outsideWords(intake, events));
  });

  it("the test webhook's answer", async () => {
    const { intake } = await start({ receiver: echoing });
    await intake.admin.updateAccount("acc_gym", { webhookUrl: "https://hooks.example.test/in" });
    const result = await intake.admin.sendTestWebhook("acc_gym");
    expect(result).toMatchObject({ status: 401, ok: false, error: shown });
  });
});
