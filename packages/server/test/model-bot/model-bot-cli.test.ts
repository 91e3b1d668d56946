// intake-server's model bot flags: a started CLI answering from a recording with no endpoint, one
// asking an endpoint named by the environment, the bot it says at start, and the usage errors.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIntake } from "@intake/server";
import { createModelBot } from "@intake/server/node";
import { afterEach, describe, expect, it } from "vitest";
import { handsOff, refusedBaseUrl, refuses, said, startFakeModel, type FakeModel } from "../support/fake-model.js";
import { gymSeed, receiveMessage } from "../support/model-bot.js";
import { runCli, startCli, type CliRun } from "../support/spawn.js";

const KEY = "ik_model_cli_0000000000001";
const seed = gymSeed(KEY, { handOffPhrases: ["human"] });

const running: CliRun[] = [];
let fake: FakeModel | undefined;
afterEach(async () => {
  while (running.length) await running.pop()!.stop("SIGKILL");
  await fake?.close();
  fake = undefined;
});

const folder = () => mkdtempSync(join(tmpdir(), "intake-model-cli-"));
function files() {
  const dir = folder();
  const seedFile = join(dir, "seed.json");
  writeFileSync(seedFile, JSON.stringify(seed));
  return { dir, seedFile, recording: join(dir, "rehearsal.json") };
}

async function start(args: string[], env?: Record<string, string>) {
  const run = await startCli(["--port", "0", "--rate-limit", "0", ...args], [], { env });
  running.push(run);
  return run;
}

