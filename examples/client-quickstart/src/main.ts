// Run: INTAKE_BASE_URL=... INTAKE_API_KEY=... INTAKE_AGENCY_KEY=... npm start -w @intake/example-client-quickstart
import { quickstart } from "./quickstart.js";

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name} (see examples/client-quickstart/README.md).`);
    process.exit(2);
  }
  return value;
}

const baseUrl = required("INTAKE_BASE_URL");
const result = await quickstart({
  baseUrl,
  apiKey: required("INTAKE_API_KEY"),
  agencyKey: required("INTAKE_AGENCY_KEY"),
  listId: process.env.INTAKE_LIST_ID ?? "lst_Funnel2026",
  subaccountEmail: process.env.INTAKE_SUBACCOUNT_EMAIL ?? "client-one@agency.example",
  allowInsecureLoopback: baseUrl.startsWith("http://"),
});
console.log(JSON.stringify(result, null, 2));
