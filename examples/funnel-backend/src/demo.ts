// A submission, the 15 minutes on a clock moved by hand, and the lead reaching the campaign:
//   npm run demo -w @intake/example-funnel-backend
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIntakeClient } from "@intake/client";
import { DEMO_KEYS, DEMO_SEED } from "@intake/server/node";
import { startIntakeServer } from "@intake/server/testing";
import { createBackend, type LeadResult } from "./backend.js";
import { ManualTimers } from "./timers.js";

const server = await startIntakeServer({ seed: DEMO_SEED });
// The consent log's folder is the demo's own, removed when it ends.
const folder = await mkdtemp(join(tmpdir(), "intake-backend-"));
try {
  const timers = new ManualTimers();
  const consentLog = join(folder, "consent.jsonl");
  const done = new Promise<LeadResult>((resolve) => {
    const backend = createBackend({
      intake: createIntakeClient({ auth: "query", apiKey: DEMO_KEYS.business, baseUrl: server.baseUrl, fetch: server.fetch }),
      listId: "lst_spring_leads",
      consentLog,
      timers,
      onDone: resolve,
    });
    void backend
      .submit(
        { phone: "+14155550177", firstName: "Linus", consent: true, consentText: "I agree to be contacted about the spring offer." },
        "203.0.113.7",
      )
      .then(({ scheduledFor }) => {
        console.log(`Consent recorded; the lead goes to Intake at ${scheduledFor}.`);
        timers.advance(15 * 60 * 1000);
      });
  });
  const result = await done;
  if (result.outcome === "failed") throw result.error;
  const { contactId } = result;
  await server.admin.settle();
  const { messages } = await server.admin.contact(contactId);
  console.log(`Sent after the delay: contact ${contactId}.`);
  for (const m of messages) console.log(`  ${m.source} (${m.status}): ${m.body}`);
  console.log(`The consent log:\n${(await readFile(consentLog, "utf8")).trim()}`);
} finally {
  await server.stop();
  await rm(folder, { recursive: true, force: true });
}
