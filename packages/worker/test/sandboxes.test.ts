// The hosted sandboxes' own rules, against the Worker in workerd: the operator API (create from a
// seed file or the demo, list, describe, reset, delete) and who may call it; what answers without
// a token or key; two sandboxes isolated (keys, tokens, lists, events); a sandbox's limits.
import { readFileSync } from "node:fs";
import { createAdminClient, type ReceivedEvent } from "@intake/server";
import { createIntakeClient } from "@intake/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "../src/sandbox/capacity.js";
import { createSandbox, sandboxService, startWorker, type LocalWorker, type SandboxInfo } from "./support/worker.js";

const FUNNEL_SEED = readFileSync(new URL("../../../examples/seeds/funnel.yaml", import.meta.url), "utf8");

let worker: LocalWorker;
beforeAll(async () => {
  // A small capacity, to reach it.
  worker = await startWorker({ vars: { SANDBOX_MAX_CONTACTS: "3", SANDBOX_MAX_MESSAGES: "1000" } });
});
afterAll(() => worker?.stop());

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any, headers: response.headers });

describe("the operator API", () => {
  it("creates a sandbox from a seed file as it is (YAML), answering its addresses, admin token, keys and webhook secrets", async () => {
    const created = await worker.operator("POST", "?name=yoga&clock=virtual", FUNNEL_SEED, { "content-type": "application/yaml" });
    expect(created.status).toBe(201);
    const sandbox = created.body as SandboxInfo;
    expect(sandbox).toMatchObject({
      name: "yoga",
      clock: "virtual",
      baseUrl: `${worker.origin}/s/yoga/v1`,
      adminUrl: `${worker.origin}/s/yoga/__admin`,
      dashboardUrl: `${worker.origin}/s/yoga/__dashboard/#token=${encodeURIComponent(sandbox.adminToken)}`,
      adminToken: expect.stringMatching(/^adm_[A-Za-z0-9]{32}$/),
    });
    const studio = sandbox.accounts.find((account) => account.id === "acc_studio")!;
    // Its own key and secret: not the seed file's.
    expect(studio.apiKey).toMatch(/^ik_[A-Za-z0-9]{40}$/);
    expect(FUNNEL_SEED).not.toContain(studio.apiKey);
    expect(studio.webhookSecret).toMatch(/^whsec_/);
    const api = createIntakeClient({
      auth: "query",
      apiKey: studio.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: (request) => worker.fetch(request),
    });
    const contact = await api.contacts.create({ phone: "+14155550123", firstName: "Ada" });
    await expect(api.contacts.find({ phoneNumber: "+14155550123" })).resolves.toMatchObject({ id: contact.id });
    // The seed's own key means nothing here.
    const seedKey = /apiKey: (\S+)/.exec(FUNNEL_SEED)![1]!;
    expect((await worker.fetch(`${sandbox.baseUrl}/contacts?apiKey=${seedKey}&phoneNumber=%2B14155550123`)).status).toBe(401);
  });

  it("creates the demo, its first conversation played: the bot's reply is in the inbox, signed", async () => {
    const sandbox = (await worker.operator("POST", "?demo&name=demo")).body as SandboxInfo;
    const admin = createAdminClient({ adminUrl: sandbox.adminUrl, token: sandbox.adminToken, fetch: (request) => worker.fetch(request) });
    const inbox = await admin.inbox("acc_acme");
    expect(inbox.requests).toHaveLength(1);
    expect(inbox.requests[0]).toMatchObject({ signature: { verified: true } });
    // The demo's printed keys are the README's: a hosted demo draws its own.
    expect(sandbox.accounts.map((account) => account.apiKey).join(" ")).not.toMatch(/ik_demo_/);
  });

  it("lists, describes, resets and deletes; a deleted sandbox answers 404 in the route's shape and its name is free again", async () => {
    const sandbox = await createSandbox(worker, {
      name: "short-lived",
      seed: { accounts: [{ id: "acc_a", name: "A", contacts: [{ id: "ct_seeded", phone: "+14155550100" }] }] },
    });
    const key = sandbox.accounts[0]!.apiKey;
    const listed = await worker.operator("GET", "");
    expect(listed.body.sandboxes).toContainEqual(expect.objectContaining({ name: "short-lived", baseUrl: sandbox.baseUrl }));
    expect((await worker.operator("GET", "/short-lived")).body).toMatchObject({ name: "short-lived", adminToken: sandbox.adminToken });

    const post = (path: string, body: unknown) =>
      worker.fetch(`${sandbox.baseUrl}${path}?apiKey=${key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post("/contacts", { phone: "+14155550123" })).status).toBe(201);
    const reset = await worker.operator("POST", "/short-lived/reset");
    expect(reset.body.accounts[0].apiKey).toBe(key);
    const admin = sandboxService(worker, sandbox).admin;
    expect((await admin("GET", "/contacts?accountId=acc_a")).body.map((contact: { id: string }) => contact.id)).toEqual(["ct_seeded"]);

    expect((await worker.operator("DELETE", "/short-lived")).status).toBe(204);
    expect((await worker.operator("GET", "")).body.sandboxes.map((s: { name: string }) => s.name)).not.toContain("short-lived");
    const general = await json(await post("/contacts", { phone: "+14155550123" }));
    expect(general).toMatchObject({
      status: 404,
      body: { error: { code: "SANDBOX_NOT_FOUND", message: expect.stringContaining("There is no sandbox short-lived here") } },
    });
    const receive = await json(
      await post("/incoming_custom_channel_message", { customData: { messageSid: "S", fromId: "u", toId: "t", body: "x" } }),
    );
    expect(receive).toMatchObject({ status: 404, body: { error: expect.stringContaining("There is no sandbox short-lived here") } });
    expect((await worker.operator("GET", "/short-lived")).status).toBe(404);
    await createSandbox(worker, { name: "short-lived", demo: true });
  });

  it("refuses what it cannot do, saying why: a taken name, a bad name, a seed with a misspelt field, no seed, an unknown option", async () => {
    await createSandbox(worker, { name: "taken", demo: true });
    expect(await worker.operator("POST", "", { name: "taken", demo: true })).toMatchObject({
      status: 409,
      body: { error: { code: "SANDBOX_EXISTS" } },
    });
    expect(await worker.operator("POST", "", { name: "Not_A_Name", demo: true })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining("lower-case letters, digits and dashes") } },
    });
    const misspelt = await worker.operator("POST", "", { name: "misspelt", seed: { accounts: [{ name: "A", apikey: "x" }] } });
    expect(misspelt).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining("accounts[0].apikey") } } });
    // Refused whole: the name was not kept.
    expect((await worker.operator("GET", "")).body.sandboxes.map((s: { name: string }) => s.name)).not.toContain("misspelt");
    expect(await worker.operator("POST", "", {})).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining("Give a seed") } },
    });
    expect(await worker.operator("POST", "", { demo: true, colour: "blue" })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining("Unknown field colour") } },
    });
  });

  it("answers only the operator: no token is 401, another token is 401 and makes nothing", async () => {
    const bare = await json(await worker.fetch(`${worker.origin}/__operator/sandboxes`));
    expect(bare).toMatchObject({ status: 401, body: { error: { code: "MISSING_OPERATOR_TOKEN" } } });
    expect(bare.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await json(
      await worker.fetch(`${worker.origin}/__operator/sandboxes`, {
        method: "POST",
        headers: { authorization: "Bearer op_guess", "content-type": "application/json" },
        body: JSON.stringify({ name: "intruder", demo: true }),
      }),
    );
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: "INVALID_OPERATOR_TOKEN" } } });
    // Refused before anything was made.
    expect((await worker.operator("GET", "")).body.sandboxes.map((s: { name: string }) => s.name)).not.toContain("intruder");
    expect((await worker.fetch(`${worker.origin}/s/intruder/v1/contacts?email=a%40example.com`)).status).toBe(404);
  });
});

describe("what answers without a token or key", () => {
  it("only what the interface answers without one: the contract's document, the dashboard's page, a webhook to an inbox", async () => {
    const sandbox = await createSandbox(worker, { name: "open-doors", demo: true });
    const root = sandbox.baseUrl.replace(/\/v1$/, "");
    const statuses = async (paths: Array<[string, RequestInit?]>) =>
      Promise.all(paths.map(async ([path, init]) => [path, (await worker.fetch(`${root}${path}`, init)).status]));
    expect(
      await statuses([
        ["/v1/contacts?email=a%40example.com"],
        ["/__admin/accounts"],
        ["/__admin/snapshot"],
        ["/__admin/inbox/acc_acme"],
        ["/__admin/events"],
      ]),
    ).toEqual([
      ["/v1/contacts?email=a%40example.com", 401],
      ["/__admin/accounts", 401],
      ["/__admin/snapshot", 401],
      ["/__admin/inbox/acc_acme", 401],
      ["/__admin/events", 401],
    ]);
    expect((await worker.fetch(`${root}/__dashboard/`)).status).toBe(200);
    expect((await worker.fetch(`${root}/v1/openapi.json`)).status).toBe(200);
    // The Worker's own root and paths: a 404 that says where things are.
    const home = await json(await worker.fetch(`${worker.origin}/`));
    expect(home).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND", message: expect.stringContaining("/s/<name>/v1") } } });
  });
});

describe("two sandboxes", () => {
  let a: SandboxInfo;
  let b: SandboxInfo;
  beforeAll(async () => {
    const seed = { accounts: [{ id: "acc_same", name: "Same id in both", lists: [{ id: "lst_same", name: "Leads" }] }] };
    a = await createSandbox(worker, { name: "iso-a", seed });
    b = await createSandbox(worker, { name: "iso-b", seed });
  });
  const keyOf = (sandbox: SandboxInfo) => sandbox.accounts[0]!.apiKey;

  it("draw their own keys and admin tokens, and refuse each other's", async () => {
    expect(keyOf(a)).not.toBe(keyOf(b));
    expect(a.adminToken).not.toBe(b.adminToken);
    expect((await worker.fetch(`${b.baseUrl}/contacts?apiKey=${keyOf(a)}&email=a%40example.com`)).status).toBe(401);
    expect((await worker.fetch(`${b.adminUrl}/accounts`, { headers: { authorization: `Bearer ${a.adminToken}` } })).status).toBe(401);
    expect((await worker.fetch(`${a.adminUrl}/accounts`, { headers: { authorization: `Bearer ${a.adminToken}` } })).status).toBe(200);
  });

  it("keep their own contacts, lists and events: what happens in one is not seen in the other", async () => {
    const adminA = createAdminClient({ adminUrl: a.adminUrl, token: a.adminToken, fetch: (request) => worker.fetch(request) });
    const adminB = createAdminClient({ adminUrl: b.adminUrl, token: b.adminToken, fetch: (request) => worker.fetch(request) });
    const eventsB = await adminB.events();
    const seenB: ReceivedEvent[] = [];
    const reading = (async () => {
      for await (const received of eventsB) seenB.push(received);
    })();
    const apiA = createIntakeClient({ auth: "query", apiKey: keyOf(a), baseUrl: a.baseUrl, fetch: (request) => worker.fetch(request) });
    const apiB = createIntakeClient({ auth: "query", apiKey: keyOf(b), baseUrl: b.baseUrl, fetch: (request) => worker.fetch(request) });
    const inA = await apiA.contacts.create({ phone: "+14155550111", firstName: "Only in A" });
    await apiA.lists.addContact("lst_same", { contactId: inA.id });
    // B's own change, so its stream has something to show once A's would have arrived.
    await apiB.contacts.create({ phone: "+14155550122", firstName: "Only in B" });
    await expect.poll(() => seenB.some((received) => received.event.type === "contact.created")).toBe(true);
    eventsB.close();
    await reading;
    expect(JSON.stringify(seenB)).not.toContain("Only in A");
    expect(JSON.stringify(seenB)).not.toContain(inA.id);
    await expect(apiB.contacts.find({ phoneNumber: "+14155550111" })).resolves.toBeNull();
    expect((await adminB.members("lst_same")).map((member) => member.id)).toEqual([]);
    expect((await adminA.members("lst_same")).map((member) => member.id)).toEqual([inA.id]);
  });
});

describe("a sandbox's limits", () => {
  it("past its capacity, a new contact is 507 SANDBOX_FULL in the route's shape, nothing of it kept; what is there still works", async () => {
    const sandbox = await createSandbox(worker, { name: "small", seed: { accounts: [{ id: "acc_a", name: "A" }] } });
    const key = sandbox.accounts[0]!.apiKey;
    const post = (path: string, body: unknown) =>
      worker
        .fetch(`${sandbox.baseUrl}${path}?apiKey=${key}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })
        .then(json);
    for (const phone of ["+14155550101", "+14155550102", "+14155550103"]) expect((await post("/contacts", { phone })).status).toBe(201);
    expect(await post("/contacts", { phone: "+14155550104" })).toMatchObject({
      status: 507,
      body: { error: { code: "SANDBOX_FULL", message: expect.stringContaining("the most contacts it can (3)") } },
    });
    // A new sender would be a new contact: the receive endpoint refuses in its own shape, and keeps nothing.
    const receive = await post("/incoming_custom_channel_message", {
      customData: { messageSid: "S-new", fromId: "new-sender", toId: "t", body: "hi" },
    });
    expect(receive).toMatchObject({ status: 507, body: { error: expect.stringContaining("the most contacts it can") } });
    // A known contact still answers, and its messages are still taken.
    expect((await post("/contacts", { phone: "+14155550101" })).status).toBe(200);
    const admin = sandboxService(worker, sandbox).admin;
    expect((await admin("GET", "/contacts?accountId=acc_a")).body).toHaveLength(3);
    expect((await admin("GET", "/messages?accountId=acc_a")).body).toHaveLength(0);
    // A snapshot restored whole is held to it too.
    const { body: snapshot } = await admin("GET", "/snapshot");
    const [first] = snapshot.records.contact;
    snapshot.records.contact.push({ ...first, id: "ct_fourth", phone: "+14155550109" });
    expect(await admin("PUT", "/snapshot", snapshot)).toMatchObject({
      status: 507,
      body: { error: { code: "SANDBOX_FULL", message: expect.stringContaining("nothing of the snapshot was kept") } },
    });
    expect((await admin("GET", "/contacts?accountId=acc_a")).body).toHaveLength(3);
  });

  it("a body over 896 KiB is 400 PAYLOAD_TOO_LARGE; one at the limit is kept whole, however its text escapes: any one record fits a row of the object's storage", async () => {
    const sandbox = await createSandbox(worker, {
      name: "bodies",
      seed: { accounts: [{ id: "acc_a", name: "A", campaigns: [{ id: "cmp_a", name: "A" }] }] },
    });
    const response = await json(
      await worker.fetch(`${sandbox.baseUrl}/contacts?apiKey=${sandbox.accounts[0]!.apiKey}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone: "+14155550101", firstName: "x".repeat(900 * 1024) }),
      }),
    );
    expect(response).toMatchObject({
      status: 400,
      body: { error: { code: "PAYLOAD_TOO_LARGE", message: "The request body is larger than 896 KiB." } },
    });
    // FAQs of quotes just under the limit: JSON escapes each twice in the stored campaign (its
    // settings are JSON text in the record's JSON), doubling it; it is stored all the same.
    const faq = (i: number) => ({ question: `Question ${i}`, answer: '"'.repeat(1950) });
    const faqs = Array.from({ length: Math.floor((LIMITS.maxBodyBytes - 64) / JSON.stringify(faq(1000)).length) }, (_, i) => faq(i));
    expect(JSON.stringify({ faqs }).length).toBeGreaterThan(LIMITS.maxBodyBytes - 8 * 1024);
    const admin = sandboxService(worker, sandbox).admin;
    expect((await admin("PATCH", "/campaigns/cmp_a", { faqs })).status).toBe(200);
    expect((await admin("GET", "/campaigns/cmp_a")).body.faqs).toEqual(faqs);
  });

  it("refuses a fault rule that drops the connection (a Worker always answers), saying what to use instead", async () => {
    const sandbox = await createSandbox(worker, { name: "faults", demo: true });
    for (const when of ["before", "after"]) {
      const refused = await sandboxService(worker, sandbox).admin("PUT", "/faults", [{ operationId: "createContact", drop: true, when }]);
      expect(refused).toMatchObject({
        status: 400,
        body: { error: { message: expect.stringContaining("a Cloudflare Worker always answers") } },
      });
    }
  });

  it("refuses plain HTTP as Cloudflare hands it on (an http:// URL): /v1 and the operator API alike", async () => {
    const sandbox = await createSandbox(worker, { name: "plain", demo: true });
    const plain = await worker.dispatch(
      `${sandbox.baseUrl.replace("https://", "http://")}/contacts?apiKey=${sandbox.accounts[0]!.apiKey}&email=a%40example.com`,
    );
    expect(plain).toMatchObject({
      status: 400,
      body: { error: { code: "HTTPS_REQUIRED", message: expect.stringContaining(`send this request to https://`) } },
    });
    expect(await worker.dispatch(`${worker.origin.replace("https://", "http://")}/__operator/sandboxes`)).toMatchObject({
      status: 400,
      body: { error: { code: "HTTPS_REQUIRED" } },
    });
  });
});
