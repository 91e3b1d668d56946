// A user on a chat platform asks a question with a photo; the bot's answer comes back to them:
//   npm run demo -w @intake/example-custom-channel-bridge
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createIntakeClient } from "@intake/client";
import { DEMO_KEYS, DEMO_SEED, DEMO_WEBHOOK_SECRETS } from "@intake/server/node";
import { startIntakeServer } from "@intake/server/testing";
import { createBridge } from "./bridge.js";
import { memoryPlatform, TINY_PNG } from "./platform.js";

const intake = await startIntakeServer({ seed: DEMO_SEED });
const platform = memoryPlatform({ att_1: { bytes: TINY_PNG, contentType: "image/png" } });
const bridge = createBridge({
  intake: createIntakeClient({ auth: "query", apiKey: DEMO_KEYS.business, baseUrl: intake.baseUrl, fetch: intake.fetch }),
  webhookSecret: DEMO_WEBHOOK_SECRETS.business,
  platform,
  businessId: "acme-fitness",
  channel: "demo-chat",
});
const server = createServer((req, res) => void bridge.handle(req, res));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const bridgeUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
try {
  await intake.admin.updateAccount("acc_acme", { webhookUrl: `${bridgeUrl}/intake/webhook` });
  const question = { id: "msg_1001", userId: "user_42", firstName: "Lin", text: "How much is a membership?", attachmentId: "att_1" };
  console.log(`user_42 writes: "${question.text}" with a photo`);
  const response = await fetch(`${bridgeUrl}/platform/messages`, { method: "POST", body: JSON.stringify(question) });
  console.log(`Bridge → Intake: ${response.status} ${await response.text()}`);
  const delivery = await intake.admin.waitForDelivery((d) => d.kind === "reply");
  console.log(`Intake → bridge: reply webhook ${delivery.state} after ${delivery.attempts.length} attempt(s)`);
  for (const { userId, text } of platform.sent) console.log(`${userId} receives: "${text}"`);
} finally {
  server.close();
  await intake.stop();
}
