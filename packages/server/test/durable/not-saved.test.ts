// A write answered 503 NOT_SAVED did not happen: a client that retries when Retry-After says ends
// with exactly one effect, in memory and after a restart from the data file. Over HTTPS, on a real
// data file whose commits fail while another program holds its write lock (a sqlite3 shell in a
// transaction), as they do on a full disk (data-file.test.ts has that case through the CLI).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createIntake, type IntakeOptions, type Seed } from "@intake/server";
import { openDataFile, persist, serve, type DataFile } from "@intake/server/node";
import Database from "better-sqlite3";
import { Agent } from "undici";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startReceiver, type Receiver } from "../support/receiver.js";

const KEY = "ik_not_saved_business_00000001";
const AGENCY_KEY = "ik_not_saved_agency_000000001";
const TOKEN = "adm_not_saved_test_token";
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const LEAD = "+14155550100";

const NOT_SAVED =
  "The server could not save this change to its data file (its log says why), so nothing of it was saved or applied. Retry after 1 second.";

function seed(webhookUrl: string): Seed {
  return {
    accounts: [
      {
        id: "acc_gym",
        name: "Acme Fitness",
        userId: "usr_gym_owner",
        apiKey: KEY,
        webhookUrl,
        webhookSecret: SECRET,
        credits: 100,
        campaigns: [
          {
            id: "cmp_spring",
            name: "Spring funnel",
            type: "Combined",
            state: "Live",
            companyInfo: "Acme Fitness runs three gyms downtown.",
            goal: "Book a free trial class.",
            faqs: [{ question: "How much is a membership?", answer: "Memberships start at 29 dollars a month." }],
            openingTemplate: { body: "Hi {{firstName}}, want a free trial class?", approval: "approved" },
            triggerOnNewListContacts: true,
          },
        ],
        defaultCampaignId: "cmp_spring",
        lists: [{ id: "lst_leads", name: "Spring leads", campaignId: "cmp_spring" }],
        contacts: [{ id: "ct_lead", phone: LEAD, firstName: "Ada" }],
      },
      {
        id: "acc_agency",
        kind: "agency",
        name: "Northwind",
        apiKey: AGENCY_KEY,
        subaccounts: [{ id: "sub_one", email: "one@northwind.example", credits: 5 }],
      },
    ],
  };
}

const folders: string[] = [];
const receivers: Receiver[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (stops.length) await stops.pop()!();
  while (receivers.length) await receivers.pop()!.close();
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The server on its data file, over HTTPS, as the CLI runs it: a new file holds the seed. */
async function open(path: string, hooks: Receiver, options: IntakeOptions = {}, fileOf: (file: DataFile) => DataFile = (file) => file) {
  const file = fileOf(openDataFile(path));
  const saved = file.read();
  const errors: unknown[] = [];
  const intake = createIntake({
    ...(saved ? { snapshot: saved } : { seed: seed(hooks.url) }),
    adminToken: TOKEN,
    onError: (error) => errors.push(error),
    ...options,
  });
  const persistence = persist(intake, file);
  const server = await serve(intake, { port: 0, dashboard: false });
  const dispatcher = new Agent({ connect: { ca: server.certificate } });
  let stopped = false;
  // Stopped as the CLI stops: the connections, the work in flight, the last save.
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await server.close();
    await intake.close();
    persistence.stop();
    await dispatcher.close();
  };
  stops.push(stop);
  const fetch = (url: string, init?: RequestInit) => globalThis.fetch(url, { ...init, dispatcher } as RequestInit);
  const admin = async (method: string, path: string) => {
    const response = await fetch(`${server.adminUrl}${path}`, { method, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return response.json();
  };
  return {
    errors,
    stop,
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.baseUrl}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      }),
    /** The whole state, once the engine's work is done. */
    records: async () => {
      await admin("POST", "/settle");
      return ((await admin("GET", "/snapshot")) as { records: Records }).records;
    },
  };
}
type Server = Awaited<ReturnType<typeof open>>;

type Row = Record<string, any>;
type Records = Record<
  "contact" | "listMember" | "message" | "delivery" | "deliveryAttempt" | "creditTransaction" | "idempotencyRecord" | "account",
  Row[]
>;

async function started(options: IntakeOptions = {}, fileOf?: (file: DataFile) => DataFile) {
  const folder = mkdtempSync(join(tmpdir(), "intake-not-saved-"));
  folders.push(folder);
  const hooks = await startReceiver();
  receivers.push(hooks);
  const path = join(folder, "state.db");
  return { path, hooks, server: await open(path, hooks, options, fileOf) };
}

/** Another program takes the file's write lock: the server's commits fail (after waiting a second for it) until `release`. */
function lockOf(path: string) {
  const other = new Database(path);
  other.exec("BEGIN IMMEDIATE");
  return {
    release() {
      other.exec("ROLLBACK");
      other.close();
    },
  };
}

/**
 * Sends the request while another program holds the file's write lock: it must be answered 503
 * NOT_SAVED with Retry-After. The lock is let go, and the request is sent again once Retry-After
 * has passed: its answer is returned.
 */
