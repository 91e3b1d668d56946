// Record and replay: a rehearsal against an endpoint keeps the model's answers in a file; a replay
// answers from the file alone, with no endpoint and no key, and fails clearly on what it lacks.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIntake, type Intake } from "@intake/server";
import { createModelBot, RECORDING_FORMAT, type ModelBotOptions } from "@intake/server/node";
import { afterEach, describe, expect, it } from "vitest";
import { handsOff, refusedBaseUrl, said, startFakeModel, type FakeModel } from "../support/fake-model.js";
import { gymSeed, receiveMessage } from "../support/model-bot.js";

const KEY = "ik_model_recording_00000001";
const seed = gymSeed(KEY, { companyInfo: "Acme Fitness runs three gyms." });

let fake: FakeModel | undefined;
const servers: Intake[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
  await fake?.close();
  fake = undefined;
});

const folder = () => mkdtempSync(join(tmpdir(), "intake-recording-"));

function server(options: ModelBotOptions) {
  const intake = createIntake({ seed, rateLimit: 0, bot: createModelBot(options) });
  servers.push(intake);
  return intake;
}

const receive = (intake: Intake, sid: string, body: string, fromId = "u1") =>
  receiveMessage(intake, KEY, sid, body, { fromId, firstName: "Ada" });

/** The rehearsal: two messages answered, then a hand-off, recorded to `file`. */
async function rehearse(file: string) {
  fake = await startFakeModel();
  fake.answer((request) => {
    const last = request.body.messages.at(-1)!.content;
    if (last === "Hi") return said("Hi Ada! Want to book a free trial class?");
    if (last === "Yes, Tuesday?") return said("Tuesday at 7 pm works. See you then!");
    return handsOff({ reason: "Asks about a corporate plan.", reply: "A colleague will write to you shortly." });
  });
  const intake = server({ model: "tiny-model", baseUrl: fake.baseUrl, apiKey: "sk-test", record: file });
  await receive(intake, "SM-1", "Hi");
  await receive(intake, "SM-2", "Yes, Tuesday?");
  await receive(intake, "SM-3", "Do you have plans for companies?");
  return intake;
}

describe("record mode", () => {
  it("writes each answer to the file: its format, a key per question, the request's messages and the answer", async () => {
    const dir = folder();
    const file = join(dir, "rehearsal.json");
    const intake = await rehearse(file);
    expect(await intake.admin.bot()).toMatchObject({ name: "model", mode: "record", recording: file, baseUrl: fake!.baseUrl });
    const recording = JSON.parse(readFileSync(file, "utf8"));
    expect(recording.format).toBe(RECORDING_FORMAT);
    expect(recording.entries).toHaveLength(3);
    const [first, , third] = recording.entries;
    expect(first).toEqual({
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      model: "tiny-model",
      tools: ["hand_off_to_person"],
      messages: fake!.requests[0]!.body.messages,
      answer: { content: "Hi Ada! Want to book a free trial class?", handOff: null, finishReason: "stop" },
      via: "tools",
      recordedAt: expect.any(String),
    });
    expect(third.answer).toEqual({
      content: null,
      handOff: { reason: "Asks about a corporate plan.", reply: "A colleague will write to you shortly." },
      finishReason: "tool_calls",
    });
    expect(new Set(recording.entries.map((e: { key: string }) => e.key)).size).toBe(3);
    // Written whole and renamed: no temporary file is left beside it.
    expect(readdirSync(dir)).toEqual(["rehearsal.json"]);
  });

  it("adds to a recording that exists; the same question asked again replaces its entry", async () => {
    const file = join(folder(), "rehearsal.json");
    await rehearse(file);
    await servers.pop()!.close();
    const again = server({ model: "tiny-model", baseUrl: fake!.baseUrl, apiKey: "sk-test", record: file });
    fake!.answer(() => said("Hello again!"));
    await receive(again, "SM-1", "Hi", "u2");
    await receive(again, "SM-2", "Something new", "u2");
    const entries = JSON.parse(readFileSync(file, "utf8")).entries as Array<{ answer: { content: string | null } }>;
    expect(entries.map((e) => e.answer.content)).toEqual(["Tuesday at 7 pm works. See you then!", null, "Hello again!", "Hello again!"]);
  });
});

