// The bridge as a service on http://127.0.0.1:3001:
//   INTAKE_BASE_URL=https://… INTAKE_API_KEY=… INTAKE_WEBHOOK_SECRET=whsec_… \
//   PLATFORM_API_URL=https://… PLATFORM_TOKEN=… BUSINESS_ID=… npm start -w @intake/example-custom-channel-bridge
import { createServer } from "node:http";
import { createIntakeClient } from "@intake/client";
import { createBridge } from "./bridge.js";
import { httpPlatform } from "./platform.js";

const { INTAKE_WEBHOOK_SECRET, PLATFORM_API_URL, PLATFORM_TOKEN, BUSINESS_ID } = process.env;
if (!INTAKE_WEBHOOK_SECRET || !PLATFORM_API_URL || !PLATFORM_TOKEN || !BUSINESS_ID) {
  console.error("Set INTAKE_BASE_URL, INTAKE_API_KEY, INTAKE_WEBHOOK_SECRET, PLATFORM_API_URL, PLATFORM_TOKEN and BUSINESS_ID.");
  process.exit(2);
}
const bridge = createBridge({
  intake: createIntakeClient({ auth: "query" }), // the key and base URL come from the environment
  webhookSecret: INTAKE_WEBHOOK_SECRET,
  platform: httpPlatform(PLATFORM_API_URL, PLATFORM_TOKEN),
  businessId: BUSINESS_ID,
  channel: process.env.CHANNEL ?? "my-chat-platform",
  campaignId: process.env.INTAKE_CAMPAIGN_ID,
});
const port = Number(process.env.PORT ?? 3001);
createServer((req, res) => void bridge.handle(req, res)).listen(port, "127.0.0.1", () => {
  console.log(`Platform → Intake: POST http://127.0.0.1:${port}/platform/messages`);
  console.log(`Intake → platform: POST http://127.0.0.1:${port}/intake/webhook (set it as the Custom Channel Webhook)`);
});