async function refusedThenRetried(path: string, send: () => Promise<Response>, shape: "general" | "receive" = "general") {
  const refused = await whileLocked(path, send);
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(await refused.json()).toEqual(shape === "receive" ? { error: NOT_SAVED } : { error: { code: "NOT_SAVED", message: NOT_SAVED } });
  await sleep(Number(refused.headers.get("retry-after")) * 1000);
  return send();
}

/** What `work` gives while another program holds the file's write lock, which is let go after, whatever happens. */
async function whileLocked<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = lockOf(path);
  try {
    return await work();
  } finally {
    lock.release();
  }
}

/** The effect counted in the state now, and again after a restart from the data file. */
async function countedTwice<T>(path: string, hooks: Receiver, server: Server, count: (records: Records) => T, expected: T) {
  expect(count(await server.records())).toEqual(expected);
  expect(server.errors.filter((error) => (error as Error).name !== "NotSavedError")).toEqual([]);
  await server.stop();
  const again = await open(path, hooks);
  expect(count(await again.records())).toEqual(expected);
}

describe("a write answered 503 NOT_SAVED did not happen: retried as Retry-After says, it has one effect", { timeout: 30_000 }, () => {
  it("createContact: the retry creates the contact (201), and there is one", async () => {
    const { path, hooks, server } = await started();
    const create = () => server.post(`/contacts?apiKey=${KEY}`, { phone: "+14155550199", firstName: "Grace" });
    const retried = await refusedThenRetried(path, create);
    expect(retried.status).toBe(201);
    await countedTwice(path, hooks, server, (records) => records.contact.filter((contact) => contact.phone === "+14155550199").length, 1);
  });

  it("addContactToList: the retry adds the contact (201, added), who is in the list once and sent one opening message", async () => {
    const { path, hooks, server } = await started();
    const add = () => server.post(`/lists/lst_leads/contacts?apiKey=${KEY}`, { contactId: "ct_lead" });
    const retried = await refusedThenRetried(path, add);
    expect(retried.status).toBe(201);
    expect(await retried.json()).toMatchObject({ added: true });
    await countedTwice(
      path,
      hooks,
      server,
      (records) => ({
        members: records.listMember.filter((member) => member.contactId === "ct_lead").length,
        openings: records.message.filter((message) => message.contactId === "ct_lead" && message.source === "opening").length,
      }),
      { members: 1, openings: 1 },
    );
  });

  it("sendCustomChannelMessage: one message stored, to one new contact", async () => {
    const { path, hooks, server } = await started();
    const send = () =>
      server.post(`/send_custom_channel_message?apiKey=${KEY}`, {
        customData: { fromId: "user-7", customChannel: "acme-chat", body: "Your class is at 6pm." },
      });
    const retried = await refusedThenRetried(path, send);
    expect(retried.status).toBe(200);
    await countedTwice(
      path,
      hooks,
      server,
      (records) => ({
        messages: records.message.filter((message) => message.body === "Your class is at 6pm.").length,
        contacts: records.contact.filter((contact) => contact.fromId === "user-7").length,
      }),
      { messages: 1, contacts: 1 },
    );
  });

  it("receiveCustomChannelMessage: the retry is not a duplicate; one message, one bot reply, one webhook sent", async () => {
    const { path, hooks, server } = await started();
    const receive = () =>
      server.post(`/incoming_custom_channel_message?apiKey=${KEY}`, {
        customData: { messageSid: "SM-1", fromId: "user-8", toId: "acme", body: "How much is a membership?" },
      });
    const retried = await refusedThenRetried(path, receive, "receive");
    expect(retried.status).toBe(200);
    expect(await retried.json()).not.toHaveProperty("duplicate");
    const count = (records: Records) => {
      const contact = records.contact.find((row) => row.fromId === "user-8");
      const replies = records.message.filter((message) => message.contactId === contact?.id && message.source === "bot");
      return {
        received: records.message.filter((message) => message.messageSid === "SM-1").length,
        replies: replies.length,
        deliveries: records.delivery
          .filter((delivery) => replies.some((reply) => reply.id === delivery.messageId))
          .map((delivery) => [delivery.state, delivery.attempts]),
        webhooks: hooks.received.length,
      };
    };
    await countedTwice(path, hooks, server, count, { received: 1, replies: 1, deliveries: [["delivered", 1]], webhooks: 1 });
  });

  it("grantSubaccountCredits without an Idempotency-Key: the credits are granted once", async () => {
    const { path, hooks, server } = await started();
    const grant = () => server.post("/subaccounts/credits", { email: "one@northwind.example", amount: 10 }, { "x-api-key": AGENCY_KEY });
    const retried = await refusedThenRetried(path, grant);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ credits_added: 10, new_balance: 15 });
    await countedTwice(
      path,
      hooks,
      server,
      (records) => ({
        balance: records.account.find((account) => account.id === "sub_one")?.credits,
        grants: records.creditTransaction.filter(
          (transaction) => transaction.accountId === "sub_one" && transaction.source === "agency_grant",
        ).length,
      }),
      { balance: 15, grants: 1 },
    );
  });

  it("grantSubaccountCredits with an Idempotency-Key: the retry grants (not a replay of a grant that never was), a second retry replays it", async () => {
    const { path, hooks, server } = await started();
    const grant = () =>
      server.post(
        "/subaccounts/credits",
        { email: "one@northwind.example", amount: 10 },
        { "x-api-key": AGENCY_KEY, "idempotency-key": "rch_2026-01-01_001" },
      );
    const retried = await refusedThenRetried(path, grant);
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expect(await retried.json()).toMatchObject({ credits_added: 10, new_balance: 15 });
    const replayed = await grant();
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(await replayed.json()).toMatchObject({ credits_added: 10, new_balance: 15 });
    await countedTwice(
      path,
      hooks,
      server,
      (records) => ({
        balance: records.account.find((account) => account.id === "sub_one")?.credits,
        grants: records.creditTransaction.filter(
          (transaction) => transaction.accountId === "sub_one" && transaction.source === "agency_grant",
        ).length,
        keys: records.idempotencyRecord.length,
      }),
      { balance: 15, grants: 1, keys: 1 },
    );
  });
});

