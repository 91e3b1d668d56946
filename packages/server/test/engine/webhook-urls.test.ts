// Where webhooks may go: https:// URLs, and http:// ones to a loopback host (or to any host with
// allowHttpWebhooks), set through the admin API over HTTPS: PATCH, account and sub-account
// creation, seeds, snapshots. Other schemes are refused.
import { createIntake } from "@intake/server";
import { afterEach, describe, expect, it } from "vitest";
import { client, httpsTarget, startHarness, type HttpsHarness } from "../support/harness.js";
import { startReceiver, type Receiver } from "../support/receiver.js";
import { KEYS } from "../support/seed.js";

let harness: HttpsHarness | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await harness?.close();
  await receiver?.close();
  harness = receiver = undefined;
});

const RULE =
  "Webhooks go to https:// URLs, or to this server's own inbox, /__inbox/<accountId>; http:// is accepted for localhost, 127.0.0.0/8 and [::1], and for any host when the server runs with --allow-http-webhooks (allowHttpWebhooks in code).";
const REFUSED: Array<[string, string]> = [
  ["file:///etc/passwd", `uses the file: scheme. ${RULE}`],
  ["data:text/plain,hello", `uses the data: scheme. ${RULE}`],
  ["javascript:alert(1)", `uses the javascript: scheme. ${RULE}`],
  ["ftp://files.example.com/hooks", `uses the ftp: scheme. ${RULE}`],
  ["http://hooks.example.com/intake", `is plain http:// to hooks.example.com, which is not a loopback host. ${RULE}`],
  ["http://10.0.0.5:8080/intake", `is plain http:// to 10.0.0.5, which is not a loopback host. ${RULE}`],
  [
    "https://user:secret@hooks.example.com/intake",
    "carries a user name or password, which a webhook request cannot send; put the receiver's credentials elsewhere (the webhook is signed).",
  ],
  ["/hooks/intake", `is a path other than this server's own inbox (/__inbox/<accountId>, an account id after it). ${RULE}`],
  ["/__inbox/acc_acme/extra", `is a path other than this server's own inbox (/__inbox/<accountId>, an account id after it). ${RULE}`],
  ["__inbox/acc_acme", `is not an absolute URL. ${RULE}`],
];
const ACCEPTED = [
  "https://hooks.example.com/intake",
  "https://10.0.0.5:8443/intake",
  "http://127.0.0.1:3001/intake/webhook",
  "http://127.45.6.7/hooks",
  "http://localhost:3002/intake/recharge",
  "http://[::1]:3001/hooks",
  // The server's own webhook inbox, as a path: stored as written.
  "/__inbox/acc_acme",
];

describe("webhook URLs set through the admin API", () => {
  it("PATCH /accounts/{id}: webhookUrl and autoRechargeUrl of another scheme, or plain http to another host, are 400 saying what is accepted; nothing changes", async () => {
    harness = await startHarness();
    for (const [field, id] of [
      ["webhookUrl", "acc_acme"],
      ["autoRechargeUrl", "acc_agency"],
    ] as const) {
      for (const [url, problem] of REFUSED) {
        const answer = await harness.admin("PATCH", `/accounts/${id}`, { [field]: url, name: "Renamed" });
        expect(answer, `${field} ${url}`).toMatchObject({
          status: 400,
          body: { error: { code: "VALIDATION_ERROR", message: `${field} ${problem}` } },
        });
      }
      expect((await harness.admin("GET", `/accounts/${id}`)).body).toMatchObject({
        [field]: null,
        name: id === "acc_acme" ? "Acme" : "Northwind",
      });
      for (const url of ACCEPTED) {
        expect((await harness.admin("PATCH", `/accounts/${id}`, { [field]: url })).body, url).toMatchObject({ [field]: url });
      }
      expect((await harness.admin("PATCH", `/accounts/${id}`, { [field]: null })).body).toMatchObject({ [field]: null });
    }
  });

  it("POST /accounts and POST /accounts/{id}/subaccounts refuse them too, and create nothing", async () => {
    harness = await startHarness();
    const before = (await harness.admin("GET", "/accounts")).body.length;
    expect(await harness.admin("POST", "/accounts", { name: "Initech", webhookUrl: "data:text/plain,hello" })).toMatchObject({
      status: 400,
      body: { error: { message: `webhookUrl uses the data: scheme. ${RULE}` } },
    });
    expect(
      await harness.admin("POST", "/accounts", { name: "Initech", kind: "agency", autoRechargeUrl: "ftp://files.example.com/x" }),
    ).toMatchObject({
      status: 400,
      body: { error: { message: `autoRechargeUrl uses the ftp: scheme. ${RULE}` } },
    });
    expect(
      await harness.admin("POST", "/accounts/acc_agency/subaccounts", {
        email: "three@northwind.example",
        webhookUrl: "file:///tmp/replies",
      }),
    ).toMatchObject({
      status: 400,
      body: { error: { message: `webhookUrl uses the file: scheme. ${RULE}` } },
    });
    expect((await harness.admin("GET", "/accounts")).body).toHaveLength(before);
    expect(await harness.admin("POST", "/accounts", { name: "Initech", webhookUrl: "https://hooks.initech.example/intake" })).toMatchObject(
      { status: 201 },
    );
  });

  it("a seed (POST /seed, POST /reset, createIntake's seed) names the account whose URL is refused, and applies nothing", async () => {
    harness = await startHarness();
    const seed = {
      accounts: [
        { id: "acc_fine", name: "Fine", webhookUrl: "https://hooks.fine.example/intake" },
        {
          id: "acc_bad",
          name: "Bad",
          kind: "agency",
          subaccounts: [{ id: "sub_bad", email: "bad@example.com", webhookUrl: "javascript:alert(1)" }],
        },
      ],
    };
    const message = `Seed account sub_bad: webhookUrl uses the javascript: scheme. ${RULE}`;
    for (const path of ["/seed", "/reset"]) {
      expect(await harness.admin("POST", path, seed), path).toMatchObject({
        status: 400,
        body: { error: { code: "VALIDATION_ERROR", message } },
      });
      expect((await harness.admin("GET", "/accounts/acc_fine")).status).toBe(404);
      expect((await harness.admin("GET", "/accounts/acc_acme")).status).toBe(200);
    }
    await expect(startHarness({ seed: seed as never })).rejects.toThrow(message);
  });

  it("allowHttpWebhooks accepts plain http:// to any host, and still refuses other schemes", async () => {
    harness = await startHarness({ allowHttpWebhooks: true });
    expect((await harness.admin("PATCH", "/accounts/acc_acme", { webhookUrl: "http://hooks.example.com/intake" })).body).toMatchObject({
      webhookUrl: "http://hooks.example.com/intake",
    });
    expect((await harness.admin("PATCH", "/accounts/acc_acme", { webhookUrl: "data:text/plain,hello" })).status).toBe(400);
  });
});

