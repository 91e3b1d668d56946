// --data-file under SIGKILL: the CLI killed at random moments during concurrent writes of every
// kind loses no write it answered, applies none twice, and once restarted delivers every reply
// webhook, under one id per message; queued opening messages resume at the safe rate after a kill.
// Everything is asserted through the public API (/v1, /__admin) and a real webhook receiver.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { startReceiver, type Receiver } from "../support/receiver.js";
import { startCli, type CliRun } from "../support/spawn.js";

const running: CliRun[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop("SIGKILL");
});

const TOKEN = "adm_durability_token_0001";
/** A new folder for a test's data file, removed when the test ends. */
function dir() {
  const folder = mkdtempSync(join(tmpdir(), "intake-durability-"));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

async function start(dataFile: string, args: string[]): Promise<CliRun> {
  const run = await startCli(["--port", "0", "--rate-limit", "0", "--admin-token", TOKEN, "--data-file", dataFile, ...args]);
  running.push(run);
  return run;
}

/** kill -9: no graceful stop, nothing saved but what was committed. */
async function kill(run: CliRun) {
  await run.stop("SIGKILL");
  running.splice(running.indexOf(run), 1);
}

/** The admin API of one run; failures throw with the answer. */
function adminOf(run: CliRun) {
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const response = await run.fetch(`${run.info.adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    call,
    /** Every page of a paged list. */
    async all(path: string): Promise<any[]> {
      const items: any[] = [];
      for (let offset = 0; ; offset += 10_000) {
        const page = (await call("GET", `${path}${path.includes("?") ? "&" : "?"}limit=10000&offset=${offset}`)) as any[];
        items.push(...page);
        if (page.length < 10_000) return items;
      }
    },
  };
}

const post = (run: CliRun, path: string, body: unknown, headers: Record<string, string> = {}) =>
  run.fetch(`${run.info.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });

function groupBy<T>(items: Iterable<T>, key: (item: T) => string | null | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === null || k === undefined) continue;
    let group = groups.get(k);
    if (!group) groups.set(k, (group = []));
    group.push(item);
  }
  return groups;
}

