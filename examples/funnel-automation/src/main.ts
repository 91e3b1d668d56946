// One form submission, as an automation platform would pass it:
//   INTAKE_BASE_URL=https://… INTAKE_API_KEY=… INTAKE_LIST_ID=lst_… \
//   npm start -w @intake/example-funnel-automation -- '{"phone_number":"+14155550123","first_name":"Ada"}'
import { createIntakeClient } from "@intake/client";
import { intakeLead, type Lead } from "./funnel.js";

const listId = process.env.INTAKE_LIST_ID;
const submission = process.argv[2];
if (!listId || !submission) {
  console.error("Set INTAKE_BASE_URL, INTAKE_API_KEY and INTAKE_LIST_ID, and pass the lead as JSON.");
  process.exit(2);
}
const intake = createIntakeClient({ auth: "bearer" }); // the key and base URL come from the environment
console.log(JSON.stringify(await intakeLead(intake, listId, JSON.parse(submission) as Lead), null, 2));
