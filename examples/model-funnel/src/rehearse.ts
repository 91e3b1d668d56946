/**
 * The rehearsal: a reference server whose bot is a model, the lead sent through /v1 and added to
 * the campaign's list (the opening message goes), then the lead's answers simulated on the custom
 * channel, one after each reply; the conversation comes back as a transcript.
 *
 * The bot is `createModelBot` in one of its modes: record (every answer from the endpoint, kept in
 * a recording file) or replay (every answer from that file: no endpoint, no key).
 */
import { createIntakeClient } from "@intake/client";
import type { AdminComponents } from "@intake/server/admin-client";
import { createModelBot } from "@intake/server/node";
import { startIntakeServer } from "@intake/server/testing";
import { KEY, LEAD, LEAD_SAYS, LIST, SEED } from "./campaign.js";
import { transcript } from "./transcript.js";

export type Mode = { replay: string } | { record: string; baseUrl: string; apiKey?: string | null };

export interface RehearsalOptions {
  model: string;
  mode: Mode;
  /** What the lead writes (default: the campaign's script). */
  leadSays?: string[];
}

export interface Rehearsal {
  bot: AdminComponents["schemas"]["BotInfo"];
  lines: string[];
  messages: AdminComponents["schemas"]["Message"][];
  /** The received messages the bot gave no answer to, and why (outcome and error). */
  failures: { body: string; outcome: string; error: string | null }[];
}

export async function rehearse({ model, mode, leadSays = LEAD_SAYS }: RehearsalOptions): Promise<Rehearsal> {
  const bot = createModelBot({
    model,
    ...("replay" in mode ? { replay: mode.replay } : { record: mode.record, baseUrl: mode.baseUrl, apiKey: mode.apiKey }),
  });
  const server = await startIntakeServer({ seed: SEED, bot });
  try {
    const v1 = createIntakeClient({ auth: "bearer", apiKey: KEY, baseUrl: server.baseUrl, fetch: server.fetch });
    const lead = await v1.contacts.create(LEAD);
    await v1.lists.addContact(LIST, { contact_id: lead.id });
    await server.admin.settle();
    for (const body of leadSays) {
      await server.admin.simulateInbound(lead.id, { channel: "custom", body });
      await server.admin.settle();
    }
    const detail = await server.admin.contact(lead.id);
    const failures = detail.messages
      .filter((m) => m.direction === "inbound" && m.bot?.error)
      .map((m) => ({ body: m.body, outcome: m.botOutcome ?? "", error: m.bot!.error }));
    return { bot: await server.admin.bot(), lines: transcript("Fit Club", detail), messages: detail.messages, failures };
  } finally {
    await server.stop();
  }
}