describe("a commit that fails, beyond the requests", { timeout: 30_000 }, () => {
  const receive = (server: Server) =>
    server.post(`/incoming_custom_channel_message?apiKey=${KEY}`, {
      customData: { messageSid: "SM-1", fromId: "user-8", toId: "acme", body: "When are you open?" },
    });

  it("the engine's work (a bot reply) is undone with it, and done once from its stored job when saving works again: one reply, one webhook attempt", async () => {
    let answer!: () => void;
    const answering = new Promise<void>((resolve) => (answer = resolve));
    let asked = 0;
    const bot = async () => {
      asked++;
      await answering;
      return { reply: "We open at 6am." };
    };
    const { path, hooks, server } = await started({ bot });
    // Saved: the message, and the bot's job to answer it.
    expect((await receive(server)).status).toBe(200);
    await whileLocked(path, async () => {
      answer();
      await vi.waitFor(() => expect(server.errors).toHaveLength(1), { timeout: 10_000 });
    });
    await vi.waitFor(() => expect(hooks.received).toHaveLength(1), { timeout: 10_000 });
    const count = (records: Records) => {
      const replies = records.message.filter((message) => message.source === "bot");
      return {
        replies: replies.map((reply) => reply.body),
        answered: records.message.filter((message) => message.messageSid === "SM-1").map((message) => message.botOutcome),
        deliveries: records.delivery.map((delivery) => [delivery.messageId === replies[0]?.id, delivery.state, delivery.attempts]),
        webhooks: hooks.received.length,
      };
    };
    await countedTwice(path, hooks, server, count, {
      replies: ["We open at 6am."],
      answered: ["replied"],
      deliveries: [[true, "delivered", 1]],
      webhooks: 1,
    });
    expect(asked).toBe(2);
  });

  it("a change that cannot be undone (the file cannot be read back) is answered 500, kept in memory, and saved once a commit works", async () => {
    // Read at start, not after.
    let reads = 0;
    const unreadable = (file: DataFile): DataFile => ({
      path: file.path,
      get kind() {
        return file.kind;
      },
      read: () => {
        if (reads++ === 0) return file.read();
        throw new Error(`${file.path} cannot be read back.`);
      },
      create: (snapshot) => file.create(snapshot),
      write: (changes, meta) => file.write(changes, meta),
      replace: (snapshot) => file.replace(snapshot),
      refusal: (error) => file.refusal(error),
      explain: (error) => file.explain(error),
      close: () => file.close(),
    });
    const { path, hooks, server } = await started({}, unreadable);
    const send = () =>
      server.post(`/send_custom_channel_message?apiKey=${KEY}`, {
        customData: { fromId: "user-7", customChannel: "acme-chat", body: "Your class is at 6pm." },
      });
    const answered = await whileLocked(path, send);
    expect(answered.status).toBe(500);
    expect(answered.headers.get("retry-after")).toBeNull();
    expect(await answered.json()).toEqual({
      error: {
        code: "INTERNAL_ERROR",
        message:
          "The server could not save this change to its data file, nor undo it (its log says why): it is kept and saved once that works. Check whether it was made before you retry.",
      },
    });
    expect((server.errors as Error[]).map((error) => error.message)).toEqual([
      `${path} is locked by another program (database is locked): close what holds it (a sqlite3 shell in a transaction, say). Changes are undone, and answered 503 NOT_SAVED, until a save works again (tried each second).`,
      `${path} cannot be read back. The changes that could not be saved could not be undone either: they are kept in memory and saved once that works.`,
    ]);
    server.errors.length = 0;
    await sleep(1_500);
    await countedTwice(
      path,
      hooks,
      server,
      (records) => records.message.filter((message) => message.body === "Your class is at 6pm.").length,
      1,
    );
  });
});
