// The journal: its size, what it keeps of a body and of a key, and its storage under a mix of
// sizes and scripts.
import { createIntake } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, raw, startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS, SEED } from "../support/seed.js";
import { post } from "../support/in-process.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the journal", () => {
  it("keeps only the most recent entries", async () => {
    harness = await startHarness({ journalSize: 3 });
    const acme = client(httpsTarget(harness), "query", KEYS.acme);
    for (let i = 0; i < 5; i++) await acme.contacts.create({ phone: `+1415555010${i}` });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ requestBody: { phone: string } }>;
    expect(journal.map((e) => e.requestBody.phone)).toEqual(["+14155550102", "+14155550103", "+14155550104"]);
  });

  it("redacts a key wherever it was sent: under apiKey, under a misspelt or other name, in a body", async () => {
    // A key of a seed's own choosing (not the ik_ shape the service makes) is known as a key all the same.
    const key = "acme-live-secret-2026";
    harness = await startHarness({
      seed: { ...SEED, accounts: SEED.accounts!.map((a) => (a.apiKey === KEYS.acme ? { ...a, apiKey: key } : a)) },
    });
    const names = ["apiKey", "apikey", "api_key", "API-KEY", "key", "token", "access_token", "api_token", "apiKey[]", "client_secret", "k"];
    for (const name of names) {
      expect((await raw(httpsTarget(harness), `/contacts?${encodeURIComponent(name)}=${key}&email=a%40example.com`)).status, name).toBe(
        name === "apiKey" ? 404 : 401,
      );
    }
    // A key of the shape the service makes, not (or no longer) an account's.
    await raw(httpsTarget(harness), "/contacts?q=ik_0123456789abcdefghijKLMNOP&email=a%40example.com");
    const body = JSON.stringify({ phone: "+14155550123", customFields: { note: key } });
    await raw(httpsTarget(harness), `/contacts?apiKey=${key}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ query: Record<string, string>; requestBody: unknown }>;
    expect(journal).toHaveLength(names.length + 2);
    for (const entry of journal.slice(0, -1)) expect(Object.values(entry.query)).toEqual(["[REDACTED]", "a@example.com"]);
    expect(journal.at(-1)!.requestBody).toEqual({ phone: "+14155550123", customFields: { note: "[REDACTED]" } });
    expect(JSON.stringify(journal)).not.toContain(key);
  });

  it("redacts a key the service made after it stopped being an account's: by its shape, in a query or a body", async () => {
    harness = await startHarness();
    const generate = async () => ((await harness!.admin("POST", "/accounts/acc_acme/api-key")).body as { apiKey: string }).apiKey;
    const old = await generate();
    const current = await generate();
    expect(old).not.toBe(current);
    const acme = client(httpsTarget(harness), "query", current);
    await raw(httpsTarget(harness), `/contacts?q=${old}&email=a%40example.com`);
    await acme.contacts.create({ phone: "+14155550123", customFields: { note: old } });
    const journal = JSON.stringify((await harness.admin("GET", "/journal")).body);
    expect(journal).not.toContain(old);
    // q; then the create's apiKey and its note, sent and answered.
    expect(journal.match(/\[REDACTED\]/g)).toHaveLength(4);
  });

  it("keeps a note of a body over 65,536 characters rather than the body", async () => {
    harness = await startHarness();
    const acme = client(httpsTarget(harness), "query", KEYS.acme);
    // Refused (a name that long is not valid), and journaled all the same.
    const huge = await raw(httpsTarget(harness), `/contacts?apiKey=${KEYS.acme}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone: "+14155550111", firstName: "n".repeat(70_000) }),
    });
    expect(huge.status).toBe(400);
    await acme.contacts.create({ phone: "+14155550112", firstName: "Short" });
    const journal = (await harness.admin("GET", "/journal")).body as Array<{ requestBody: unknown }>;
    expect(journal[0]!.requestBody).toEqual({ truncated: true, characters: expect.any(Number) });
    expect((journal[0]!.requestBody as { characters: number }).characters).toBeGreaterThan(70_000);
    expect(journal[1]!.requestBody).toMatchObject({ phone: "+14155550112" });
  });
});

