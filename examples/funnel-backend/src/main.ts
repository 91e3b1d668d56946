// The backend on http://127.0.0.1:3000 (POST /leads), sending leads to Intake 15 minutes later
// (LEAD_DELAY_SECONDS to wait less, and see it happen):
//   INTAKE_BASE_URL=https://… INTAKE_API_KEY=… INTAKE_LIST_ID=lst_… npm start -w @intake/example-funnel-backend
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createIntakeClient } from "@intake/client";
import { createBackend } from "./backend.js";

const listId = process.env.INTAKE_LIST_ID;
if (!listId) {
  console.error("Set INTAKE_BASE_URL, INTAKE_API_KEY and INTAKE_LIST_ID.");
  process.exit(2);
}
const delay = process.env.LEAD_DELAY_SECONDS ?? "900";
const delaySeconds = Number(delay);
if (!/^\d+(\.\d+)?$/.test(delay.trim()) || !Number.isFinite(delaySeconds)) {
  console.error(`LEAD_DELAY_SECONDS is how long to wait before sending a lead, in seconds (got ${JSON.stringify(delay)}).`);
  process.exit(2);
}
const backend = createBackend({
  intake: createIntakeClient({ auth: "query" }),
  listId,
  consentLog: process.env.CONSENT_LOG ?? "consent.jsonl",
  delayMs: delaySeconds * 1000,
  onDone: (result) => console.log(JSON.stringify(result)),
});
const server = createServer((req, res) => void backend.handle(req, res));
server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`POST http://127.0.0.1:${port}/leads (leads go to Intake ${delaySeconds} s after they consent)`);
});
