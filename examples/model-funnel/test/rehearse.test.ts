// The rehearsal in CI: replayed from the committed recording with no endpoint and no key, it is
// the conversation that was recorded (the model's replies word for word, its hand-off); recorded
// afresh from an OpenAI-compatible endpoint on 127.0.0.1 (the scripted stand-in), it replays the
// same; and a question the recording does not hold fails clearly, naming what was asked.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { LEAD_SAYS } from "../src/campaign.js";
import { rehearse, type Rehearsal } from "../src/rehearse.js";
import { startStandInModel } from "../src/stand-in-model.js";

const COMMITTED = fileURLToPath(new URL("../model-replies.json", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "intake-model-funnel-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Entry {
  model: string;
  messages: { role: string; content: string }[];
  answer: { content: string | null; handOff: { reason: string; reply?: string } | null };
}
const recording = (path: string) => JSON.parse(readFileSync(path, "utf8")) as { note?: string; entries: Entry[] };

/** The recorded answer to the lead's message `said` (the last of what the model was asked). */
const answerTo = (entries: Entry[], said: string) => entries.find((e) => e.messages.at(-1)?.content === said)!.answer;

/** The transcript's lines with the latency left out (a replay takes next to none, a recording its own). */
const timeless = ({ lines }: Rehearsal) => lines.map((line) => line.replace(/ in (< 1 ms|\d+ ms|\d+\.\d s)/, " in …"));

/** What the transcript must be for a recording: the opening, then each message and the recorded answer to it, up to a hand-off. */
function expectRecorded(rehearsal: Rehearsal, entries: Entry[], model: string, replayed: boolean) {
  const expected = [
    "Fit Club (opening template): Hi Maya, thanks for signing up for a free trial week at Fit Club! Any questions before your first class?",
  ];
  const mark = replayed ? "; replayed" : "";
  for (const said of LEAD_SAYS) {
    const answer = answerTo(entries, said);
    expected.push(`Maya Lopez (lead): ${said}`);
    if (answer.handOff) {
      expected.push(`  [model ${model}: handed off to a person in …${mark}]`);
      if (answer.handOff.reply ?? answer.content) expected.push(`Fit Club (bot): ${answer.handOff.reply ?? answer.content}`);
      expected.push(`Alert to the team: ${answer.handOff.reason}`);
      break;
    }
    expected.push(`  [model ${model}: replied in …${mark}]`, `Fit Club (bot): ${answer.content}`);
  }
  // The alert is printed after the conversation: move it last, as the transcript has it.
  const alert = expected.findIndex((line) => line.startsWith("Alert to the team"));
  if (alert >= 0) expected.push(...expected.splice(alert, 1));
  expect(timeless(rehearsal)).toEqual(expected);
  expect(rehearsal.failures).toEqual([]);
}

describe("the model funnel, rehearsed", () => {
  it("replays the committed recording with no endpoint and no key: the recorded replies word for word, and the model's hand-off", async () => {
    const { entries, note } = recording(COMMITTED);
    // The committed file says where it came from.
    expect(note).toMatch(/^Recorded from /);
    const model = entries[0]!.model;
    const rehearsal = await rehearse({ model, mode: { replay: COMMITTED } });
    expect(rehearsal.bot).toMatchObject({ name: "model", model, mode: "replay", baseUrl: null, recording: COMMITTED });
    expectRecorded(rehearsal, entries, model, true);
    // The recording hands off at the corporate plan: the team is alerted and the bot paused.
    expect(answerTo(entries, LEAD_SAYS[2]!).handOff).not.toBeNull();
    expect(rehearsal.messages.filter((m) => m.direction === "inbound").map((m) => m.botOutcome)).toEqual([
      "replied",
      "replied",
      "handed_off",
    ]);
  });

  it("records from an OpenAI-compatible endpoint on 127.0.0.1, and the recording replays the same conversation", async () => {
    const standIn = await startStandInModel();
    const file = join(folder, "recorded.json");
    try {
      const recorded = await rehearse({ model: "stand-in", mode: { record: file, baseUrl: standIn.baseUrl, apiKey: null } });
      expect(recorded.bot).toMatchObject({ name: "model", model: "stand-in", mode: "record", baseUrl: standIn.baseUrl, recording: file });
      // Asked once a message, with the hand-off tool; the last question is the lead's last message.
      expect(standIn.requests.map((r) => r.messages.at(-1)?.content)).toEqual(LEAD_SAYS);
      expect(standIn.requests[0]!.tools?.map((t) => t.function.name)).toEqual(["hand_off_to_person"]);
      const { entries } = recording(file);
      expect(entries).toHaveLength(LEAD_SAYS.length);
      expectRecorded(recorded, entries, "stand-in", false);

      const replayed = await rehearse({ model: "stand-in", mode: { replay: file } });
      expectRecorded(replayed, entries, "stand-in", true);
    } finally {
      await standIn.close();
    }
  });

  it("a question the recording does not hold fails clearly in replay, naming what was asked", async () => {
    const model = recording(COMMITTED).entries[0]!.model;
    const leadSays = [LEAD_SAYS[0]!, "Is there a pool?"];
    const rehearsal = await rehearse({ model, mode: { replay: COMMITTED }, leadSays });
    expect(rehearsal.failures).toEqual([
      { body: "Is there a pool?", outcome: "bot_not_recorded", error: expect.stringContaining('"Is there a pool?"') },
    ]);
    expect(rehearsal.failures[0]!.error).toContain(COMMITTED);
    expect(timeless(rehearsal).slice(-2)).toEqual([
      "Maya Lopez (lead): Is there a pool?",
      `  [model ${model}: gave no answer (bot_not_recorded) in …; ${rehearsal.failures[0]!.error}]`,
    ]);
  });
});
