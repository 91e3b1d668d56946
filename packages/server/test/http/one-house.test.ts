// What the server's house promises of itself (DESIGN.md): one front door with one HTTPS rule for
// every part of the service, one event stream that every subscriber hears in the order things
// happened, and the admin API in code as the same typed client a test gets over HTTPS.
import { createIntake, type DomainEvent, type Envelope } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type HttpsHarness } from "../support/harness.js";
import { KEYS, SEED } from "../support/seed.js";

let harness: HttpsHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const receive = (sid: string, fromId = "u-1") =>
  new Request(`https://intake.test/v1/incoming_custom_channel_message?apiKey=${KEYS.acme}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ customData: { messageSid: sid, fromId, toId: "acme", body: "Hello" } }),
  });

describe("one HTTPS rule", () => {
  // Plain HTTP on the server's port, as a TLS-terminating proxy forwards it.
  const plain = (path: string, headers: Record<string, string> = {}) =>
    harness!.fetch(`${harness!.origin.replace("https://", "http://")}${path}`, { headers, redirect: "manual" });

  it("believes X-Forwarded-Proto, whatever its case, for the API, the admin API and the dashboard alike, once trusted", async () => {
    harness = await startHarness({ trustForwardedProto: true });
    for (const proto of ["https", "HTTPS", "Https, http"]) {
      const headers = { "x-forwarded-proto": proto };
      expect((await plain(`/v1/contacts?apiKey=${KEYS.acme}&email=nobody%40example.com`, headers)).status, proto).toBe(404);
      expect((await plain("/__admin/accounts", headers)).status, proto).toBe(401);
      const page = await plain("/__dashboard/", headers);
      expect(page.status, proto).toBe(200);
      expect(await page.text()).toContain("<html");
    }
  });

  it("refuses plain HTTP to /v1 from anywhere, and to every part when a proxy relayed it untrusted, in each part's words", async () => {
    harness = await startHarness();
    const api = await plain(`/v1/contacts?apiKey=${KEYS.acme}&email=nobody%40example.com`);
    expect(api.status).toBe(400);
    expect((await api.json()).error).toMatchObject({
      code: "HTTPS_REQUIRED",
      message: expect.stringContaining("The API accepts HTTPS only"),
    });
    const headers = { "x-forwarded-proto": "https" };
    const admin = await plain("/__admin/accounts", headers);
    expect((await admin.json()).error).toMatchObject({ code: "HTTPS_REQUIRED" });
    const dashboard = await plain("/__dashboard/", headers);
    expect(dashboard.status).toBe(400);
    expect(await dashboard.text()).toContain("The dashboard is served over HTTPS: https://");
    await harness.close();
    harness = await startHarness({ trustForwardedProto: true });
    expect((await plain("/__admin/accounts", { "x-forwarded-proto": "http" })).status).toBe(400);
  });

  it("numbers every answer of every part of the service", async () => {
    harness = await startHarness();
    const paths = ["/v1/contacts", "/__admin/accounts", "/__dashboard/", "/elsewhere"];
    const ids = await Promise.all(
      paths.map(async (path) => (await harness!.fetch(`${harness!.origin}${path}`)).headers.get("x-request-id")),
    );
    expect(ids.every((id) => /^req_/.test(id ?? ""))).toBe(true);
    expect(new Set(ids).size).toBe(paths.length);
  });
});

describe("one event stream", () => {
  it("gives every subscriber the events in the order they happened, whoever subscribed first", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0 });
    const seen: string[] = [];
    intake.events.subscribe((event) => seen.push(event.type));
    expect((await intake.fetch(receive("SM-1"))).status).toBe(200);
    await intake.admin.settle();
    // The contact first, then the message, then what the engine did about it (the seed's campaign is a Draft).
    expect(seen.filter((type) => type !== "request.answered")).toEqual(["contact.created", "message.received", "bot.outcome"]);
    expect(seen.indexOf("request.answered")).toBeGreaterThan(seen.indexOf("bot.outcome"));
    await intake.close();
  });

  it("numbers its events, times them on the server's clock, and carries the records each change wrote", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0, clock: "virtual" });
    const events: Array<{ event: DomainEvent; envelope: Envelope }> = [];
    intake.events.subscribe((event, envelope) => events.push({ event, envelope }));
    await intake.fetch(receive("SM-2", "u-2"));
    const received = events.find(({ event }) => event.type === "message.received");
    expect(received?.envelope).toMatchObject({ at: intake.clock.now(), changes: [{ kind: "message", record: { messageSid: "SM-2" } }] });
    const numbers = events.map(({ envelope }) => envelope.seq);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    await intake.close();
  });

  it("hears a reset as the whole state replaced, after which the journal starts afresh", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0 });
    await intake.fetch(receive("SM-3"));
    const replaced: string[] = [];
    intake.events.on(["state.replaced"], (event) => replaced.push(event.cause));
    await intake.admin.reset();
    expect(replaced).toEqual(["reset"]);
    expect(await intake.admin.journal()).toEqual([]);
    expect((await intake.admin.contacts({ accountId: "acc_acme" })).map((c) => c.fromId)).toEqual([]);
    await intake.close();
  });
});

describe("the admin API in code", () => {
  it("is the typed client a test gets over HTTPS, answered in process: reads, changes and the live events", async () => {
    const intake = createIntake({ seed: SEED, rateLimit: 0 });
    const live = await intake.admin.events({ accountId: "acc_acme" });
    await intake.fetch(receive("SM-4"));
    const [contact] = await intake.admin.contacts({ accountId: "acc_acme" });
    expect(contact).toMatchObject({ fromId: "u-1" });
    expect(await intake.admin.setBotPaused(contact!.id, true)).toMatchObject({ botPaused: true });
    const types: string[] = [];
    for await (const { event } of live) {
      types.push(event.type);
      if (event.type === "message.received") break;
    }
    expect(types).toEqual(["contact.created", "message.received"]);
    await expect(intake.admin.account("acc_nobody")).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
    await intake.close();
  });
});
