// The receiver on http://127.0.0.1:3002/intake/recharge:
//   INTAKE_BASE_URL=https://… INTAKE_API_KEY=<agency key> INTAKE_WEBHOOK_SECRET=whsec_… \
//   npm start -w @intake/example-agency-auto-recharge
import { createServer } from "node:http";
import { createIntakeClient } from "@intake/client";
import { fakePayments } from "./payments.js";
import { createRechargeReceiver } from "./recharge.js";
import { RechargeLog } from "./recharge-log.js";

const secret = process.env.INTAKE_WEBHOOK_SECRET;
if (!secret) {
  console.error("Set INTAKE_BASE_URL, INTAKE_API_KEY (the agency's) and INTAKE_WEBHOOK_SECRET.");
  process.exit(2);
}
const receiver = createRechargeReceiver({
  intake: createIntakeClient({ auth: "header" }), // the key and base URL come from the environment
  webhookSecret: secret,
  log: await RechargeLog.open(process.env.RECHARGE_LOG ?? "recharges.json"),
  payments: fakePayments(), // replace with your payment provider
  centsPerCredit: Number(process.env.CENTS_PER_CREDIT ?? 2),
});
// Recharges charged but not granted (Intake refused, or this receiver was down past Intake's
// retries) are finished at start and every five minutes; what still fails is said every time.
async function resume() {
  const { granted, failed } = await receiver.resumePending();
  for (const outcome of granted) console.log(`Resumed: ${JSON.stringify(outcome)}`);
  for (const { idempotencyKey, error } of failed) console.error(`Charged but not granted, ${idempotencyKey}: ${(error as Error).message}`);
}
await resume();
setInterval(() => void resume(), 5 * 60 * 1000).unref();

const port = Number(process.env.PORT ?? 3002);
createServer((req, res) => void receiver.handle(req, res)).listen(port, "127.0.0.1", () =>
  console.log(`Auto-recharge webhooks: POST http://127.0.0.1:${port}/intake/recharge`),
);