/** mulberry32: the test's choices (kill moments, writes) repeat for one DURABILITY_SEED. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a: which webhooks the receiver fails depends only on their id. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

describe("--data-file killed with SIGKILL mid-writes", () => {
  const BIZ = "acc_durable";
  const BIZ_KEY = "ik_durable_business_00000001";
  const AGENCY_KEY = "ik_durable_agency_0000000001";
  const SUB = "sub_durable";
  const SUB_EMAIL = "client@agency.example";
  const SECRET = `whsec_${Buffer.from("durability test webhook secret!!").toString("base64")}`;
  const ROUNDS = 20;
  const WORKERS = 12;

  /** One write as the test made it, and the answer if one came back whole. */
  interface Write<P> {
    round: number;
    params: P;
    status?: number;
    body?: any;
    replayed?: boolean;
    error?: string;
  }
  const answered = (write: { status?: number }) => write.status !== undefined;

  it("loses no answered write, applies none twice, and delivers every reply webhook under one id", { timeout: 180_000 }, async () => {
    const seed = Number(process.env.DURABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const random = seeded(seed);
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const context = (what: string) => `${what} (DURABILITY_SEED=${seed})`;

    // The receiver fails some webhooks' first attempt or two (by id, so a retry after a restart
    // meets the same rule), and records every request it got and what it answered.
    const hooks: Receiver = await startReceiver();
    onTestFinished(() => hooks.close());
    const answers = new Map<string, number[]>();
    hooks.answer((request) => {
      const id = String(request.headers["webhook-id"]);
      const given = answers.get(id) ?? [];
      answers.set(id, given);
      const h = fnv(id) % 8;
      const failures = h < 2 ? 1 : h === 2 ? 2 : 0;
      const status = given.length < failures ? 500 : 200;
      given.push(status);
      return { status };
    });

    const folder = dir();
    const dataFile = join(folder, "state.db");
    const seedFile = join(folder, "seed.json");
    writeFileSync(
      seedFile,
      JSON.stringify({
        accounts: [
          {
            id: BIZ,
            name: "Durable",
            apiKey: BIZ_KEY,
            webhookUrl: hooks.url,
            webhookSecret: SECRET,
            credits: 1_000_000,
            campaigns: [
              {
                id: "cmp_durable",
                name: "Durable funnel",
                type: "Combined",
                state: "Live",
                companyInfo: "We keep what we are told.",
                goal: "Book a demo.",
                triggerOnNewListContacts: true,
                openingTemplate: { body: "Hi {{firstName}}, welcome!", approval: "approved" },
              },
            ],
            lists: [{ id: "lst_durable", name: "Durable leads", campaignId: "cmp_durable" }],
          },
          {
            id: "acc_agency",
            kind: "agency",
            name: "Agency",
            apiKey: AGENCY_KEY,
            subaccounts: [{ id: SUB, name: "Client", email: SUB_EMAIL, credits: 0 }],
          },
        ],
      }),
    );

    const contacts: Write<{ phone: string }>[] = [];
    const adds: Write<{ contactId: string }>[] = [];
    const inbound: Write<{ sid: string; fromId: string; body: string }>[] = [];
    const grants: Write<{ key: string; amount: number }>[] = [];
    const advances: Write<{ ms: number }>[] = [];
    /** Answers no write should get (an error status), and failures before the kill. */
    const unexpected: string[] = [];

    async function send<P>(writes: Write<P>[], write: Write<P>, request: () => Promise<Response>, ok: number[], stopped: () => boolean) {
      writes.push(write);
      try {
        const response = await request();
        // Answered only once the whole answer is in: a status line alone is not an acknowledgement a client can act on.
        const text = await response.text();
        write.body = text ? JSON.parse(text) : undefined;
        write.replayed = response.headers.get("idempotent-replayed") === "true";
        write.status = response.status;
        if (!ok.includes(response.status)) unexpected.push(`${JSON.stringify(write.params)} answered ${response.status} ${text}`);
      } catch (error) {
        write.error = String(error);
        if (!stopped()) unexpected.push(`${JSON.stringify(write.params)} failed before the kill: ${write.error}`);
      }
    }

    let phoneCount = 0;
    let sidCount = 0;
    let keyCount = 0;
    async function oneWrite(run: CliRun, round: number, stopped: () => boolean, r = random()) {
      const known = contacts.filter((w) => answered(w)).map((w) => w.body.id as string);
      if (r < 0.27 || (r < 0.47 && known.length === 0)) {
        // A new phone, or now and then one whose create went unanswered before (it may be stored).
        const lost = contacts.filter((w) => !answered(w) && w.round < round);
        const phone =
          lost.length && random() < 0.2
            ? pick(lost).params.phone
            : `+1555${String(round).padStart(2, "0")}${String(phoneCount++).padStart(5, "0")}`;
        return send(
          contacts,
          { round, params: { phone } },
          () => post(run, `/contacts?apiKey=${BIZ_KEY}`, { phone, firstName: "Lead" }),
          [200, 201],
          stopped,
        );
      }
      if (r < 0.47) {
        const contactId = pick(known);
        return send(
          adds,
          { round, params: { contactId } },
          () => post(run, `/lists/lst_durable/contacts?apiKey=${BIZ_KEY}`, { contactId }),
          [200, 201],
          stopped,
        );
      }
      if (r < 0.72) {
        // Two messages per sender, so one contact's replies queue behind each other; some retries.
        const params =
          inbound.length && random() < 0.12
            ? pick(inbound).params
            : { sid: `SM-${round}-${sidCount}`, fromId: `user-${round}-${Math.floor(sidCount / 2)}`, body: `Hello, message ${sidCount++}` };
        const body = {
          customData: {
            messageSid: params.sid,
            fromId: params.fromId,
            toId: "durable-support",
            body: params.body,
            channel: "durable-chat",
          },
        };
        return send(
          inbound,
          { round, params },
          () => post(run, `/incoming_custom_channel_message?apiKey=${BIZ_KEY}`, body),
          [200],
          stopped,
        );
      }
      if (r < 0.96) {
        // A new Idempotency-Key, or a retry of an earlier one with the same body.
        const params =
          grants.length && random() < 0.2
            ? pick(grants).params
            : { key: `grant-${round}-${keyCount++}`, amount: 1 + Math.floor(random() * 50) + (random() < 0.2 ? 0.25 : 0) };
        return send(
          grants,
          { round, params },
          () =>
            post(
              run,
              "/subaccounts/credits",
              { email: SUB_EMAIL, amount: params.amount },
              { "x-api-key": AGENCY_KEY, "idempotency-key": params.key },
            ),
          [200],
          stopped,
        );
      }
      // Virtual time passes: queued openings go, and failed webhooks are retried.
      const ms = 20_000 + Math.floor(random() * 40_000);
      return send(
        advances,
        { round, params: { ms } },
        () =>
          run.fetch(`${run.info.adminUrl}/clock/advance`, {
            method: "POST",
            headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
            body: JSON.stringify({ ms }),
            signal: AbortSignal.timeout(20_000),
          }),
        [200],
        stopped,
      );
    }

    /** What the restarted server holds is every answered write once, and no unanswered one twice. */
    async function verify(run: CliRun, when: string) {
      const admin = adminOf(run);
      await admin.call("POST", "/settle");
      expect(unexpected, context(`${when}: writes answered with an error or failed before the kill`)).toEqual([]);

      const stored = await admin.all(`/contacts?accountId=${BIZ}`);
      const byPhone = groupBy(stored, (c) => c.phone);
      for (const [phone, found] of byPhone) expect(found.length, context(`${when}: contacts with phone ${phone}`)).toBe(1);
      for (const write of contacts.filter(answered)) {
        expect(
          byPhone.get(write.params.phone)?.map((c) => c.id),
          context(`${when}: the contact created for ${write.params.phone} in round ${write.round}`),
        ).toEqual([write.body.id]);
      }

      const members = ((await admin.call("GET", "/lists/lst_durable/contacts")) as any[]).map((c) => c.id as string);
      expect(new Set(members).size, context(`${when}: list members are unique`)).toBe(members.length);
      const memberSet = new Set(members);
      for (const write of adds.filter(answered))
        expect(memberSet.has(write.params.contactId), context(`${when}: ${write.params.contactId} added in round ${write.round}`)).toBe(
          true,
        );

      const messages = await admin.all(`/messages?accountId=${BIZ}`);
      const messageIds = new Set(messages.map((m) => m.id as string));
      expect(messageIds.size, context(`${when}: message ids are unique`)).toBe(messages.length);
      const received = messages.filter((m) => m.direction === "inbound");
      const bySid = groupBy(received, (m) => m.messageSid);
      for (const [sid, found] of bySid) expect(found.length, context(`${when}: messages with messageSid ${sid}`)).toBe(1);
      for (const write of inbound.filter(answered)) {
        expect(
          bySid.get(write.params.sid)?.map((m) => m.id),
          context(`${when}: the message ${write.params.sid} of round ${write.round}`),
        ).toEqual([write.body.messageId]);
      }
      // Each received message was answered by the bot exactly once (replies queue per contact).
      for (const m of received) expect(m.botOutcome, context(`${when}: the bot's outcome for ${m.messageSid}`)).toBe("replied");
      const replies = messages.filter((m) => m.direction === "outbound" && m.source === "bot");
      const repliesByContact = groupBy(replies, (m) => m.contactId);
      for (const [contactId, found] of groupBy(received, (m) => m.contactId)) {
        expect(repliesByContact.get(contactId)?.length ?? 0, context(`${when}: bot replies to ${contactId}`)).toBe(found.length);
      }
      for (const contactId of repliesByContact.keys())
        expect(groupBy(received, (m) => m.contactId).has(contactId), context(`${when}: a reply to ${contactId}, who wrote nothing`)).toBe(
          true,
        );
      for (const m of replies) expect(["pending", "sent"], context(`${when}: reply ${m.id}'s status`)).toContain(m.status);

      // Opening messages: at most one per contact, to list members only (the queue's rest come later).
      const openings = messages.filter((m) => m.source === "opening");
      for (const m of openings) {
        expect(m.status, context(`${when}: opening ${m.id}`)).toBe("sent");
        expect(memberSet.has(m.contactId), context(`${when}: opening ${m.id} to a member`)).toBe(true);
      }
      for (const [contactId, found] of groupBy(openings, (m) => m.contactId))
        expect(found.length, context(`${when}: openings to ${contactId}`)).toBe(1);

      // Credits: each history adds up to its balance; grants are there once per key, as answered.
      const history = async (accountId: string) => {
        const credits = await admin.call("GET", `/accounts/${accountId}/credits`);
        let balance = 0;
        for (const t of credits.transactions) {
          balance += t.amount;
          expect(
            close(t.balanceAfter, balance),
            context(`${when}: ${accountId}'s balance after ${t.id} (${t.balanceAfter}, the history adds up to ${balance})`),
          ).toBe(true);
        }
        expect(
          close(credits.balance, balance),
          context(`${when}: ${accountId}'s balance ${credits.balance}, its history adds up to ${balance}`),
        ).toBe(true);
        return credits.transactions as any[];
      };
      const granted = groupBy(await history(SUB), (t) => t.idempotencyKey);
      for (const [key, found] of granted) expect(found.length, context(`${when}: grants with Idempotency-Key ${key}`)).toBe(1);
      for (const write of grants.filter(answered)) {
        const [t] = granted.get(write.params.key) ?? [];
        expect(t, context(`${when}: the grant ${write.params.key} answered in round ${write.round}`)).toBeDefined();
        expect([t.amount, t.source], context(`${when}: the grant ${write.params.key}`)).toEqual([write.params.amount, "agency_grant"]);
        expect(write.body, context(`${when}: the answer to ${write.params.key}`)).toEqual({
          success: true,
          sub_account_id: SUB,
          credits_added: write.params.amount,
          new_balance: t.balanceAfter,
        });
      }
      // However the retries of a key raced, one answer at most granted; the others were replays.
      for (const [key, writes] of groupBy(grants.filter(answered), (w) => w.params.key)) {
        expect(writes.filter((w) => !w.replayed).length, context(`${when}: answers to ${key} that were not replays`)).toBeLessThanOrEqual(
          1,
        );
      }
      // The business pays a credit per first message to a contact and one per bot reply, each a transaction.
      const spent = await history(BIZ);
      expect(spent.filter((t) => t.source === "bot_reply").length, context(`${when}: bot reply charges`)).toBe(replies.length);
      const reached = new Set([...replies, ...openings].map((m) => m.contactId));
      expect(spent.filter((t) => t.source === "message").length, context(`${when}: first-message charges`)).toBe(reached.size);

      // No webhook reached the receiver for a message the server does not have, nor under another id.
      for (const hook of hooks.received) {
        expect(messageIds.has(hook.json.messageId), context(`${when}: the webhook for ${hook.json.messageId} is of a stored message`)).toBe(
          true,
        );
        expect(hook.headers["webhook-id"], context(`${when}: the webhook-id of ${hook.json.messageId}`)).toBe(hook.json.messageId);
      }
      return { messages, replies, members, openings };
    }

    const started = Date.now();
    const summary: string[] = [];
    let run = await start(dataFile, ["--clock", "virtual", "--seed", seedFile]);
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        run = await start(dataFile, ["--clock", "virtual", "--durability", round % 2 ? "normal" : "full"]);
        await verify(run, `after the kill of round ${round - 1}`);
      }
      let stopped = false;
      // One write of each kind first, so every round has some answered (a fresh server's first
      // answers are slow); the clock advance last, so it retries webhooks that failed.
      await Promise.all([0, 0.3, 0.5, 0.8].map((r) => oneWrite(run, round, () => stopped, r)));
      await oneWrite(run, round, () => stopped, 0.99);
      const workers = Array.from({ length: WORKERS }, async () => {
        while (!stopped) await oneWrite(run, round, () => stopped);
      });
      const delay = 30 + Math.floor(random() * 370);
      await sleep(delay);
      stopped = true;
      await kill(run);
      await Promise.all(workers);
      const made = ([contacts, adds, inbound, grants, advances] as Write<unknown>[][]).flatMap((writes) =>
        writes.filter((w) => w.round === round),
      );
      summary.push(
        `round ${round}: killed at ${delay} ms, ${made.filter(answered).length} answered, ${made.filter((w) => !answered(w)).length} cut off`,
      );
    }

    // The last restart: every webhook driven to its end on the virtual clock.
    run = await start(dataFile, ["--clock", "virtual"]);
    await verify(run, "after the last kill");
    const admin = adminOf(run);
    for (let i = 0; ; i++) {
      await admin.call("POST", "/settle");
      const jobs = (await admin.call("GET", "/jobs")) as any[];
      if (jobs.length === 0) break;
      expect(i, context(`jobs still pending: ${JSON.stringify(jobs.slice(0, 3))}`)).toBeLessThan(50);
      const now = Date.parse((await admin.call("GET", "/clock")).now);
      const last = Math.max(...jobs.map((j) => (j.runAt ? Date.parse(j.runAt) : now)));
      await admin.call("POST", "/clock/advance", { ms: Math.max(1, last - now) });
    }
    const { replies, members, openings } = await verify(run, "once every job had run");

    // Every reply the server has has one delivery, delivered, and the receiver got its webhook-id.
    const deliveries = await admin.all(`/deliveries?accountId=${BIZ}&kind=reply`);
    const deliveriesByMessage = groupBy(deliveries, (d) => d.messageId);
    expect(deliveriesByMessage.size, context("reply messages with a delivery")).toBe(replies.length);
    const delivered = new Set<string>();
    for (const m of replies) {
      expect(m.status, context(`reply ${m.id} in the end`)).toBe("sent");
      const found = deliveriesByMessage.get(m.id) ?? [];
      expect(found.length, context(`deliveries of ${m.id}`)).toBe(1);
      const [delivery] = found;
      expect([delivery.state, delivery.webhookId], context(`the delivery of ${m.id}`)).toEqual(["delivered", m.id]);
      expect(answers.get(delivery.webhookId) ?? [], context(`what the receiver answered ${delivery.webhookId}`)).toContain(200);
      // Each attempt the server recorded with an answer reached the receiver (more may have: in flight at a kill).
      const heard = delivery.attempts.filter((a: any) => a.status !== null).length;
      expect(heard, context(`attempts of ${delivery.webhookId} the server heard answered`)).toBeLessThanOrEqual(
        answers.get(delivery.webhookId)!.length,
      );
      delivered.add(delivery.webhookId);
    }
    // The receiver heard of no message under two ids, nor of one without a delivery; each is signed.
    for (const [messageId, hooksOf] of groupBy(hooks.received, (h) => h.json.messageId)) {
      expect(new Set(hooksOf.map((h) => h.headers["webhook-id"])), context(`webhook-ids of ${messageId}`)).toEqual(new Set([messageId]));
      expect(delivered.has(messageId), context(`a stored delivery for the webhook ${messageId}`)).toBe(true);
    }
    for (const hook of hooks.received) hooks.verify(hook, SECRET);

    // The funnel caught up: each member has its one opening message.
    expect(new Set(openings.map((m) => m.contactId)), context("members with an opening")).toEqual(new Set(members));

    // A webhook answered 2xx as the server was killed is sent again under its own id (at-least-once).
    const repeats = [...answers.values()].filter((given) => given.filter((s) => s === 200).length > 1).length;
    const tally = (writes: Write<unknown>[]) => `${writes.filter(answered).length}/${writes.length}`;
    console.log(
      [
        `durability: DURABILITY_SEED=${seed}, ${ROUNDS} rounds in ${Math.round((Date.now() - started) / 1000)} s; answered/made:`,
        `contacts ${tally(contacts)}, list adds ${tally(adds)}, inbound ${tally(inbound)}, grants ${tally(grants)}, clock advances ${tally(advances)}`,
        `${replies.length} replies, ${hooks.received.length} webhook requests (${[...answers.values()].flat().filter((s) => s !== 200).length} answered 500), ${repeats} webhook-ids delivered again after a kill`,
        ...summary,
      ].join("\n  "),
    );
    // The writes reached the server in every kind (the rest of this test would prove little otherwise).
    for (const writes of [contacts, adds, inbound, grants] as Write<unknown>[][]) expect(writes.filter(answered).length).toBeGreaterThan(0);
  });
});

