// A sub-account's balance falls below its threshold; Intake sends the auto-recharge webhook twice
// (on purpose); the receiver charges once and grants once:
//   npm run demo -w @intake/example-agency-auto-recharge
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIntakeClient } from "@intake/client";
import { DEMO_KEYS, DEMO_SEED, DEMO_WEBHOOK_SECRETS } from "@intake/server/node";
import { startIntakeServer } from "@intake/server/testing";
import { fakePayments } from "./payments.js";
import { createRechargeReceiver } from "./recharge.js";
import { RechargeLog } from "./recharge-log.js";

const intake = await startIntakeServer({ seed: DEMO_SEED, duplicateRechargeWebhooks: true });
const payments = fakePayments();
// The receiver's log's folder is the demo's own, removed when it ends.
const folder = await mkdtemp(join(tmpdir(), "recharge-demo-"));
const logPath = join(folder, "recharges.json");
const receiver = createRechargeReceiver({
  intake: createIntakeClient({ auth: "header", apiKey: DEMO_KEYS.agency, baseUrl: intake.baseUrl, fetch: intake.fetch }),
  webhookSecret: DEMO_WEBHOOK_SECRETS.agency,
  log: await RechargeLog.open(logPath),
  payments,
  centsPerCredit: 2,
});
const server = createServer((req, res) => void receiver.handle(req, res));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
try {
  await intake.admin.updateAccount("acc_agency", {
    autoRechargeUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/intake/recharge`,
  });
  console.log(`Client One has ${(await intake.admin.account("sub_client_one")).credits} credits; it recharges below 10.`);
  await intake.admin.adjustCredits("sub_client_one", -35, "Messages sent");
  await intake.admin.waitForDelivery((d) => d.kind === "auto_recharge" && d.webhookId.includes("_dup"));
  for (const d of await intake.admin.deliveries({ kind: "auto_recharge" })) {
    console.log(
      `Webhook ${d.webhookId} (idempotency_key ${String(d.payload.idempotency_key)}): ${d.state}, answered ${d.attempts.at(-1)?.status}`,
    );
  }
  console.log(
    `Payments taken: ${payments.payments.size}; Client One now has ${(await intake.admin.account("sub_client_one")).credits} credits.`,
  );
  console.log("The receiver's log keeps the key, so a later delivery of it grants nothing.");
} finally {
  server.close();
  await intake.stop();
  await rm(folder, { recursive: true, force: true });
}
