/**
 * A large state for the dashboard's benchmark: one account with a Live campaign and its list,
 * `contacts` contacts of `perContact` messages each (inbound and bot replies in turn), as a
 * snapshot a server is started from. Its webhook URL is the server's own inbox.
 */
import { createIntake, type Snapshot } from "@intake/server";

export const BENCH_ACCOUNT = "acc_bench";

export const benchPhone = (i: number) => `+1415${String(5_000_000 + i).padStart(7, "0")}`;

export async function bigSnapshot(contacts: number, perContact: number, apiKey: string): Promise<Snapshot> {
  const small = createIntake({
    clock: "virtual",
    seed: {
      accounts: [
        {
          id: BENCH_ACCOUNT,
          name: "Bench Gym",
          apiKey,
          credits: 1_000_000,
          webhookUrl: `/__inbox/${BENCH_ACCOUNT}`,
          campaigns: [{ id: "cmp_bench", name: "Bench funnel", state: "Live" }],
          lists: [{ id: "lst_bench", name: "Bench leads", campaignId: "cmp_bench" }],
        },
      ],
    },
  });
  const snapshot = small.snapshot();
  await small.close();
  const start = Date.parse("2026-01-01T00:00:00Z");
  const contactRecords: object[] = [];
  const messages: object[] = [];
  for (let i = 0; i < contacts; i++) {
    const at = new Date(start + i * 1000).toISOString();
    const phone = benchPhone(i);
    contactRecords.push({
      id: `ct_b${i}`,
      accountId: BENCH_ACCOUNT,
      firstName: `Lead${i}`,
      lastName: "Bench",
      phone,
      email: `lead${i}@bench.example`,
      customFields: null,
      fromId: phone,
      customChannel: null,
      botPaused: false,
      campaignId: "cmp_bench",
      createdAt: at,
    });
    for (let m = 0; m < perContact; m++) {
      const inbound = m % 2 === 0;
      messages.push({
        id: `msg_b${i}_${m}`,
        accountId: BENCH_ACCOUNT,
        contactId: `ct_b${i}`,
        direction: inbound ? "inbound" : "outbound",
        channel: "custom",
        messageSid: inbound ? `sid_b${i}_${m}` : null,
        fromId: inbound ? phone : null,
        toId: inbound ? "bench" : phone,
        messageType: "text",
        body: inbound ? `Question ${m} from lead ${i}` : `Answer ${m} for lead ${i}`,
        status: inbound ? "received" : "sent",
        mediaUrl: null,
        mediaContentType: null,
        reactionTo: null,
        campaignId: "cmp_bench",
        source: inbound ? "api_receive" : "bot",
        error: null,
        botOutcome: inbound ? "replied" : null,
        createdAt: at,
      });
    }
  }
  return { ...snapshot, records: { ...snapshot.records, contact: contactRecords, message: messages } } as Snapshot;
}