describe("a SIGKILL during the funnel's queue", () => {
  const KEY = "ik_durable_funnel_0000000001";
  const INTERVAL = 10_000; // --funnel-rate 6: one queued opening per campaign every 10 s

  it(
    "the queued openings resume at the safe rate after the restart; each contact gets one, the sent ones are not sent again",
    { timeout: 120_000 },
    async () => {
      const folder = dir();
      const dataFile = join(folder, "state.db");
      const seedFile = join(folder, "seed.json");
      writeFileSync(
        seedFile,
        JSON.stringify({
          accounts: [
            {
              id: "acc_funnel",
              name: "Funnel",
              apiKey: KEY,
              credits: 100,
              campaigns: [
                {
                  id: "cmp_funnel",
                  name: "Funnel",
                  type: "Outgoing",
                  state: "Live",
                  triggerOnNewListContacts: true,
                  openingTemplate: { body: "Hi {{firstName}}, welcome!", approval: "approved" },
                },
              ],
              lists: [{ id: "lst_funnel", name: "Leads", campaignId: "cmp_funnel" }],
            },
          ],
        }),
      );
      const args = ["--clock", "virtual", "--funnel-rate", "6"];
      const first = await start(dataFile, [...args, "--seed", seedFile]);
      const leads: string[] = [];
      for (let i = 0; i < 10; i++) {
        const created = await post(first, `/contacts?apiKey=${KEY}`, { phone: `+1415555070${i}`, firstName: `Lead${i}` });
        expect(created.status).toBe(201);
        leads.push((await created.json()).id);
      }
      // Ten adds to one list at once: the first ones go now, the rest are queued.
      for (const contactId of leads)
        expect((await post(first, `/lists/lst_funnel/contacts?apiKey=${KEY}`, { contactId })).status).toBe(201);
      await kill(first);

      const openingsOf = async (run: CliRun) =>
        ((await adminOf(run).call("GET", "/messages?accountId=acc_funnel")) as any[]).filter((m) => m.source === "opening");
      let run = await start(dataFile, args);
      let admin = adminOf(run);
      const t0 = Date.parse((await admin.call("GET", "/clock")).now);
      const sentBefore = await openingsOf(run);
      // Three at once, and the queue's first slot, which is now.
      expect(sentBefore.map((m) => [m.contactId, m.status, m.body, Date.parse(m.createdAt)])).toEqual(
        leads.slice(0, 4).map((id, i) => [id, "sent", `Hi Lead${i}, welcome!`, t0]),
      );
      const jobs = (await admin.call("GET", "/jobs")) as any[];
      expect(jobs.map((j) => [j.kind, j.payload.contactId, Date.parse(j.runAt)])).toEqual(
        leads.slice(4).map((id, i) => ["opening", id, t0 + (i + 1) * INTERVAL]),
      );

      for (let k = 1; k <= 6; k++) {
        // Half an interval: nothing; the rest of it: the next one, alone.
        await admin.call("POST", "/clock/advance", { ms: INTERVAL / 2 });
        expect((await openingsOf(run)).length, `half of interval ${k}`).toBe(3 + k);
        await admin.call("POST", "/clock/advance", { ms: INTERVAL / 2 });
        const openings = await openingsOf(run);
        expect(openings.length, `interval ${k}`).toBe(4 + k);
        expect([openings.at(-1).contactId, Date.parse(openings.at(-1).createdAt)]).toEqual([leads[3 + k], t0 + k * INTERVAL]);
        if (k === 2) {
          // Killed again halfway through the queue: the rest keep their slots.
          await kill(run);
          run = await start(dataFile, args);
          admin = adminOf(run);
          expect((await openingsOf(run)).length).toBe(6);
          expect(((await admin.call("GET", "/jobs")) as any[]).map((j) => Date.parse(j.runAt))).toEqual(
            [3, 4, 5, 6].map((n) => t0 + n * INTERVAL),
          );
        }
      }
      await admin.call("POST", "/clock/advance", { ms: 10 * 60_000 });
      const openings = await openingsOf(run);
      expect(openings.map((m) => [m.contactId, m.status])).toEqual(leads.map((id) => [id, "sent"]));
      // The four sent before the kill are the same messages, not sent again.
      expect(openings.slice(0, 4).map((m) => m.id)).toEqual(sentBefore.map((m) => m.id));
      expect(await admin.call("GET", "/jobs")).toEqual([]);
      expect((await admin.call("GET", "/accounts/acc_funnel/credits")).balance).toBe(90);
    },
  );
});

