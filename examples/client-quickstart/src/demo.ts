// The three auth forms against a reference server started here, with its demo seed:
//   npm run demo -w @intake/example-client-quickstart
import { DEMO_SEED } from "@intake/server/node";
import { startIntakeServer } from "@intake/server/testing";
import { demoConfig } from "./demo-config.js";
import { quickstart } from "./quickstart.js";

const server = await startIntakeServer({ seed: DEMO_SEED });
try {
  const { contact, membership, received, grant } = await quickstart(demoConfig(server));
  console.log(`bearer: contact ${contact.id} (${contact.firstName}), ${membership.added ? "added to" : "already in"} the list`);
  console.log(`query:  message ${received.messageId} received`);
  console.log(`header: ${grant.credits_added} credits granted to ${grant.sub_account_id}, balance ${grant.new_balance}`);
} finally {
  await server.stop();
}
