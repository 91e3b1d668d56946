// The rehearsal, printed as a transcript:
//   npm run demo -w @intake/example-model-funnel              replays model-replies.json: no endpoint, no key
//   npm run record -w @intake/example-model-funnel            asks a real model and records its answers:
//       OPENAI_BASE_URL (default Ollama's, http://127.0.0.1:11434/v1), MODEL (default llama3.2),
//       OPENAI_API_KEY (none needed for a model on this machine)
//   npm run record:stand-in -w @intake/example-model-funnel   records from the scripted stand-in (src/stand-in-model.ts)
// RECORDING names another recording file (default model-replies.json in this folder).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rehearse, type Rehearsal } from "./rehearse.js";
import { startStandInModel } from "./stand-in-model.js";

const OLLAMA = "http://127.0.0.1:11434/v1";
const STAND_IN_MODEL = "stand-in";
const file = process.env.RECORDING ?? fileURLToPath(new URL("../model-replies.json", import.meta.url));
const args = process.argv.slice(2);

function print(header: string, { lines }: Rehearsal) {
  console.log(`${header}\n`);
  for (const line of lines) console.log(line);
}

/** The model a recording was made with (replay asks the same one: its name is part of every question's key), and its note. */
async function recorded(): Promise<{ model: string; note: string | undefined }> {
  let recording: { note?: string; entries?: { model?: string }[] };
  try {
    recording = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new Error(
      `Cannot read the recording ${file} (${(error as Error).message}). Record one with npm run record -w @intake/example-model-funnel.`,
      { cause: error },
    );
  }
  const model = recording.entries?.[0]?.model;
  if (!model) throw new Error(`The recording ${file} holds no answers: record it with npm run record -w @intake/example-model-funnel.`);
  return { model, note: recording.note };
}

/** Records into a file of its own, and replaces the recording only when every question was answered. */
async function record(standIn: boolean) {
  const model = standIn ? STAND_IN_MODEL : (process.env.MODEL ?? "llama3.2");
  const stand = standIn ? await startStandInModel() : undefined;
  const baseUrl = stand?.baseUrl ?? process.env.OPENAI_BASE_URL ?? OLLAMA;
  const folder = await mkdtemp(join(tmpdir(), "intake-model-funnel-"));
  try {
    const fresh = join(folder, "recording.json");
    const rehearsal = await rehearse({ model, mode: { record: fresh, baseUrl, ...(standIn ? { apiKey: null } : {}) } });
    if (rehearsal.failures.length) {
      for (const { body, outcome, error } of rehearsal.failures) console.error(`"${body}": ${outcome}: ${error}`);
      console.error(
        `\nThe model at ${baseUrl} did not answer every question: ${basename(file)} is unchanged. Is it running, and is ${model} pulled (ollama pull ${model})?`,
      );
      process.exitCode = 1;
      return;
    }
    const note = standIn
      ? `Recorded from the scripted stand-in endpoint (src/stand-in-model.ts: answers written by hand, not a model) with npm run record:stand-in, because no model can run where this repository is tested. npm run record against Ollama (or any OpenAI-compatible endpoint) re-records it from a real model.`
      : `Recorded from model ${model} at ${baseUrl} with npm run record.`;
    const { format, entries } = JSON.parse(await readFile(fresh, "utf8"));
    await writeFile(file, `${JSON.stringify({ format, note, entries }, null, 2)}\n`);
    print(`Rehearsed with model ${model} at ${standIn ? "the stand-in" : baseUrl}; recorded to ${basename(file)}.`, rehearsal);
  } finally {
    await rm(folder, { recursive: true, force: true });
    await stand?.close();
  }
}

async function replay() {
  const { model: recordedWith, note } = await recorded();
  const model = process.env.MODEL ?? recordedWith;
  const rehearsal = await rehearse({ model, mode: { replay: file } });
  print(`Replayed with model ${model} from ${basename(file)}: no endpoint, no key.${note ? `\n${note}` : ""}`, rehearsal);
  if (rehearsal.failures.length) process.exitCode = 1;
}

try {
  await (args.includes("--record") ? record(args.includes("--stand-in")) : replay());
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
}