describe("work that fell due while the server was down", () => {
  const KEY = "ik_durable_overdue_000000001";

  it("runs at the restart and is saved: a kill after it does not lose it, nor make it run again", { timeout: 120_000 }, async () => {
    const folder = dir();
    const dataFile = join(folder, "state.db");
    const seedFile = join(folder, "seed.json");
    const quietMs = 3_600; // the follow-up's quiet time (0.001 h), on the real clock
    writeFileSync(
      seedFile,
      JSON.stringify({
        accounts: [
          {
            id: "acc_overdue",
            name: "Overdue",
            apiKey: KEY,
            credits: 10,
            campaigns: [
              {
                id: "cmp_overdue",
                name: "Overdue",
                type: "Outgoing",
                state: "Live",
                triggerOnNewListContacts: true,
                openingTemplate: { body: "Hi {{firstName}}!", approval: "approved" },
                followUps: {
                  enabled: true,
                  delaysHours: [quietMs / 3_600_000],
                  cycles: 1,
                  messagesPerCycle: 1,
                  messages: ["Still there, {{firstName}}?"],
                },
              },
            ],
            lists: [{ id: "lst_overdue", name: "Leads", campaignId: "cmp_overdue" }],
          },
        ],
      }),
    );
    const first = await start(dataFile, ["--seed", seedFile]);
    const created = await post(first, `/contacts?apiKey=${KEY}`, { phone: "+14155550800", firstName: "Ada" });
    const { id } = await created.json();
    expect((await post(first, `/lists/lst_overdue/contacts?apiKey=${KEY}`, { contactId: id })).status).toBe(201);
    const openedAt = Date.now();
    // Down before the follow-up is due, and until it is overdue.
    await kill(first);
    await sleep(Math.max(0, openedAt + quietMs + 200 - Date.now()));

    const sent = async (run: CliRun) => {
      const admin = adminOf(run);
      await admin.call("POST", "/settle");
      return {
        messages: ((await admin.call("GET", "/messages?accountId=acc_overdue")) as any[]).map((m) => [m.source, m.id, m.body]),
        jobs: await admin.call("GET", "/jobs"),
        credits: await admin.call("GET", "/accounts/acc_overdue/credits"),
      };
    };
    const second = await start(dataFile, []);
    const resumed = await sent(second);
    expect(resumed.messages.map(([source, , body]) => [source, body])).toEqual([
      ["opening", "Hi Ada!"],
      ["follow_up", "Still there, Ada?"],
    ]);
    expect(resumed.jobs).toEqual([]);
    await kill(second);

    const third = await start(dataFile, []);
    // The same follow-up, once: it was saved when it went, and its job with it.
    expect(await sent(third)).toEqual(resumed);
  });
});