describe("webhook delivery", () => {
  /** A custom-channel contact of acme's, and a reply typed in the app to it (delivered by webhook). */
  async function reply(h: HttpsHarness) {
    const { messageId } = await client(httpsTarget(h), "query", KEYS.acme).messages.receive({
      customData: { messageSid: "SM-1", fromId: "user-1", toId: "t", body: "hi" },
    });
    const { contactId } = (await h.admin("GET", `/messages/${messageId}`)).body;
    const typed = await h.admin("POST", `/contacts/${contactId}/replies`, { body: "Hello from Acme." });
    await h.admin("POST", "/settle");
    return (await h.admin("GET", `/messages/${typed.body.id}`)).body;
  }

  it("goes to an http:// receiver on 127.0.0.1", async () => {
    receiver = await startReceiver();
    harness = await startHarness();
    await harness.admin("PATCH", "/accounts/acc_acme", { webhookUrl: receiver.url });
    expect(await reply(harness)).toMatchObject({ status: "sent", error: null });
    expect(receiver.received.map((r) => r.json.body)).toEqual(["Hello from Acme."]);
  });

  it("a snapshot cannot bring one in: PUT /__admin/snapshot and createIntake's snapshot refuse it, naming the record; allowHttpWebhooks is respected", async () => {
    harness = await startHarness();
    const snapshot = (await harness.admin("GET", "/snapshot")).body;
    const acme = snapshot.records.account.findIndex((account: { id: string }) => account.id === "acc_acme");
    const withUrl = (url: string) => {
      const edited = structuredClone(snapshot);
      edited.records.account[acme].webhookUrl = url;
      return edited;
    };
    const refused = `records.account[${acme}].webhookUrl is plain http:// to hooks.example.com, which is not a loopback host. ${RULE}`;
    expect(await harness.admin("PUT", "/snapshot", withUrl("http://hooks.example.com/intake"))).toMatchObject({
      status: 400,
      body: { error: { code: "VALIDATION_ERROR", message: `${refused} Nothing was changed.` } },
    });
    expect((await harness.admin("GET", "/accounts/acc_acme")).body.webhookUrl).toBeNull();
    expect(() => createIntake({ snapshot: withUrl("http://hooks.example.com/intake") })).toThrow(refused);
    expect(() => createIntake({ snapshot: withUrl("data:text/plain,hello") })).toThrow(
      `records.account[${acme}].webhookUrl uses the data: scheme. ${RULE}`,
    );
    await harness.close();

    harness = await startHarness({ allowHttpWebhooks: true, snapshot: withUrl("http://hooks.example.com/intake") });
    expect((await harness.admin("GET", "/accounts/acc_acme")).body.webhookUrl).toBe("http://hooks.example.com/intake");
    expect((await harness.admin("PUT", "/snapshot", withUrl("file:///etc/passwd"))).status).toBe(400);
  });
});