/** Sends a message as the contact u1 and waits for the bot; the message as the admin API shows it. */
async function receive(run: CliRun, sid: string, body: string) {
  const response = await run.fetch(`${run.info.baseUrl}/incoming_custom_channel_message?apiKey=${KEY}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ customData: { messageSid: sid, fromId: "u1", toId: "acme", body } }),
  });
  expect(response.status).toBe(200);
  const { messageId } = (await response.json()) as { messageId: string };
  const admin = { authorization: `Bearer ${run.info.adminToken}` };
  await run.fetch(`${run.info.adminUrl}/settle`, { method: "POST", headers: admin });
  return (await (await run.fetch(`${run.info.adminUrl}/messages/${messageId}`, { headers: admin })).json()) as Record<string, any>;
}

/** A recording of "Hi" and "Can we talk?" (the model hands off) for the seed's campaign and contact u1, made in process. */
async function record(file: string) {
  fake = await startFakeModel();
  fake.answer((request) =>
    request.body.messages.at(-1)!.content === "Hi"
      ? said("Hello! Want to book a free trial class?")
      : handsOff({ reason: "Wants a call." }),
  );
  const intake = createIntake({
    seed,
    rateLimit: 0,
    bot: createModelBot({ model: "tiny-model", baseUrl: fake.baseUrl, apiKey: "sk-test", record: file }),
  });
  for (const [sid, body] of [
    ["SM-1", "Hi"],
    ["SM-2", "Can we talk?"],
  ] as const) {
    await receiveMessage(intake, KEY, sid, body);
  }
  await intake.close();
  await fake.close();
  fake = undefined;
}

describe("intake-server --model", { timeout: 90_000 }, () => {
  it("--model-replay answers from the recording with no endpoint and no key, and says so at start", async () => {
    const { seedFile, recording } = files();
    await record(recording);
    const run = await start(["--seed", seedFile, "--model", "tiny-model", "--model-replay", recording], {
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: await refusedBaseUrl(),
    });
    expect(run.info.bot).toMatchObject({ name: "model", model: "tiny-model", mode: "replay", recording, baseUrl: null });
    expect(run.stderr()).toContain(`Bot: model tiny-model, replaying ${recording} (no endpoint is asked`);
    expect(await receive(run, "SM-1", "Hi")).toMatchObject({ botOutcome: "replied", bot: { name: "model", replayed: true, error: null } });
    expect(await receive(run, "SM-2", "Can we talk?")).toMatchObject({ botOutcome: "handed_off", bot: { replayed: true } });
  });

  it("asks the endpoint OPENAI_BASE_URL and OPENAI_API_KEY name; a failure's error is on the log at info", async () => {
    const { seedFile } = files();
    fake = await startFakeModel();
    fake.answer((_, index) =>
      index === 0 ? said("Hello from the model.") : { status: 503, body: { error: { message: "Loading model." } } },
    );
    const run = await start(["--seed", seedFile, "--model", "tiny-model", "--model-max-tokens", "64"], {
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_API_KEY: "sk-from-env",
    });
    expect(run.stderr()).toContain(`Bot: model tiny-model at ${fake.baseUrl} (timeout 30000 ms, at most 64 tokens, the last 20 messages)`);
    expect(await receive(run, "SM-1", "Hi")).toMatchObject({ botOutcome: "replied", bot: { replayed: false } });
    expect(fake.requests[0]).toMatchObject({
      path: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-from-env" },
      body: { model: "tiny-model", max_tokens: 64 },
    });
    const failed = await receive(run, "SM-2", "Still there?");
    expect(failed.botOutcome).toBe("bot_unavailable");
    await expect
      .poll(() => run.stderr())
      .toContain(
        `bot: bot unavailable for message ${failed.id} of ${failed.contactId}: The model endpoint ${fake.baseUrl} failed (503: Loading model.).`,
      );
  });

  // An endpoint's words that hold a newline and a line of the log's own shape, or terminal controls
  // (clear the screen: ESC [2J, and its one-character C1 form CSI 2J; a carriage return; a bidi override).
  const FORGED = "Bad key.\n12:00:00.000 acc_gym        webhook dlv_1 attempt 1: HTTP 200, delivered\u001b[2J\r\u009b2J\u202e";
  /** A control character other than the newlines that end lines. */
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

  it("an endpoint's words are printed on the bot's own line: newlines and control characters escaped", async () => {
    const { seedFile } = files();
    fake = await startFakeModel();
    fake.answer(() => refuses(401, FORGED));
    const run = await start(["--seed", seedFile, "--model", "tiny-model", "--model-base-url", fake.baseUrl, "--model-key", "sk-test"]);
    const failed = await receive(run, "SM-1", "Hi");
    expect(failed.botOutcome).toBe("bot_refused");
    const line = `bot: bot refused for message ${failed.id} of ${failed.contactId}: The model endpoint ${fake.baseUrl} refused the API key (401: Bad key.\\n12:00:00.000 acc_gym        webhook dlv_1 attempt 1: HTTP 200, delivered\\u001b[2J\\r\\u009b2J\\u202e).`;
    await expect.poll(() => run.stderr()).toContain(line);
    expect(run.stderr()).not.toMatch(CONTROL);
    expect(run.stderr()).not.toMatch(/^12:00:00\.000 acc_gym/m);
  });

  it("--log-format json keeps an endpoint's words on one line, its control characters escaped: parsed, they are the words as sent", async () => {
    const { seedFile } = files();
    fake = await startFakeModel();
    fake.answer(() => refuses(401, FORGED));
    const run = await start([
      "--seed",
      seedFile,
      "--model",
      "tiny-model",
      "--model-base-url",
      fake.baseUrl,
      "--model-key",
      "sk-test",
      "--log-format",
      "json",
    ]);
    const failed = await receive(run, "SM-1", "Hi");
    await expect.poll(() => run.stderr()).toContain('"bot.outcome"');
    expect(run.stderr()).not.toMatch(CONTROL);
    const line = run
      .stderr()
      .split("\n")
      .find((text) => text.includes('"bot.outcome"'))!;
    expect(JSON.parse(line)).toMatchObject({
      type: "bot.outcome",
      messageId: failed.id,
      error: expect.stringContaining(`(401: ${FORGED}).`),
    });
  });

  it("--model-key never reaches the log, though the endpoint's words hold it in full, masked or URL-encoded", async () => {
    const { seedFile } = files();
    const key = "sk-proj-cli/Log+Key=00000000000000Xr5T";
    fake = await startFakeModel();
    fake.answer(() =>
      refuses(
        401,
        `Incorrect API key provided: ${key}; shown as ${key.slice(0, 8)}${"*".repeat(20)}${key.slice(-4)}; sent as ${encodeURIComponent(key)}.`,
      ),
    );
    const run = await start(["--seed", seedFile, "--model", "tiny-model", "--model-base-url", fake.baseUrl, "--model-key", key]);
    const failed = await receive(run, "SM-1", "Hi");
    expect(failed.bot.error).toContain("(401: Incorrect API key provided: [REDACTED]; shown as [REDACTED]; sent as [REDACTED].)");
    await expect.poll(() => run.stderr()).toContain(`bot: bot refused for message ${failed.id}`);
    for (const form of [key, encodeURIComponent(key), key.slice(0, 8), key.slice(-4)]) expect(run.stderr()).not.toContain(form);
  });

  it("says at start which bot answers: the deterministic one by default; warns when a model has no key", async () => {
    const { seedFile } = files();
    const plain = await start(["--seed", seedFile]);
    expect(plain.info.bot).toMatchObject({ name: "deterministic", model: null });
    expect(plain.stderr()).toContain("Bot: the deterministic one");
    const keyless = await start(["--seed", seedFile, "--model", "gpt-4o-mini", "--model-base-url", "https://models.example.test/v1"], {
      OPENAI_API_KEY: "",
    });
    expect(keyless.stderr()).toContain(
      "intake-server: no API key for https://models.example.test/v1: every message's outcome will be bot_unconfigured. Give --model-key, or set OPENAI_API_KEY.",
    );
  });

  it.each([
    [["--model-replay", "x.json"], "--model-replay is a setting of the model bot: give --model NAME too."],
    [["--model", "m", "--bot", "bot.mjs"], "--bot and --model both choose the bot: give one."],
    [["--model", "m", "--model-record", "a.json", "--model-replay", "b.json"], "--model-record and --model-replay are two modes"],
    [["--model", "m", "--model-timeout", "soon"], "--model-timeout takes a whole number, 1 or more (got soon)."],
    [["--model", "m", "--model-max-tokens", "0"], "--model-max-tokens takes a whole number, 1 or more (got 0)."],
    [
      ["--model", "m", "--model-replay", "/nonexistent/rehearsal.json"],
      "cannot replay the recording /nonexistent/rehearsal.json: there is no such file. Record one first",
    ],
    [["--model", "m", "--model-base-url", "ftp://x"], "The model endpoint's base URL must be an http(s) URL (got ftp://x)."],
  ])("%o exits 2 saying what is wrong", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("a replay file that is not a recording exits 2 naming it", async () => {
    const { seedFile } = files();
    const result = await runCli(["--model", "m", "--model-replay", seedFile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot replay ${seedFile}: it is not a model recording`);
  });
});
