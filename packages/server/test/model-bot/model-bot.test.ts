// The model-backed bot against an OpenAI-compatible fake endpoint on 127.0.0.1: what it asks, and
// what each answer (a reply, a hand-off, each failure) does to the conversation.
import { createIntake, type Intake } from "@intake/server";
import { createModelBot, type ModelBotOptions } from "@intake/server/node";
import { describe, expect, it } from "vitest";
import { handsOff, refusedBaseUrl, refuses, said, streamed, webPage, type FakeModel } from "../support/fake-model.js";
import { importGraph } from "../support/import-graph.js";
import { closedAfterEach, gymSeed, receiveMessage, startModelIntake } from "../support/model-bot.js";

const KEY = "ik_model_bot_0000000000001";
const MODEL_KEY = "sk-test-model-key";

const seed = gymSeed(KEY, {
  language: "es",
  botInstructions: "Be warm. Never promise discounts.",
  companyInfo: "Acme Fitness runs three gyms downtown.",
  faqs: [{ question: "How much is a membership?", answer: "29 dollars a month." }],
  resources: [{ title: "Timetable", url: "https://acme.example/timetable" }],
  handOffPhrases: ["talk to a human"],
});

const closing = closedAfterEach();
const start = (options: Partial<ModelBotOptions> = {}) => startModelIntake(closing, seed, { apiKey: MODEL_KEY, ...options });
const receive = (server: Intake, sid: string, body: string, extra: Record<string, string> = {}) =>
  receiveMessage(server, KEY, sid, body, extra);

const sent = async (server: Intake) => (await server.admin.messages({ direction: "outbound" })).map((m) => m.body);

