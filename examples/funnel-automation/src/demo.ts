// The whole flow against a reference server started here, with its demo seed:
//   npm run demo -w @intake/example-funnel-automation
import { createIntakeClient } from "@intake/client";
import { DEMO_KEYS, DEMO_SEED } from "@intake/server/node";
import { startIntakeServer } from "@intake/server/testing";
import { intakeLead } from "./funnel.js";

const server = await startIntakeServer({ seed: DEMO_SEED });
try {
  const intake = createIntakeClient({ auth: "bearer", apiKey: DEMO_KEYS.business, baseUrl: server.baseUrl, fetch: server.fetch });
  const lead = { phone_number: "+14155550142", first_name: "Grace", last_name: "Hopper", email: "grace@example.com" };
  const first = await intakeLead(intake, "lst_spring_leads", lead);
  const again = await intakeLead(intake, "lst_spring_leads", lead);
  await server.admin.settle();
  const { messages } = await server.admin.contact(first.contact.id);
  console.log(
    `First submission: contact ${first.contact.id} ${first.created ? "created" : "found"}, ${first.addedToList ? "added to" : "already in"} the list.`,
  );
  console.log(
    `Same lead again:  contact ${again.contact.id} ${again.created ? "created" : "found"}, ${again.addedToList ? "added to" : "already in"} the list.`,
  );
  for (const m of messages) console.log(`  ${m.direction} ${m.source} on ${m.channel} (${m.status}): ${m.body}`);
} finally {
  await server.stop();
}