describe("the journal's storage", () => {
  it("gives back every kept entry whole, in order, however sizes and scripts mix as old ones make way", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0, journalSize: 40 });
    const size = (i: number) => (i * 7919) % 20_000;
    const names = Array.from({ length: 300 }, (_, i) => ["Zoë", "名".repeat(size(i)), "🙂".repeat(i % 7), "x".repeat(size(i))][i % 4]! + i);
    const sent = names.map((firstName, i) => ({ phone: `+1415555${String(i).padStart(4, "0")}`, firstName }));
    const answers = [];
    for (const body of sent) {
      const response = await post(intake, JSON.stringify(body));
      answers.push({ status: response.status, body: await response.json() });
    }
    const journal = await intake.admin.journal();
    expect(journal.map((e) => e.requestBody)).toEqual(sent.slice(-40));
    expect(journal.map((e) => ({ status: e.status, body: e.responseBody }))).toEqual(answers.slice(-40));
    expect(new Set(answers.slice(-40).map((a) => a.status))).toEqual(new Set([201, 400]));
    expect(journal.every((e) => e.path === "/v1/contacts" && e.query.apiKey === "[REDACTED]" && e.operationId === "createContact")).toBe(
      true,
    );
    await intake.close();
  });

  it("matches a plain list of the last N requests after every request of a random mix (sizes, scripts, clears)", async () => {
    let state = 7;
    const random = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ["a", "é", "名", "🙂", "\ufeff", '"', "\n"];
    for (const journalSize of [1, 2, 3, 7]) {
      const intake = createIntake({ seed: SEED, rateLimit: 0, journalSize });
      let kept: unknown[] = [];
      for (let i = 0; i < 160; i++) {
        if (random() < 0.02) {
          await intake.admin.clearJournal();
          kept = [];
        }
        const length = random() < 0.15 ? Math.floor(random() * 20_000) : Math.floor(random() * 300);
        const piece = pieces[Math.floor(random() * pieces.length)]!;
        const body = { phone: `+1415557${String(i).padStart(4, "0")}`, firstName: piece.repeat(length) + i };
        await post(intake, JSON.stringify(body));
        kept = [...kept, body].slice(-journalSize);
        expect((await intake.admin.journal()).map((e) => e.requestBody)).toEqual(kept);
      }
      await intake.close();
    }
  });

  it("takes a whole number of entries, 0 or more", async () => {
    for (const journalSize of [2.5, -1, Number.NaN])
      expect(() => createIntake({ journalSize })).toThrow(`journalSize must be a whole number, 0 or more (got ${journalSize}).`);
    const off = createIntake({ seed: SEED, rateLimit: 0, journalSize: 0 });
    expect((await post(off, '{"phone":"+14155550100"}')).status).toBe(201);
    expect(await off.admin.journal()).toEqual([]);
    await off.close();
  });

  it("keeps thousands of entries in order, and starts afresh when cleared", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0, journalSize: 3000 });
    for (let i = 0; i < 2500; i++) await post(intake, JSON.stringify({ phone: `+1415556${String(i).padStart(4, "0")}` }));
    const journal = await intake.admin.journal();
    expect(journal).toHaveLength(2500);
    expect(journal.map((e) => (e.requestBody as { phone: string }).phone)).toEqual(
      Array.from({ length: 2500 }, (_, i) => `+1415556${String(i).padStart(4, "0")}`),
    );
    await intake.admin.clearJournal();
    expect(await intake.admin.journal()).toEqual([]);
    await post(intake, "{not json");
    expect(await intake.admin.journal()).toMatchObject([{ status: 400, requestBody: null, errorCode: expect.any(String) }]);
    await intake.close();
  });
});
