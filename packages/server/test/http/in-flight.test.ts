// A /v1 request is authenticated before its body is read, and its body may take a while: the key
// or the whole state may change meanwhile. Each test changes them when the server first reads the
// body (the stream asks for nothing before a read: highWaterMark 0), so nothing depends on timing.
import { createIntake, type Intake } from "@intake/server";
import { describe, expect, it } from "vitest";
import { KEYS, SEED } from "../support/seed.js";

const ORIGIN = "https://intake.test";
const TOKEN = "adm_inflight_0123456789abcd";

function start(): Intake {
  return createIntake({
    seed: SEED,
    adminToken: TOKEN,
    onError: (error) => {
      throw error;
    },
  });
}

async function admin(intake: Intake, method: string, path: string, body?: unknown) {
  const response = await intake.fetch(
    new Request(`${ORIGIN}/__admin${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A POST whose body the server gets only after `meanwhile` has run. */
async function postWhile(intake: Intake, path: string, body: unknown, meanwhile: () => Promise<unknown>) {
  let ran = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        ran = true;
        await meanwhile();
        controller.enqueue(new TextEncoder().encode(JSON.stringify(body)));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  const response = await intake.fetch(
    new Request(`${ORIGIN}/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit),
  );
  expect(ran).toBe(true);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const journalOf = async (intake: Intake) =>
  (await admin(intake, "GET", "/journal")).body as Array<{ operationId: string; status: number; accountId: string | null }>;

const contactsOf = async (intake: Intake) =>
  ((await admin(intake, "GET", "/contacts")).body as Array<{ accountId: string; phone: string }>).map((c) => [c.accountId, c.phone]);

describe("a request whose body arrives after its key or the state changed", () => {
  it("is refused (401) when its key was replaced meanwhile, and stores nothing", async () => {
    const intake = start();
    const answer = await postWhile(intake, `/contacts?apiKey=${KEYS.acme}`, { phone: "+14155550100" }, () =>
      admin(intake, "POST", "/accounts/acc_acme/api-key", { apiKey: "ik_test_acme_replaced_00001" }),
    );
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "INVALID_API_KEY" } } });
    // As a request sent with that key now: no rate-limit headers, no account in the journal.
    expect([...answer.headers.keys()].filter((name) => name.startsWith("ratelimit"))).toEqual([]);
    expect((await journalOf(intake)).find((e) => e.operationId === "createContact")).toMatchObject({ status: 401, accountId: null });
    expect(await contactsOf(intake)).toEqual([]);
  });

  it("lands whole in the state a reset left, under that state's account, when its key is still there", async () => {
    const intake = start();
    // The same key, now another account's: the message must be that account's, not the old one's.
    const seed = { accounts: [{ id: "acc_new", name: "New", apiKey: KEYS.acme }] };
    const answer = await postWhile(
      intake,
      `/incoming_custom_channel_message?apiKey=${KEYS.acme}`,
      { customData: { messageSid: "SM-late", fromId: "late-user", toId: "biz", body: "hello" } },
      () => admin(intake, "POST", "/reset", seed),
    );
    expect(answer.status).toBe(200);
    const messages = (await admin(intake, "GET", "/messages")).body as Array<{ id: string; accountId: string; contactId: string }>;
    expect(messages).toEqual([expect.objectContaining({ id: answer.body.messageId, accountId: "acc_new" })]);
    expect(await contactsOf(intake)).toEqual([["acc_new", null]]);
    // The state is whole: what it saves, it restores.
    expect((await admin(intake, "PUT", "/snapshot", (await admin(intake, "GET", "/snapshot")).body)).status).toBe(200);
  });

  it("is refused (401) when a reset left a state without its key, and leaves nothing of the old account", async () => {
    const intake = start();
    const other = { accounts: [{ id: "acc_other", name: "Other", apiKey: "ik_test_other_0000000000001" }] };
    const answer = await postWhile(intake, `/contacts?apiKey=${KEYS.acme}`, { phone: "+14155550100" }, () =>
      admin(intake, "POST", "/reset", other),
    );
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "INVALID_API_KEY" } } });
    expect(((await admin(intake, "GET", "/accounts")).body as Array<{ id: string }>).map((a) => a.id)).toEqual(["acc_other"]);
    expect(await contactsOf(intake)).toEqual([]);
  });

  it("lands in a snapshot restored meanwhile only under an account of that snapshot", async () => {
    const intake = start();
    const snapshot = (await admin(intake, "GET", "/snapshot")).body;
    await admin(intake, "POST", "/reset", { accounts: [{ id: "acc_other", name: "Other", apiKey: "ik_test_other_0000000000001" }] });
    const answer = await postWhile(intake, `/contacts?apiKey=ik_test_other_0000000000001`, { phone: "+14155550100" }, () =>
      admin(intake, "PUT", "/snapshot", snapshot),
    );
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "INVALID_API_KEY" } } });
    expect(await contactsOf(intake)).toEqual([]);
  });
});

describe("a snapshot restored", () => {
  it("is refused when a record belongs to an account it does not have, and the state is kept", async () => {
    const intake = start();
    await intake.fetch(
      new Request(`${ORIGIN}/v1/contacts?apiKey=${KEYS.acme}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"phone":"+14155550100"}',
      }),
    );
    const snapshot = (await admin(intake, "GET", "/snapshot")).body;
    const orphan = { ...snapshot.records.contact[0], id: "ct_orphan", phone: "+14155550101", accountId: "acc_gone" };
    const refused = await admin(intake, "PUT", "/snapshot", {
      ...snapshot,
      records: { ...snapshot.records, contact: [...snapshot.records.contact, orphan] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      `records.contact[${snapshot.records.contact.length}].accountId names account acc_gone, which these records do not have. Nothing was changed.`,
    );
    expect(await contactsOf(intake)).toEqual([["acc_acme", "+14155550100"]]);
  });
});