describe("replay mode", () => {
  it("answers from the recording alone, with no endpoint and no key: the same conversation, marked replayed", async () => {
    const file = join(folder(), "rehearsal.json");
    const rehearsal = await rehearse(file);
    const rehearsed = (await rehearsal.admin.messages()).map((m) => [m.direction, m.body, m.botOutcome]);
    await fake!.close();
    fake = undefined;

    const replay = server({ model: "tiny-model", replay: file, apiKey: null, baseUrl: await refusedBaseUrl() });
    expect(await replay.admin.bot()).toEqual({
      name: "model",
      model: "tiny-model",
      baseUrl: null,
      mode: "replay",
      recording: file,
      timeoutMs: null,
      maxTokens: 400,
      historyLimit: 20,
    });
    const first = await receive(replay, "SM-1", "Hi");
    expect(first).toMatchObject({ botOutcome: "replied", bot: { name: "model", model: "tiny-model", replayed: true, error: null } });
    await receive(replay, "SM-2", "Yes, Tuesday?");
    await receive(replay, "SM-3", "Do you have plans for companies?");
    expect((await replay.admin.messages()).map((m) => [m.direction, m.body, m.botOutcome])).toEqual(rehearsed);
    expect(await replay.admin.alerts()).toMatchObject([{ reason: "Asks about a corporate plan." }]);
  });

  it("an answer in content parts is kept as it came and replayed as it was answered: its text parts sent, parts with no text refused alike", async () => {
    const file = join(folder(), "rehearsal.json");
    fake = await startFakeModel();
    fake.answer((request) =>
      request.body.messages.at(-1)!.content === "Hi"
        ? said([
            { type: "text", text: "Hi Ada! " },
            { type: "text", text: "Want a free trial class?" },
          ])
        : said([{ type: "image_url", image_url: { url: "https://cdn.example/map.png" } }]),
    );
    const rehearsal = server({ model: "tiny-model", baseUrl: fake.baseUrl, apiKey: "sk-test", record: file });
    const outcomes = async (intake: Intake) => {
      const first = await receive(intake, "SM-1", "Hi");
      const second = await receive(intake, "SM-2", "Where are you?");
      return [
        first.botOutcome,
        first.bot!.error,
        second.botOutcome,
        second.bot!.error,
        (await intake.admin.messages({ direction: "outbound" })).map((m) => m.body),
      ];
    };
    const rehearsed = await outcomes(rehearsal);
    expect(rehearsed).toEqual([
      "replied",
      null,
      "bot_empty_answer",
      expect.stringContaining("image_url"),
      ["Hi Ada! Want a free trial class?"],
    ]);
    const entries = JSON.parse(readFileSync(file, "utf8")).entries as Array<{ answer: { content: unknown } }>;
    expect(entries[0]!.answer.content).toEqual([
      { type: "text", text: "Hi Ada! " },
      { type: "text", text: "Want a free trial class?" },
    ]);

    const replay = server({ model: "tiny-model", replay: file });
    expect(await outcomes(replay)).toEqual(rehearsed);
  });

  it("a question with no recording is bot_not_recorded, naming the file, the last message and the key", async () => {
    const file = join(folder(), "rehearsal.json");
    await rehearse(file);
    const replay = server({ model: "tiny-model", replay: file });
    await receive(replay, "SM-1", "Hi");
    const unknown = await receive(replay, "SM-2", "Something the rehearsal never said");
    expect(unknown).toMatchObject({ botOutcome: "bot_not_recorded", bot: { replayed: false } });
    expect(unknown.bot!.error).toMatch(
      new RegExp(
        `^No recording in ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} answers what was asked \\(model tiny-model, the contact's last message "Something the rehearsal never said", key sha256:[0-9a-f]{64}; the file holds 3\\)\\. .*--model-record`,
      ),
    );
    // Another model is another question.
    const other = server({ model: "other-model", replay: file });
    expect(await receive(other, "SM-1", "Hi")).toMatchObject({ botOutcome: "bot_not_recorded" });
  });
});

describe("createModelBot refuses what cannot work, saying why", () => {
  it.each([
    [
      "record and replay together",
      (dir: string) => ({ record: join(dir, "a.json"), replay: join(dir, "b.json") }),
      /Record and replay are two modes/,
    ],
    [
      "a replay file that is missing",
      (dir: string) => ({ replay: join(dir, "missing.json") }),
      /cannot replay the recording .*missing\.json: .*no such file.*Record one first: run with --model-record FILE/i,
    ],
    [
      "a replay file that is not a recording",
      (dir: string) => {
        writeFileSync(join(dir, "seed.json"), JSON.stringify({ accounts: [] }));
        return { replay: join(dir, "seed.json") };
      },
      /seed\.json: it is not a model recording \(a JSON object with "format": "intake-model-recording\/1" and "entries"\)/,
    ],
    [
      "a record file in a folder that does not exist",
      (dir: string) => ({ record: join(dir, "no", "such", "rehearsal.json") }),
      /cannot create the recording file .*rehearsal\.json/,
    ],
    ["no model", () => ({ model: " " }), /needs a model/],
    [
      "a base URL that is not http(s)",
      () => ({ baseUrl: "ftp://models.example.test" }),
      /must be an http\(s\) URL \(got ftp:\/\/models\.example\.test\)/,
    ],
  ])("%s", (_, options, error) => {
    const dir = folder();
    expect(() => createModelBot({ model: "tiny-model", ...options(dir) })).toThrow(error);
    expect(existsSync(join(dir, "no"))).toBe(false);
  });
});
