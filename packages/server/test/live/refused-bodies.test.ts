// What the server keeps of a request once it is answered: the body of a large one, refused or
// not, only as a note of its length (the journal, the raw `request.answered` event, the live
// events' replay), and nothing of it in memory (a child process with a small heap).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { AnsweredRequest } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { quoted } from "../support/child-output.js";
import { ADMIN_TOKEN, httpsTarget, raw, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const MARKER = (characters: number) => ({ truncated: true, characters });

/** The live events' frames replayed after id 0, until `count` request.answered ones came. */
async function replayed(h: HttpsHarness, count: number): Promise<string[]> {
  const controller = new AbortController();
  const response = await h.fetch(`${h.adminUrl}/events`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "last-event-id": "0" },
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while ((text.match(/event: request\.answered\n/g) ?? []).length < count) text += (await reader.read()).value ?? "";
  controller.abort();
  return text.split("\n\n").filter((frame) => frame.includes("event: request.answered"));
}

describe("a large body, once answered", () => {
  it("is kept as a note of its length: in the event published, the journal and the live events", async () => {
    harness = await startHarness();
    const published: AnsweredRequest[] = [];
    harness.intake.events.on(["request.answered"], ({ request }) => published.push(request));
    const bodies = [
      // Refused: a name that long is not valid.
      JSON.stringify({ phone: "+14155550111", firstName: "n".repeat(1_000_000) }),
      // Refused, its answer quoting the field's name: the answer is as long.
      JSON.stringify({ phone: "+14155550112", ["x".repeat(70_000)]: 1 }),
    ];
    for (const body of bodies) {
      const answer = await raw(httpsTarget(harness), `/contacts?apiKey=${KEYS.acme}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(answer.status).toBe(400);
      await answer.text();
    }

    // What anything that hears the event gets: the note, as JSON text, in place of either long body.
    expect(published.map((r) => [r.status, JSON.parse(r.requestText!)])).toEqual(bodies.map((b) => [400, MARKER(b.length)]));
    expect(JSON.parse(published[1]!.responseText!)).toEqual(MARKER(expect.any(Number)));
    expect(JSON.parse(published[0]!.responseText!)).toMatchObject({ error: { code: "VALIDATION_ERROR" } });

    const journal = (await harness.admin("GET", "/journal")).body as Array<{ requestBody: unknown; responseBody: unknown }>;
    expect(journal.map((entry) => entry.requestBody)).toEqual(bodies.map((b) => MARKER(b.length)));
    expect(journal[1]!.responseBody).toEqual(MARKER(expect.any(Number)));
    expect(JSON.stringify(journal).length).toBeLessThan(4096);

    // The live events never carried bodies: a replayed request.answered is a line of ids and figures.
    const frames = await replayed(harness, 2);
    expect(frames).toHaveLength(2);
    for (const frame of frames) {
      expect(frame.length).toBeLessThan(1024);
      expect(JSON.parse(frame.split("data: ")[1]!)).toMatchObject({ type: "request.answered", status: 400, code: "VALIDATION_ERROR" });
    }
  });

  it("a body of 65,536 characters is kept whole", async () => {
    harness = await startHarness();
    const published: AnsweredRequest[] = [];
    harness.intake.events.on(["request.answered"], ({ request }) => published.push(request));
    const prefix = JSON.stringify({ phone: "+14155550113", firstName: "" }).length;
    const body = JSON.stringify({ phone: "+14155550113", firstName: "n".repeat(65_536 - prefix) });
    expect(body).toHaveLength(65_536);
    const answer = await raw(httpsTarget(harness), `/contacts?apiKey=${KEYS.acme}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(answer.status).toBe(400);
    expect(published[0]!.requestText).toBe(body);
  });

  it("nothing of 40 refused 8 MB bodies stays in memory: a 160 MB heap lives, and holds no more after", async () => {
    const script = fileURLToPath(new URL("../support/refused-bodies-child.ts", import.meta.url));
    const root = fileURLToPath(new URL("../../../../", import.meta.url));
    const args = ["--expose-gc", "--max-old-space-size=160", "--import", "tsx", "--conditions=@intake/source", script, "40", "8000000"];
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.once("exit", (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.code, `the child died:\n${quoted(run.stderr.slice(-2000))}`).toBe(0);
    const { before, after, statuses } = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
      before: number;
      after: number;
      statuses: number[];
    };
    expect(statuses).toEqual(Array(40).fill(400));
    // Not even one body: what grows is the journal's and the feed's small entries.
    expect(after - before).toBeLessThan(2 * 2 ** 20);
  }, 60_000);
});