describe("the model bot asks the endpoint", () => {
  it("with the campaign's prompt, the conversation in order, the hand-off tool and the token cap; its reply is sent", async () => {
    const { fake, intake } = await start({ maxTokens: 123 });
    fake.answer((_, index) => said(index === 0 ? "¡Hola Ada! ¿Quieres una clase de prueba?" : "Cuesta 29 dólares al mes."));
    const first = await receive(intake, "SM-1", "Hola", { firstName: "Ada", lastName: "Lovelace" });
    expect(first).toMatchObject({ botOutcome: "replied", bot: { name: "model", model: "tiny-model", replayed: false, error: null } });
    expect(first.bot!.latencyMs).toBeGreaterThan(0);
    await receive(intake, "SM-2", "¿Cuánto cuesta?");
    expect(await sent(intake)).toEqual(["¡Hola Ada! ¿Quieres una clase de prueba?", "Cuesta 29 dólares al mes."]);

    const [, second] = fake.requests;
    expect([second!.method, second!.path, second!.headers.authorization]).toEqual(["POST", "/v1/chat/completions", `Bearer ${MODEL_KEY}`]);
    expect(second!.body).toMatchObject({ model: "tiny-model", max_tokens: 123 });
    expect(second!.body.tools!.map((t) => [t.type, t.function.name])).toEqual([["function", "hand_off_to_person"]]);
    expect(second!.body.tools![0]!.function.parameters).toMatchObject({
      required: ["reason"],
      properties: { reason: { type: "string" }, reply: { type: "string" } },
    });
    const [system, ...history] = second!.body.messages;
    expect(system!.role).toBe("system");
    for (const part of [
      "Spanish (es)",
      "Be warm. Never promise discounts.",
      "Acme Fitness runs three gyms downtown.",
      "Q: How much is a membership?\nA: 29 dollars a month.",
      "Timetable (https://acme.example/timetable)",
      "Book a free trial class.",
      "Ada Lovelace",
      "hand_off_to_person",
    ]) {
      expect(system!.content).toContain(part);
    }
    expect(history).toEqual([
      { role: "user", content: "Hola" },
      { role: "assistant", content: "¡Hola Ada! ¿Quieres una clase de prueba?" },
      { role: "user", content: "¿Cuánto cuesta?" },
    ]);
  });

  it("a campaign's hand-off phrase hands off before any model call", async () => {
    const { fake, intake } = await start();
    const message = await receive(intake, "SM-1", "Can I talk to a human please?");
    expect(fake.requests).toHaveLength(0);
    expect(message).toMatchObject({ botOutcome: "handed_off", bot: { name: "model", error: null } });
    expect(await intake.admin.alerts()).toMatchObject([
      { contactId: message.contactId, reason: 'The contact asked for a person ("talk to a human").' },
    ]);
  });

  it("the model's hand-off tool call raises the alert, pauses the bot for the contact and sends its reply", async () => {
    const { fake, intake } = await start();
    fake.answer(() => handsOff({ reason: "Wants to negotiate a corporate plan.", reply: "Un compañero te escribe enseguida." }));
    const message = await receive(intake, "SM-1", "We are 40 people, can we get a deal?");
    expect(message.botOutcome).toBe("handed_off");
    expect(await intake.admin.alerts()).toMatchObject([
      { contactId: message.contactId, messageId: message.id, reason: "Wants to negotiate a corporate plan." },
    ]);
    expect((await intake.admin.contact(message.contactId)).contact.botPaused).toBe(true);
    expect(await sent(intake)).toEqual(["Un compañero te escribe enseguida."]);
    // Paused: the model is not asked about the next message.
    expect(await receive(intake, "SM-2", "Hello?")).toMatchObject({ botOutcome: "contact_paused" });
    expect(fake.requests).toHaveLength(1);
  });

  it("an endpoint that refuses tools is asked again without them, told to answer HANDOFF: <reason>; later messages go without tools at once", async () => {
    const { fake, intake } = await start();
    fake.answer((request) => {
      if (request.body.tools) return refuses(400, "registry.ollama.ai/library/tiny-model does not support tools");
      const last = request.body.messages.at(-1)!.content;
      return said(last === "Hola" ? "¡Hola!" : "HANDOFF: Asks for a refund.\nTe paso con una persona del equipo.");
    });
    expect(await receive(intake, "SM-1", "Hola")).toMatchObject({ botOutcome: "replied" });
    expect(fake.requests.map((r) => Boolean(r.body.tools))).toEqual([true, false]);
    expect(fake.requests[1]!.body.messages[0]!.content).toContain('answer with a first line "HANDOFF: <the reason>"');

    const refund = await receive(intake, "SM-2", "I want my money back");
    expect(fake.requests.map((r) => Boolean(r.body.tools))).toEqual([true, false, false]);
    expect(refund.botOutcome).toBe("handed_off");
    expect(await intake.admin.alerts()).toMatchObject([{ reason: "Asks for a refund." }]);
    expect(await sent(intake)).toEqual(["¡Hola!", "Te paso con una persona del equipo."]);
  });

  it("an endpoint that refuses max_tokens (OpenAI's reasoning models) is asked with max_completion_tokens", async () => {
    const { fake, intake } = await start({ maxTokens: 300 });
    fake.answer((request) =>
      request.body.max_tokens !== undefined
        ? refuses(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
        : said("Hi!"),
    );
    expect(await receive(intake, "SM-1", "Hola")).toMatchObject({ botOutcome: "replied" });
    expect(fake.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([
      [300, undefined],
      [undefined, 300],
    ]);
  });

  it("an answer in content parts (OpenAI's multi-part form): its text parts are sent, joined as they came; other parts are left out", async () => {
    const { fake, intake } = await start();
    fake.answer((_, index) =>
      index === 0
        ? said([
            { type: "text", text: "¡Hola Ada! " },
            { type: "image_url", image_url: { url: "https://cdn.example/gym.png" } },
            { type: "text", text: "¿Quieres una clase de prueba?" },
          ])
        : said([{ type: "text", text: "HANDOFF: Wants a person.\nTe paso con el equipo." }]),
    );
    expect(await receive(intake, "SM-1", "Hola")).toMatchObject({ botOutcome: "replied", bot: { error: null } });
    expect(await receive(intake, "SM-2", "A person please")).toMatchObject({ botOutcome: "handed_off" });
    expect(await sent(intake)).toEqual(["¡Hola Ada! ¿Quieres una clase de prueba?", "Te paso con el equipo."]);
    expect(await intake.admin.alerts()).toMatchObject([{ reason: "Wants a person." }]);
  });

  it("GET /__admin/bot says which model answers, where, and how", async () => {
    const { fake, intake } = await start({ timeoutMs: 5000, maxTokens: 200, historyLimit: 8 });
    expect(await intake.admin.bot()).toEqual({
      name: "model",
      model: "tiny-model",
      baseUrl: fake.baseUrl,
      mode: "live",
      recording: null,
      timeoutMs: 5000,
      maxTokens: 200,
      historyLimit: 8,
    });
  });
});

describe("a model that gives no answer: the message's outcome and error say why, nothing is sent or charged, the next message tries again", () => {
  const cases: Array<[string, Parameters<FakeModel["answer"]>[0] | "refused", Partial<ModelBotOptions>, string, RegExp]> = [
    [
      "a refused key (401)",
      () => refuses(401, "Incorrect API key provided."),
      {},
      "bot_refused",
      /refused the API key \(401: Incorrect API key provided\.\)\. Check --model-key or OPENAI_API_KEY/,
    ],
    [
      "no access (403)",
      () => refuses(403, "No access to this model."),
      {},
      "bot_refused",
      /refused the request \(403: No access to this model\.\).*tiny-model/,
    ],
    [
      "a rate limit (429)",
      () => refuses(429, "Rate limit reached.", { "retry-after": "20" }),
      {},
      "bot_rate_limited",
      /limiting requests \(429: Rate limit reached\.\)\. It asks to wait 20 s\./,
    ],
    [
      "a server error (500)",
      () => refuses(500, "The server had an error."),
      {},
      "bot_unavailable",
      /failed \(500: The server had an error\.\)\. The next message tries again\./,
    ],
    [
      "an unknown model (404)",
      () => refuses(404, "model 'tiny-model' not found"),
      {},
      "bot_unavailable",
      /404: model 'tiny-model' not found.*ollama pull tiny-model/,
    ],
    [
      "the endpoint unreachable",
      "refused",
      {},
      "bot_unavailable",
      /Could not reach the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\)/,
    ],
    ["a slow answer past the timeout", () => "hang", { timeoutMs: 300 }, "bot_timeout", /did not answer within 300 ms/],
    [
      "a web page where the API was expected (a login page answering 200 HTML)",
      () =>
        webPage(
          `<!DOCTYPE html>\n<html><head><title>Sign in</title><style>body { margin: 0 }</style></head>\n<body><h1>Sign in to Open WebUI</h1><form>…</form></body></html>`,
        ),
      {},
      "bot_unavailable",
      /answered with something other than a chat completion \(200 text\/html; charset=utf-8, beginning "Sign in Sign in to Open WebUI …"\)\. Check that --model-base-url \(or OPENAI_BASE_URL\) is the API's address/,
    ],
    [
      "JSON that is not a completion",
      () => ({ body: { detail: "Not Found" } }),
      {},
      "bot_unavailable",
      /other than a chat completion \(200 application\/json, beginning "\{"detail":"Not Found"\}"\)/,
    ],
    ["an empty answer", () => said("   "), {}, "bot_empty_answer", /empty answer \(finish reason: stop\)/],
    [
      "an empty answer cut by the token cap",
      () => said(null, "length"),
      { maxTokens: 50 },
      "bot_empty_answer",
      /stopped at its cap of 50 tokens.*--model-max-tokens/,
    ],
    [
      "an oversized answer",
      () => said("x".repeat(4097)),
      {},
      "bot_oversized_answer",
      /4097 characters, more than a message may hold \(4096\)/,
    ],
    [
      "an answer whose Content-Length says it is over 256 KiB",
      () => said("x".repeat(300_000)),
      {},
      "bot_oversized_answer",
      /sent an answer over 256 KiB \(262144 bytes\); the server stopped reading it there/,
    ],
    [
      "content parts with no text (an image only)",
      () =>
        said([
          { type: "image_url", image_url: { url: "https://cdn.example/cat.png" } },
          { type: "refusal", refusal: "No." },
        ]),
      {},
      "bot_empty_answer",
      /answer holds no text: its content is 2 parts, of types image_url, refusal, and a message carries text only/,
    ],
    [
      "content that is neither text nor parts (an object)",
      () => said({ text: "Hola" }),
      {},
      "bot_unavailable",
      /content the server cannot read: an object \(\{"text":"Hola"\}\)/,
    ],
  ];

  it.each(cases)("%s", async (_, answer, options, outcome, error) => {
    const { fake, intake } = await start(answer === "refused" ? { ...options, baseUrl: await refusedBaseUrl() } : options);
    if (answer !== "refused") fake.answer(answer);
    const message = await receive(intake, "SM-1", "Hola");
    expect(message).toMatchObject({ botOutcome: outcome, bot: { name: "model", model: "tiny-model", replayed: false } });
    expect(message.bot!.error).toMatch(error);
    expect(await sent(intake)).toEqual([]);
    expect((await intake.admin.contact(message.contactId)).contact.botPaused).toBe(false);
    expect(await intake.admin.alerts()).toEqual([]);
    expect((await intake.admin.credits("acc_gym")).balance).toBe(100);
  });

  it.each([
    [
      200,
      "bot_oversized_answer",
      /^The model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 sent an answer over 256 KiB \(262144 bytes\); the server stopped reading it there/,
    ],
    [500, "bot_unavailable", /failed \(500: a body over 256 KiB \(262144 bytes\), which the server stopped reading\)/],
  ])(
    "an answer (status %i) of 20 MB is read no further than 256 KiB: the connection is closed before the endpoint finishes, the outcome says it was too large",
    async (status, outcome, error) => {
      const { fake, intake } = await start();
      fake.answer(() => streamed(20 * 1024 * 1024, status));
      const message = await receive(intake, "SM-1", "Hola");
      await expect.poll(() => fake.streams[0]?.end).toBe("closed");
      expect(fake.streams[0]!.sent).toBeLessThan(20 * 1024 * 1024);
      expect(message).toMatchObject({ botOutcome: outcome });
      expect(message.bot!.error).toMatch(error);
    },
  );

  it("no key for an endpoint elsewhere: nothing is asked; one on this machine (Ollama) needs none", async () => {
    const { fake, intake: remote } = await start({ apiKey: null, baseUrl: "https://models.example.test/v1" });
    const message = await receive(remote, "SM-1", "Hola");
    expect(message).toMatchObject({
      botOutcome: "bot_unconfigured",
      bot: {
        error: expect.stringMatching(
          /^No API key for the model endpoint https:\/\/models\.example\.test\/v1: give --model-key, or set OPENAI_API_KEY/,
        ),
      },
    });
    await remote.close();

    const local = closing(
      createIntake({ seed, rateLimit: 0, bot: createModelBot({ model: "tiny-model", baseUrl: fake.baseUrl, apiKey: null }) }),
    );
    expect(await receive(local, "SM-1", "Hola")).toMatchObject({ botOutcome: "replied" });
    expect(fake.requests).toHaveLength(1);
  });

  it("the next message tries again after a failure", async () => {
    const { fake, intake } = await start();
    fake.answer((_, index) => (index === 0 ? refuses(503, "Overloaded.") : said("Ya estoy aquí.")));
    expect(await receive(intake, "SM-1", "Hola")).toMatchObject({ botOutcome: "bot_unavailable" });
    expect(await receive(intake, "SM-2", "¿Hola?")).toMatchObject({ botOutcome: "replied", bot: { error: null } });
    expect(await sent(intake)).toEqual(["Ya estoy aquí."]);
    // The failed turn is in the history (the contact said it), the missing answer is not.
    expect(fake.requests[1]!.body.messages.slice(1)).toEqual([
      { role: "user", content: "Hola" },
      { role: "user", content: "¿Hola?" },
    ]);
  });

  it("a stop while the model is answering keeps the message's job: a restart asks again", async () => {
    const { fake, intake: first } = await start();
    fake.answer(() => "hang");
    const response = await first.fetch(
      new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData: { messageSid: "SM-1", fromId: "u1", toId: "acme", body: "Hola" } }),
      }),
    );
    expect(response.status).toBe(200);
    await expect.poll(() => fake.requests.length).toBe(1);
    await first.close();
    const saved = first.snapshot();
    expect((saved.records.message as Array<{ botOutcome: string | null }>)[0]!.botOutcome).toBeNull();
    expect((saved.records.job as Array<{ kind: string }>).map((j) => j.kind)).toEqual(["inbound"]);

    fake.answer(() => said("¡Hola!"));
    const intake = closing(
      createIntake({
        snapshot: saved,
        rateLimit: 0,
        bot: createModelBot({ model: "tiny-model", baseUrl: fake.baseUrl, apiKey: MODEL_KEY }),
      }),
    );
    await intake.admin.settle();
    expect(await sent(intake)).toEqual(["¡Hola!"]);
  });
});

describe("where the model bot loads", () => {
  it("only from @intake/server/node: the main and msw entry points load neither it nor openai", async () => {
    // The packages the server declares, but openai: any import of it, static or not, is followed.
    const external = [
      "@intake/spec",
      "msw",
      "@mswjs/data",
      "ajv",
      "ajv-formats",
      "libphonenumber-js",
      "file-type",
      "leven",
      "yaml",
      "standardwebhooks",
      "openapi-fetch",
      "eventsource-parser",
      "better-sqlite3",
      "selfsigned",
    ];
    for (const entry of ["src/index.ts", "src/msw.ts"]) {
      const loaded = await importGraph(entry, { platform: "node", external });
      expect(loaded).toContain("src/app.ts");
      expect(loaded.filter((path) => path === "openai" || path.includes("model-bot"))).toEqual([]);
    }
    expect(await importGraph("src/node.ts", { platform: "node", external })).toEqual(
      expect.arrayContaining(["src/model-bot/model-bot.ts", "openai"]),
    );
  });
});
