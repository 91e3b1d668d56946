import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIntakeClient } from "@intake/client";
import { startIntakeServer, type IntakeTestServer } from "@intake/server/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakePayments } from "../src/payments.js";
import { createRechargeReceiver, grantRequest } from "../src/recharge.js";
import { RechargeLog } from "../src/recharge-log.js";

const AGENCY_KEY = "ik_example_agency_auto_recharge_1";
const SECRET = `whsec_${Buffer.from("example agency recharge secret").toString("base64")}`;
const subaccounts = ["one", "two", "three", "four", "five", "six"].map((name) => ({
  id: `sub_${name}`,
  name: `Client ${name}`,
  email: `${name}@clients.example`,
  credits: 12,
  autoRecharge: { threshold: 10, amount: 100 },
}));

let intake: IntakeTestServer;
let server: Server;
let directory: string;
// The webhook address stays; each test puts its own receiver behind it.
let current: (req: IncomingMessage, res: ServerResponse) => Promise<void>;

beforeAll(async () => {
  intake = await startIntakeServer({
    duplicateRechargeWebhooks: true,
    webhooks: { initialDelayMs: 20, jitter: 0 },
    seed: { accounts: [{ id: "acc_agency", kind: "agency", name: "Agency", apiKey: AGENCY_KEY, webhookSecret: SECRET, subaccounts }] },
  });
  server = createServer((req, res) => void current(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  await intake.admin.updateAccount("acc_agency", {
    autoRechargeUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/intake/recharge`,
  });
  directory = await mkdtemp(join(tmpdir(), "recharge-test-"));
});
afterAll(async () => {
  server?.close();
  await intake?.stop();
});

async function receiverAt(logPath: string, payments = fakePayments()) {
  // Every call to the provider, de-duplicated by it or not: the receiver should make one per recharge.
  const charges: string[] = [];
  const receiver = createRechargeReceiver({
    intake: createIntakeClient({ auth: "header", apiKey: AGENCY_KEY, baseUrl: intake.baseUrl, fetch: intake.fetch }),
    webhookSecret: SECRET,
    log: await RechargeLog.open(logPath),
    payments: { charge: (input) => (charges.push(input.idempotencyKey), payments.charge(input)) },
    centsPerCredit: 2,
  });
  current = receiver.handle;
  return { receiver, payments, charges };
}

/** Spends credits so the sub-account falls below its threshold; resolves when both copies of the webhook are finished. */
async function spendBelowThreshold(subaccountId: string) {
  await intake.admin.adjustCredits(subaccountId, -5, "Messages sent");
  const mine = (d: { kind: string; payload: Record<string, unknown> }) =>
    d.kind === "auto_recharge" && d.payload.sub_account_id === subaccountId;
  await intake.admin.waitForDelivery((d) => mine(d) && !d.webhookId.includes("_dup"));
  await intake.admin.waitForDelivery((d) => mine(d) && d.webhookId.includes("_dup"));
  return (await intake.admin.deliveries({ kind: "auto_recharge" })).filter(mine);
}

const grantsFor = async (email: string) =>
  (await intake.admin.journal({ operationId: "grantSubaccountCredits" })).filter(
    (e) => (e.requestBody as { email?: string } | null)?.email === email,
  );
const credits = async (id: string) => (await intake.admin.account(id)).credits;

function signed(payload: object, id = String((payload as { idempotency_key: string }).idempotency_key)) {
  const body = JSON.stringify(payload);
  const at = new Date();
  return {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(SECRET).sign(id, at, body),
    },
  };
}
const postToReceiver = (body: string, headers: Record<string, string>) =>
  fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/intake/recharge`, { method: "POST", body, headers });

describe("the agency's auto-recharge receiver", () => {
  it("gets the same recharge twice and charges once and grants once", async () => {
    const { payments, charges } = await receiverAt(join(directory, "one.json"));
    const deliveries = await spendBelowThreshold("sub_one");
    expect(charges).toHaveLength(1);

    expect(deliveries.map((d) => [d.state, d.attempts.map((a) => a.status)])).toEqual([
      ["delivered", [200]],
      ["delivered", [200]],
    ]);
    expect(new Set(deliveries.map((d) => d.payload.idempotency_key)).size).toBe(1);
    expect([...payments.payments.values()]).toEqual([
      { paymentId: "pay_1", customerEmail: "one@clients.example", amountCents: 200, description: "100 messaging credits" },
    ]);
    expect((await grantsFor("one@clients.example")).map((e) => e.status)).toEqual([200]);
    expect(await credits("sub_one")).toBe(12 - 5 + 100);
  });

  it("remembers across a restart: a delivery of an old key after restarting grants nothing", async () => {
    const logPath = join(directory, "two.json");
    await receiverAt(logPath);
    const [delivery] = await spendBelowThreshold("sub_two");
    const key = String(delivery!.payload.idempotency_key);
    expect(JSON.parse(await readFile(logPath, "utf8")).recharges[key]).toMatchObject({
      step: "granted",
      creditsAdded: 100,
      newBalance: 107,
    });

    const restarted = await receiverAt(logPath); // a new process: a new provider, the same log file
    const again = signed(delivery!.payload);
    const response = await postToReceiver(again.body, again.headers);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ idempotencyKey: key, step: "granted", repeated: true });
    expect(restarted.charges).toEqual([]);
    expect(await grantsFor("two@clients.example")).toHaveLength(1);
    expect(await credits("sub_two")).toBe(107);
  });

  it("answers 502 when the grant fails, so Intake retries; the retry grants without charging again", async () => {
    const { payments, charges } = await receiverAt(join(directory, "three.json"));
    await intake.admin.clearJournal();
    await intake.admin.setFaults([{ operationId: "grantSubaccountCredits", status: 503, times: 1 }]);
    const deliveries = await spendBelowThreshold("sub_three");
    await intake.admin.clearFaults();

    expect(deliveries.every((d) => d.state === "delivered")).toBe(true);
    expect(deliveries.flatMap((d) => d.attempts.map((a) => a.status))).toContain(502);
    expect(payments.payments.size).toBe(1);
    expect(charges).toHaveLength(1);
    // The failed attempt never reached the grant (the fault answers first), so it has no body to match on.
    const grants = await intake.admin.journal({ operationId: "grantSubaccountCredits" });
    expect(grants.map((e) => [e.status, e.fault !== null])).toEqual([
      [503, true],
      [200, false],
    ]);
    expect(await credits("sub_three")).toBe(107);
  });

  it("after a crash between granting and recording it, the next delivery's grant is answered by Intake's Idempotency-Key: no second grant", async () => {
    const logPath = join(directory, "four.json");
    const payload = {
      idempotency_key: "rch_crash_test",
      sub_account_id: "sub_four",
      email: "four@clients.example",
      amount: 100,
      balance: 9,
      threshold: 10,
    };
    // The state a crash would leave: charged and granted, but only "charged" on disk.
    const log = await RechargeLog.open(logPath);
    await log.set(payload.idempotency_key, {
      step: "charged",
      paymentId: "pay_before_crash",
      request: payload,
      at: new Date().toISOString(),
    });
    const agency = createIntakeClient({ auth: "header", apiKey: AGENCY_KEY, baseUrl: intake.baseUrl, fetch: intake.fetch });
    await agency.subaccounts.grantCredits(grantRequest(payload, "pay_before_crash"), { idempotencyKey: payload.idempotency_key });

    const { charges } = await receiverAt(logPath);
    const delivery = signed(payload);
    const response = await postToReceiver(delivery.body, delivery.headers);
    expect(await response.json()).toMatchObject({ step: "granted", paymentId: "pay_before_crash", newBalance: 112, repeated: false });
    expect(charges).toEqual([]);
    expect(await credits("sub_four")).toBe(112);
  });

  it("records a declined card, grants nothing, and does not charge again on the duplicate", async () => {
    const logPath = join(directory, "five.json");
    const { payments, charges } = await receiverAt(logPath, fakePayments({ declined: ["five@clients.example"] }));
    const deliveries = await spendBelowThreshold("sub_five");
    expect(charges).toHaveLength(1);
    expect(deliveries.map((d) => d.state)).toEqual(["delivered", "delivered"]);
    expect(payments.payments.size).toBe(0);
    expect(await grantsFor("five@clients.example")).toEqual([]);
    const key = String(deliveries[0]!.payload.idempotency_key);
    expect(JSON.parse(await readFile(logPath, "utf8")).recharges[key]).toMatchObject({
      step: "declined",
      reason: "The card of five@clients.example was declined.",
    });
    expect(await credits("sub_five")).toBe(7);
  });

  it("answers 422 when Intake refuses the grant; the charge stays pending and resumePending grants it once the cause is fixed", async () => {
    const logPath = join(directory, "six.json");
    const { receiver, charges } = await receiverAt(logPath);
    const payload = {
      idempotency_key: "rch_unknown_email",
      sub_account_id: "sub_late",
      email: "late@clients.example",
      amount: 50,
      balance: 3,
      threshold: 10,
    };
    const delivery = signed(payload);
    const response = await postToReceiver(delivery.body, delivery.headers);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: string }).error).toMatch(/^Charged but not granted: /);
    expect(JSON.parse(await readFile(logPath, "utf8")).recharges.rch_unknown_email).toMatchObject({
      step: "charged",
      paymentId: "pay_1",
      request: payload,
    });

    // Still refused: it stays pending and is reported.
    const before = await receiver.resumePending();
    expect(before.granted).toEqual([]);
    expect(before.failed.map((f) => f.idempotencyKey)).toEqual(["rch_unknown_email"]);

    // The sub-account is set up; no new webhook comes (Intake gave up), the sweep finishes the recharge.
    await intake.admin.createSubaccount("acc_agency", { id: "sub_late", name: "Late", email: "late@clients.example", credits: 3 });
    const after = await receiver.resumePending();
    expect(after).toMatchObject({
      failed: [],
      granted: [{ idempotencyKey: "rch_unknown_email", step: "granted", creditsAdded: 50, newBalance: 53 }],
    });
    expect(await credits("sub_late")).toBe(53);
    expect(charges).toEqual(["rch_unknown_email"]);
    expect((await receiver.resumePending()).granted).toEqual([]);
  });

  it("refuses a webhook not signed with the agency's secret, and charges nothing", async () => {
    const { charges } = await receiverAt(join(directory, "seven.json"));
    const payload = {
      idempotency_key: "rch_forged",
      sub_account_id: "sub_six",
      email: "six@clients.example",
      amount: 100000,
      balance: 0,
      threshold: 10,
    };
    const genuine = signed(payload);
    const forged = {
      ...genuine.headers,
      "webhook-signature": new Webhook(`whsec_${Buffer.from("someone else").toString("base64")}`).sign(
        "rch_forged",
        new Date(),
        genuine.body,
      ),
    };
    const response = await postToReceiver(genuine.body, forged);
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: string }).error).toMatch(/signature does not verify/);
    expect((await postToReceiver(genuine.body.replace("100000", "200000"), genuine.headers)).status).toBe(401);
    expect(charges).toEqual([]);
    expect(await credits("sub_six")).toBe(12);
  });

  it("answers 400 to a reply webhook sent here by mistake, and to a body too large to be a webhook; charges nothing", async () => {
    const { charges } = await receiverAt(join(directory, "eight.json"));
    const body = JSON.stringify({ type: "custom_channel.reply", data: { messageId: "msg_1" } });
    const at = new Date();
    const reply = await postToReceiver(body, {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(SECRET).sign("msg_1", at, body),
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: string }).error).toMatch(/takes auto-recharge webhooks/);
    const huge = await postToReceiver("x".repeat(70 * 1024), {});
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: string }).error).toMatch(/larger than/);
    expect(charges).toEqual([]);
  });

  it("will not start on a log it cannot read, rather than forget every recharge", async () => {
    const logPath = join(directory, "corrupt.json");
    await writeFile(logPath, '{"version":1,"recharges":{"rch_1":');
    await expect(RechargeLog.open(logPath)).rejects.toThrow(/is not a recharge log .* Restore it from a backup/);
    await writeFile(logPath, '{"version":2,"recharges":{}}');
    await expect(RechargeLog.open(logPath)).rejects.toThrow(/has version 2; this receiver reads version 1/);
  });
});
