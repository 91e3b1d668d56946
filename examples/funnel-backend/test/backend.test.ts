import { access, mkdtemp, readFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIntakeClient } from "@intake/client";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackend, type LeadResult } from "../src/backend.js";
import { ManualTimers } from "../src/timers.js";

const KEY = "ik_example_funnel_backend_001";
let server: IntakeTestServer;

beforeAll(async () => {
  server = await startIntakeServer({
    clock: "virtual",
    seed: {
      accounts: [
        {
          id: "acc_gym",
          name: "Acme Fitness",
          apiKey: KEY,
          credits: 10,
          campaigns: [
            {
              id: "cmp_spring",
              name: "Spring",
              state: "Live",
              triggerOnNewListContacts: true,
              openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
            },
          ],
          lists: [{ id: "lst_spring", name: "Spring leads", campaignId: "cmp_spring" }],
        },
      ],
    },
  });
});
afterAll(() => server.stop());

/** A backend against the test server; `maxRetries` for the client it uses (its default otherwise). */
async function backend(maxRetries?: number) {
  const timers = new ManualTimers(Date.parse("2026-03-02T09:00:00.000Z"));
  const consentLog = join(await mkdtemp(join(tmpdir(), "intake-backend-")), "consent.jsonl");
  const results: LeadResult[] = [];
  const waiting: Array<() => void> = [];
  const instance = createBackend({
    intake: createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: server.baseUrl, fetch: server.fetch, maxRetries }),
    listId: "lst_spring",
    consentLog,
    timers,
    onDone: (r) => {
      results.push(r);
      for (const wake of waiting.splice(0)) wake();
    },
  });
  /** Resolves once `count` leads are done (a lead that never is fails the test on its timeout). */
  const done = async (count: number) => {
    while (results.length < count) await new Promise<void>((wake) => waiting.push(wake));
  };
  return { instance, timers, consentLog, results, done };
}

