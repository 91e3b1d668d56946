/**
 * Data files (`--data-file`) for bench/durability.ts, holding many contacts and messages, built in
 * seconds rather than through the API: the contacts are the bench seed's, loaded into an Intake in
 * this process and taken from its snapshot; the messages are copies of one received and one sent
 * through that Intake (so they have the records' real shape), spread over the contacts. Both are
 * written with the server's own data-file module (openDataFile: its create, then its write in
 * batches), so the file has the tables, meta and pragmas the server reads.
 */
import { statSync } from "node:fs";
import { createIntake, type AdminComponents } from "@intake/server";
import { openDataFile, type DataFile } from "@intake/server/node";
import { BENCH_KEY, benchContactId, benchSeed, benchSender } from "./seed.js";

export type Message = AdminComponents["schemas"]["Message"];

export interface BuiltDataFile {
  path: string;
  /** Bytes on disk, once closed. */
  bytes: number;
  /** Milliseconds it took, from the seed to the file closed. */
  buildMs: number;
  /** A contact and the messages of its conversation, oldest first: what the server must load for it. */
  sample: { contactId: string; messages: Message[] };
}

/** Messages written per transaction. */
const BATCH = 20_000;
/** The messages are dated over this span before the file is built, the contacts made at its start. */
const SPAN_MS = 30 * 24 * 3600 * 1000;

/** What the contacts say and what is sent back, in turn (lengths of everyday chat messages). */
const INBOUND = [
  "Hi, is the gym open on Sunday mornings?",
  "What does a monthly membership cost?",
  "Can I bring a friend to my first class?",
  "Thanks! Do I need to book the spin class in advance or can I just show up?",
  "ok",
];
const OUTBOUND = [
  "Hi! Yes, we open at 8am on Sundays.",
  "Our monthly membership is $49, with no joining fee this month.",
  "Of course, your first guest visit is free.",
  "Spin classes fill up fast, so booking ahead in the app is best. See you there!",
  "Anything else I can help with?",
];

/**
 * Builds a data file at `path` (which must not exist) holding `contacts` contacts and `messages`
 * messages. Message n goes to contact n mod `contacts`, alternately received and sent, so every
 * contact's conversation grows round by round, as many conversations at once do, and the rows lie
 * in the order the messages were made. A contact whose conversation it returns as the sample.
 */
export async function buildDataFile(
  path: string,
  contacts: number,
  messages: number,
  sampleContact = Math.min(7, contacts - 1),
): Promise<BuiltDataFile> {
  const started = performance.now();
  const intake = createIntake({ seed: benchSeed(contacts, 1, { senders: true }), rateLimit: 0 });
  const [inbound, outbound] = await templates(intake);
  const snapshot = intake.snapshot();
  await intake.close();
  const end = Date.parse(snapshot.clock.now);
  const start = end - SPAN_MS;
  const records = snapshot.records as unknown as { contact: Array<{ createdAt: string }>; message: Message[] };
  // The contacts were made before their conversations; the two template messages are not kept.
  records.contact.forEach((contact, i) => (contact.createdAt = new Date(start + i).toISOString()));
  records.message = [];

  const file = openDataFile(path);
  const sample: Message[] = [];
  try {
    file.create(snapshot);
    const meta = { clock: snapshot.clock, ids: snapshot.ids };
    for (let from = 0; from < messages; from += BATCH) {
      const batch = new Map<string, object | undefined>();
      for (let n = from; n < Math.min(from + BATCH, messages); n++) {
        const message = nthMessage(n, contacts, messages, { inbound, outbound }, { from: start + contacts, to: end });
        batch.set(message.id, message);
        if (n % contacts === sampleContact) sample.push(message);
      }
      file.write(new Map([["message", batch]]) as Parameters<DataFile["write"]>[0], meta);
    }
  } finally {
    file.close();
  }
  return {
    path,
    bytes: statSync(path).size,
    buildMs: performance.now() - started,
    sample: { contactId: benchContactId(sampleContact), messages: sample },
  };
}

/** Message n of the file: a copy of the template of its direction, for its contact, at its time. */
function nthMessage(
  n: number,
  contacts: number,
  messages: number,
  { inbound, outbound }: Record<"inbound" | "outbound", Message>,
  { from, to }: { from: number; to: number },
): Message {
  const contact = n % contacts;
  const round = Math.floor(n / contacts);
  const received = round % 2 === 0;
  const sender = benchSender(contact);
  const text = (received ? INBOUND : OUTBOUND)[Math.floor(round / 2) % INBOUND.length]!;
  return {
    ...(received ? inbound : outbound),
    // As long as the server's own ids (msg_ and 12 characters), and never one of them.
    id: `msg_bench${String(n).padStart(7, "0")}`,
    contactId: benchContactId(contact),
    ...(received ? { messageSid: `SM${n.toString(16).padStart(32, "0")}`, fromId: sender } : { toId: sender }),
    body: text,
    createdAt: new Date(from + Math.floor(((to - from) * n) / messages)).toISOString(),
  };
}

/** A message received from the first contact and one sent to it, as the server stores them. */
async function templates(intake: ReturnType<typeof createIntake>): Promise<[Message, Message]> {
  const post = async (path: string, customData: object) => {
    const response = await intake.fetch(
      new Request(`https://localhost/v1${path}?apiKey=${BENCH_KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData }),
      }),
    );
    const body = (await response.json()) as { messageId?: string };
    if (!response.ok || !body.messageId) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(body)}`);
    return body.messageId;
  };
  const sender = benchSender(0);
  const received = await post("/incoming_custom_channel_message", { messageSid: "SM0", fromId: sender, toId: "acme", body: "Hello" });
  const sent = await post("/send_custom_channel_message", { fromId: sender, customChannel: "acme", body: "Hi!" });
  // The bot's outcome is set once the engine has taken the received message up.
  await intake.admin.settle();
  const stored = intake.snapshot().records.message as unknown as Message[];
  const find = (id: string) => stored.find((m) => m.id === id)!;
  return [find(received), find(sent)];
}
