// The backend on http://127.0.0.1:3000 (POST /leads), sending leads to Intake 15 minutes later:
//   INTAKE_BASE_URL=https://… INTAKE_API_KEY=… INTAKE_LIST_ID=lst_… npm start -w @intake/example-funnel-backend
import { createServer } from "node:http";
import { createIntakeClient } from "@intake/client";
import { createBackend } from "./backend.js";

const listId = process.env.INTAKE_LIST_ID;
if (!listId) {
  console.error("Set INTAKE_BASE_URL, INTAKE_API_KEY and INTAKE_LIST_ID.");
  process.exit(2);
}
const backend = createBackend({
  intake: createIntakeClient({ auth: "query" }),
  listId,
  consentLog: process.env.CONSENT_LOG ?? "consent.jsonl",
  onDone: (result) => console.log(JSON.stringify(result)),
});
createServer((req, res) => void backend.handle(req, res)).listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () =>
  console.log(`POST http://127.0.0.1:${process.env.PORT ?? 3000}/leads`),
);