describe("the landing page's backend", () => {
  it("records consent, waits 15 minutes, then creates the contact with its consent and adds it to the list", async () => {
    const { instance, timers, consentLog, results, done } = await backend();
    const { scheduledFor } = await instance.submit(
      { phone: "+14155550177", firstName: "Linus", consent: true, consentText: "I agree." },
      "203.0.113.7",
    );
    expect(scheduledFor).toBe("2026-03-02T09:15:00.000Z");
    expect(JSON.parse(await readFile(consentLog, "utf8"))).toEqual({
      phone: "+14155550177",
      email: null,
      text: "I agree.",
      at: "2026-03-02T09:00:00.000Z",
      from: "203.0.113.7",
    });

    timers.advance(15 * 60 * 1000 - 1);
    expect(await server.admin.journal({ operationId: "createContact" })).toEqual([]);
    timers.advance(1);
    await done(1);
    expect(results[0]).toMatchObject({ outcome: "added_to_funnel" });
    const contactId = (results[0] as { contactId: string }).contactId;
    await server.admin.settle();
    const { contact, listIds, messages } = await server.admin.contact(contactId);
    expect(contact.customFields).toEqual({ consent: true, consentAt: "2026-03-02T09:00:00.000Z", source: "landing-page" });
    expect(listIds).toEqual(["lst_spring"]);
    expect(messages.map((m) => [m.source, m.body])).toEqual([["opening", "Hi Linus!"]]);
    const journal = await server.admin.journal({ operationId: "createContact" });
    expect(journal.map((e) => e.authForm)).toEqual(["query"]);
  });

  it("leaves a lead who wrote in during the wait in its conversation: no funnel list, no opening template; consent stays in the log", async () => {
    const { instance, timers, consentLog, results, done } = await backend();
    await instance.submit({ phone: "+14155550188", firstName: "Ada", consent: true, consentText: "I agree." }, "203.0.113.8");
    // Five minutes later the lead writes to the business first (here on a custom channel whose sender id is the phone).
    timers.advance(5 * 60 * 1000);
    const channel = createIntakeClient({ auth: "query", apiKey: KEY, baseUrl: server.baseUrl, fetch: server.fetch });
    const inbound = await channel.messages.receive({
      customData: { messageSid: "SM-ada-1", fromId: "+14155550188", toId: "acme", body: "Hi, is the spring offer still on?" },
    });
    timers.advance(10 * 60 * 1000);
    await done(1);

    const written = await server.admin.message(inbound.messageId);
    expect(results[0]).toEqual({ phone: "+14155550188", outcome: "already_known", contactId: written.contactId });
    await server.admin.settle();
    const { listIds, messages } = await server.admin.contact(written.contactId);
    expect(listIds).toEqual([]);
    expect(messages.filter((m) => m.source === "opening")).toEqual([]);
    const creates = await server.admin.journal({ operationId: "createContact" });
    expect(creates.filter((e) => (e.requestBody as { phone?: string }).phone === "+14155550188")).toEqual([]);
    expect(JSON.parse(await readFile(consentLog, "utf8"))).toMatchObject({ phone: "+14155550188", text: "I agree." });
  });

  it("reports a lead Intake refused as failed, with the error, and keeps its consent", async () => {
    // No retries: the client's backoff would make the test wait in real time.
    const { instance, timers, consentLog, results, done } = await backend(0);
    await server.admin.setFaults([{ operationId: "createContact", status: 503 }]);
    try {
      await instance.submit({ phone: "+14155550199", firstName: "Grace", consent: true, consentText: "I agree." }, "203.0.113.9");
      timers.advance(15 * 60 * 1000);
      await done(1);
    } finally {
      await server.admin.setFaults([]);
    }
    expect(results[0]).toMatchObject({ phone: "+14155550199", outcome: "failed", error: { status: 503 } });
    const attempts = await server.admin.journal({ operationId: "createContact" });
    // The fault answers before the body is read, so the attempts are the faulted entries: one.
    expect(attempts.filter((e) => e.fault !== null).map((e) => e.status)).toEqual([503]);
    expect(JSON.parse(await readFile(consentLog, "utf8"))).toMatchObject({ phone: "+14155550199" });
  });

  it("refuses a phone without its country code while the lead is still on the page", async () => {
    const { instance, consentLog } = await backend();
    await expect(instance.submit({ phone: "415 555 0100", firstName: "Cy", consent: true, consentText: "I agree." }, "x")).rejects.toThrow(
      "phone must include the country code, starting with +.",
    );
    await expect(access(consentLog)).rejects.toThrow(/ENOENT/);
  });

  it("over HTTP: 202 with the schedule for a form (a character split across chunks stays whole), 422 for a refused one, 400 for a non-JSON body, 413 past 16 KiB, 404 elsewhere", async () => {
    const { instance, consentLog } = await backend();
    const http = createServer((req, res) => void instance.handle(req, res));
    // Resolved when the first bytes reach the server's socket (a listener beside the parser's,
    // taking nothing from it): the rest of the body is sent only after.
    let firstPart!: () => void;
    const firstPartArrived = new Promise<void>((resolve) => (firstPart = resolve));
    http.once("connection", (socket) => socket.once("data", () => firstPart()));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const form = Buffer.from(
        JSON.stringify({ phone: "+14155550166", firstName: "Zoe", consent: true, consentText: "Oui, Zoë accepte." }),
      );
      const split = form.indexOf(Buffer.from("ë")) + 1; // between the two bytes of ë
      const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${url}/leads`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
          let text = "";
          res.on("data", (c) => (text += c)).on("end", () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on("error", reject);
        req.write(form.subarray(0, split));
        void firstPartArrived.then(() => req.end(form.subarray(split)));
      });
      expect(response.status).toBe(202);
      expect(JSON.parse(response.body)).toEqual({ scheduledFor: "2026-03-02T09:15:00.000Z" });
      expect(JSON.parse(await readFile(consentLog, "utf8"))).toMatchObject({ phone: "+14155550166", text: "Oui, Zoë accepte." });
      const post = (body: string) => fetch(`${url}/leads`, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect((await post(JSON.stringify({ phone: "+14155550167", firstName: "Al", consent: false, consentText: "" }))).status).toBe(422);
      expect((await post("{not json")).status).toBe(400);
      expect((await post(JSON.stringify({ note: "x".repeat(17 * 1024) }))).status).toBe(413);
      expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("without consent nothing is recorded or sent", async () => {
    const { instance, timers, consentLog, results } = await backend();
    await expect(instance.submit({ phone: "+14155550199", firstName: "Bob", consent: false, consentText: "" }, "x")).rejects.toThrow(
      "did not agree",
    );
    timers.advance(60 * 60 * 1000);
    expect(results).toEqual([]);
    await expect(access(consentLog)).rejects.toThrow(/ENOENT/);
    expect((await server.admin.contacts({ accountId: "acc_gym" })).filter((c) => c.phone === "+14155550199")).toEqual([]);
  });
});
