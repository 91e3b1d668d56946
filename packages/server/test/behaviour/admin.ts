import { describe, expect } from "vitest";
import { client, mountOf } from "../support/harness.js";
import { KEYS } from "../support/seed.js";
import { cases, type Register } from "./cases.js";

export const admin: Register = (target, options) => {
  const { it, direct } = cases(options);
  const call = (method: string, path: string, body?: unknown) => target().harness.admin(method, path, body);

  describe("admin API", () => {
    it("needs its token", async () => {
      const response = await target().harness.fetch(`${target().harness.adminUrl}/accounts`);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: {
          code: "UNAUTHORIZED",
          message: "Send the admin token as Authorization: Bearer <token>; the server printed it at start (or set it with --admin-token).",
        },
      });
      const wrong = await target().harness.fetch(`${target().harness.adminUrl}/accounts`, {
        headers: { authorization: `Bearer ${KEYS.acme}` },
      });
      expect(wrong.status).toBe(401);
    });

    it("answers an unknown path 404 and another method 405 with Allow, before it asks for the token", async () => {
      const unknown = await call("GET", "/nope");
      const mount = mountOf(target());
      expect(unknown).toMatchObject({
        status: 404,
        body: {
          error: {
            code: "NOT_FOUND",
            message: `No admin operation at GET ${mount}/__admin/nope. The admin API is described at ${mount}/__admin/openapi.json.`,
          },
        },
      });
      const wrong = await call("DELETE", "/accounts");
      expect(wrong).toMatchObject({
        status: 405,
        body: { error: { code: "METHOD_NOT_ALLOWED", message: "Method DELETE is not allowed on /__admin/accounts; use GET or POST." } },
      });
      expect(wrong.headers.get("allow")).toBe("GET, POST");
      const tokenless = await target().harness.fetch(`${target().harness.adminUrl}/nope`);
      expect(tokenless.status).toBe(404);
    });

    it("serves its own OpenAPI document", async () => {
      const doc = await call("GET", "/openapi.json");
      expect(doc.body.info.title).toBe("Intake reference server — admin API");
      expect(Object.keys(doc.body.paths)).toContain("/journal");
    });

    it("creates an account whose key works at once, and a sub-account under an agency", async () => {
      const created = await call("POST", "/accounts", { name: "Initech", webhookUrl: "https://hooks.initech.example/intake" });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^acc_/),
        kind: "standard",
        name: "Initech",
        userId: expect.stringMatching(/^usr_/),
        credits: 0,
      });
      expect(created.body.webhookSecret).toMatch(/^whsec_/);
      await expect(client(target(), "query", created.body.apiKey).contacts.create({ phone: "+14155550123" })).resolves.toMatchObject({
        phone: "+14155550123",
      });
      const sub = await call("POST", "/accounts/acc_agency/subaccounts", {
        email: "three@northwind.example",
        credits: 10,
        autoRecharge: { threshold: 5, amount: 100 },
      });
      expect(sub.body).toMatchObject({
        id: expect.stringMatching(/^sub_/),
        kind: "subaccount",
        agencyId: "acc_agency",
        credits: 10,
        autoRecharge: { threshold: 5, amount: 100 },
      });
      await expect(
        client(target(), "header", KEYS.agency).subaccounts.grantCredits({ email: "three@northwind.example", amount: 1 }),
      ).resolves.toMatchObject({ new_balance: 11 });
      expect((await call("POST", "/accounts/acc_acme/subaccounts", { email: "x@example.com" })).status).toBe(409);
    });

    it("an account's first campaign is its default, until another is set", async () => {
      expect((await call("GET", "/accounts/acc_acme")).body.defaultCampaignId).toBe("cmp_acme");
      const second = await call("POST", "/campaigns", { accountId: "acc_acme", name: "Second" });
      expect((await call("GET", "/accounts/acc_acme")).body.defaultCampaignId).toBe("cmp_acme");
      const changed = await call("PATCH", "/accounts/acc_acme", {
        defaultCampaignId: second.body.id,
        webhookUrl: "https://hooks.acme.example/intake",
      });
      expect(changed.body).toMatchObject({ defaultCampaignId: second.body.id, webhookUrl: "https://hooks.acme.example/intake" });
      expect((await call("PATCH", "/accounts/acc_acme", { defaultCampaignId: "cmp_globex" })).status).toBe(404);
    });

    it("validates its requests against its contract, naming the field", async () => {
      const bad = await call("POST", "/accounts", { name: "" });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR", message: "name must not be empty." } } });
      const unknown = await call("POST", "/campaigns", { accountId: "acc_acme", name: "x", colour: "red" });
      expect(unknown.body.error.message).toMatch(/^Unknown field colour/);
      expect((await call("GET", "/accounts/acc_nope")).status).toBe(404);
    });

    it("campaigns: created with defaults, updated, linked to lists", async () => {
      const created = await call("POST", "/campaigns", {
        accountId: "acc_acme",
        name: "Autumn",
        openingTemplate: { body: "Hi {{firstName}}", approval: "submitted" },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^cmp_/),
        type: "Combined",
        state: "Draft",
        language: "en",
        triggerOnNewListContacts: false,
        followUps: { enabled: false, delaysHours: [24, 72, 168], cycles: 3, messagesPerCycle: 3 },
        openingTemplate: { body: "Hi {{firstName}}", approval: "submitted" },
      });
      const live = await call("PATCH", `/campaigns/${created.body.id}`, {
        state: "Live",
        triggerOnNewListContacts: true,
        followUps: { enabled: true },
        openingTemplate: { body: "Hi {{firstName}}", approval: "approved" },
      });
      expect(live.body).toMatchObject({
        state: "Live",
        triggerOnNewListContacts: true,
        followUps: { enabled: true, cycles: 3 },
        openingTemplate: { approval: "approved" },
      });
      const list = await call("POST", "/lists", { accountId: "acc_acme", name: "Autumn leads", campaignId: created.body.id });
      expect(list.body).toMatchObject({ id: expect.stringMatching(/^lst_/), campaignId: created.body.id, memberCount: 0 });
      expect((await call("POST", "/lists", { accountId: "acc_acme", name: "x", campaignId: "cmp_globex" })).status).toBe(404);
    });

    it("a campaign holds each item the interface says the dashboard configures, and changes each", async () => {
      const items = {
        name: "Spring funnel",
        type: "Combined",
        language: "es",
        botInstructions: "Answer briefly, in Spanish.",
        companyInfo: "Acme runs three gyms downtown.",
        faqs: [{ question: "How much is a membership?", answer: "29 dollars a month." }],
        resources: [{ title: "Timetable", url: "https://acme.example/timetable" }],
        goal: "Book a free trial class.",
        openingTemplate: { body: "Hola {{firstName}}", approval: "submitted" },
        triggerOnNewListContacts: true,
        followUps: { enabled: true, delaysHours: [24, 48], cycles: 1, messagesPerCycle: 2 },
      };
      const created = await call("POST", "/campaigns", { accountId: "acc_acme", ...items });
      expect(created.status).toBe(201);
      expect((await call("GET", `/campaigns/${created.body.id}`)).body).toMatchObject(items);
      const changed = {
        name: "Autumn funnel",
        type: "Outgoing",
        language: "en",
        botInstructions: "Be brief.",
        companyInfo: "Acme runs four gyms.",
        faqs: [],
        resources: [{ title: "Prices", content: "From 29 a month." }],
        goal: "Book a call.",
        openingTemplate: { body: "Hi {{firstName}}", approval: "approved" },
        triggerOnNewListContacts: false,
        followUps: { enabled: false, delaysHours: [72], cycles: 3, messagesPerCycle: 1 },
      };
      expect((await call("PATCH", `/campaigns/${created.body.id}`, changed)).status).toBe(200);
      expect((await call("GET", `/campaigns/${created.body.id}`)).body).toMatchObject(changed);
    });

    it("imports contacts into a list by id and as new contacts, skipping members", async () => {
      const ada = await client(target(), "query", KEYS.acme).contacts.create({ phone: "+14155550123" });
      await client(target(), "query", KEYS.acme).lists.addContact("lst_acme", { contactId: ada.id });
      const imported = await call("POST", "/lists/lst_acme/contacts", {
        source: "import",
        contactIds: [ada.id],
        contacts: [{ phone: "+14155550124", firstName: "Grace" }, { email: "linus@example.com" }],
      });
      expect(imported.body).toMatchObject({ listId: "lst_acme", added: 2, alreadyMembers: 1 });
      expect((await call("GET", "/lists/lst_acme")).body.memberCount).toBe(3);
      const bad = await call("POST", "/lists/lst_acme/contacts", { contacts: [{ phone: "12" }] });
      expect(bad.status).toBe(400);
      expect((await call("GET", "/lists/lst_acme")).body.memberCount).toBe(3);
    });

    it("reads back contacts with their lists and conversation, and credits", async () => {
      const acme = client(target(), "query", KEYS.acme);
      const sent = await acme.messages.send({ customData: { fromId: "u1", customChannel: "chat", body: "Hi" } });
      await acme.messages.receive({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "Hello back" } });
      const detail = await call("GET", `/contacts/${sent.contactId}`);
      expect(detail.body.messages.map((m: { body: string }) => m.body)).toEqual(["Hi", "Hello back"]);
      const inbound = await call("GET", `/messages?contactId=${sent.contactId}&direction=inbound`);
      expect(inbound.body).toHaveLength(1);
      const credits = await call("GET", "/accounts/acc_acme/credits");
      expect(credits.body).toMatchObject({
        accountId: "acc_acme",
        balance: 100,
        transactions: [{ id: expect.stringMatching(/^txn_/), amount: 100, description: "Opening balance", source: "seed" }],
      });
      const adjusted = await call("POST", "/accounts/acc_acme/credits", { amount: -30, description: "Correction" });
      expect(adjusted.body.balance).toBe(70);
      expect((await call("POST", "/accounts/acc_acme/credits", { amount: -1000 })).status).toBe(409);
    });

    it("the journal records recent requests with their status and never a key", async () => {
      await call("DELETE", "/journal");
      const acme = client(target(), "query", KEYS.acme);
      await acme.contacts.create({ phone: "+14155550123" });
      await acme.contacts.find({ email: "nobody@example.com" });
      const journal = await call("GET", "/journal");
      expect(journal.body.map((e: { operationId: string; status: number }) => [e.operationId, e.status])).toEqual([
        ["createContact", 201],
        ["findContact", 404],
      ]);
      // The path as sent: under a hosted sandbox's mount too.
      expect(journal.body[0]).toMatchObject({
        method: "POST",
        path: `${mountOf(target())}/v1/contacts`,
        authForm: "query",
        accountId: "acc_acme",
        requestBody: { phone: "+14155550123" },
      });
      expect(journal.body[1]).toMatchObject({
        errorCode: "CONTACT_NOT_FOUND",
        query: { apiKey: "[REDACTED]", email: "nobody@example.com" },
      });
      expect(JSON.stringify(journal.body)).not.toContain(KEYS.acme);
      expect((await call("GET", "/journal?status=404")).body).toHaveLength(1);
    });

    it("reset goes back to the starting seed; a snapshot restores exactly", async () => {
      const acme = client(target(), "query", KEYS.acme);
      await acme.contacts.create({ phone: "+14155550123" });
      const snapshot = (await call("GET", "/snapshot")).body;
      expect(snapshot.format).toBe("intake-snapshot/1");
      await acme.contacts.create({ phone: "+14155550124" });
      expect((await call("PUT", "/snapshot", snapshot)).body).toMatchObject({ contacts: 1 });
      await expect(acme.contacts.find({ phoneNumber: "+14155550124" })).resolves.toBeNull();
      await expect(acme.contacts.find({ phoneNumber: "+14155550123" })).resolves.not.toBeNull();
      const reset = await call("POST", "/reset");
      expect(reset.body).toMatchObject({ accounts: 7, contacts: 0 });
      const reseeded = await call("POST", "/reset", { accounts: [{ name: "Only", apiKey: "ik_only_account_00000001" }] });
      expect(reseeded.body).toMatchObject({ accounts: 1 });
      await expect(acme.contacts.find({ phoneNumber: "+14155550123" })).rejects.toMatchObject({ status: 401 });
    });

    it("an optional body sent empty is no body, through either adapter", async () => {
      const { harness } = target();
      const emptyReset = await harness.fetch(`${harness.adminUrl}/reset`, {
        method: "POST",
        headers: { authorization: `Bearer ${harness.adminToken}` },
        body: "",
      });
      expect(emptyReset.status).toBe(200);
      expect(await emptyReset.json()).toMatchObject({ accounts: 7, contacts: 0 });
      const untyped = await harness.fetch(`${harness.adminUrl}/reset`, {
        method: "POST",
        headers: { authorization: `Bearer ${harness.adminToken}` },
        body: "{}",
      });
      expect(untyped.status).toBe(400);
      expect((await untyped.json()).error.code).toBe("UNSUPPORTED_CONTENT_TYPE");
    });

    it("a reset to a seed that fails, a bad snapshot, and an import that fails part-way change nothing", async () => {
      const acme = client(target(), "query", KEYS.acme);
      await acme.contacts.create({ phone: "+14155550123" });
      const before = JSON.stringify((await call("GET", "/snapshot")).body.records);
      const reset = await call("POST", "/reset", { accounts: [{ name: "Standard", subaccounts: [{ email: "s@example.com" }] }] });
      expect(reset).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining("is not an agency") } } });
      const snapshot = (await call("GET", "/snapshot")).body;
      expect(JSON.stringify(snapshot.records)).toBe(before);
      const duplicated = {
        ...snapshot,
        records: { ...snapshot.records, contact: [...snapshot.records.contact, ...snapshot.records.contact] },
      };
      const restore = await call("PUT", "/snapshot", duplicated);
      expect(restore).toMatchObject({
        status: 400,
        body: { error: { code: "VALIDATION_ERROR", message: expect.stringContaining("Nothing was changed.") } },
      });
      expect(JSON.stringify((await call("GET", "/snapshot")).body.records)).toBe(before);
      // The same for a kind kept in a plain table beside @mswjs/data.
      expect(snapshot.records.creditTransaction.length).toBeGreaterThan(0);
      const twice = {
        ...snapshot,
        records: { ...snapshot.records, creditTransaction: [...snapshot.records.creditTransaction, snapshot.records.creditTransaction[0]] },
      };
      const last = snapshot.records.creditTransaction.length;
      expect(await call("PUT", "/snapshot", twice)).toMatchObject({
        status: 400,
        body: {
          error: {
            message: `records.creditTransaction[${last}].id ${snapshot.records.creditTransaction[0].id} is also the id of an earlier creditTransaction record: ids are unique within a kind. Nothing was changed.`,
          },
        },
      });
      expect(JSON.stringify((await call("GET", "/snapshot")).body.records)).toBe(before);
      const globexContact = await client(target(), "query", KEYS.globex).contacts.create({ email: "g@example.com" });
      const afterGlobex = JSON.stringify((await call("GET", "/snapshot")).body.records);
      const partial = await call("POST", "/lists/lst_acme/contacts", {
        contacts: [{ phone: "+14155550199" }, { email: "x@example.com" }, { firstName: "nobody" }],
      });
      expect(partial.status).toBe(400);
      const foreign = await call("POST", "/lists/lst_acme/contacts", { contacts: [{ id: globexContact.id, email: "other@example.com" }] });
      expect(foreign.status).toBe(409);
      expect(JSON.stringify((await call("GET", "/snapshot")).body.records)).toBe(afterGlobex);
    });

    it("a snapshot with a webhook URL no other route takes, or two accounts of one API key, is refused naming the record, and nothing changes", async () => {
      const RULE =
        "Webhooks go to https:// URLs, or to this server's own inbox, /__inbox/<accountId>; http:// is accepted for localhost, 127.0.0.0/8 and [::1], and for any host when the server runs with --allow-http-webhooks (allowHttpWebhooks in code).";
      const snapshot = (await call("GET", "/snapshot")).body;
      const before = JSON.stringify(snapshot.records);
      const at = (id: string) => snapshot.records.account.findIndex((account: { id: string }) => account.id === id);
      const refused = async (edit: (records: any) => void, message: string) => {
        const edited = structuredClone(snapshot);
        edit(edited.records);
        expect(await call("PUT", "/snapshot", edited), message).toMatchObject({
          status: 400,
          body: { error: { code: "VALIDATION_ERROR", message: `${message} Nothing was changed.` } },
        });
        expect(JSON.stringify((await call("GET", "/snapshot")).body.records)).toBe(before);
      };
      for (const [field, id] of [
        ["webhookUrl", "acc_acme"],
        ["autoRechargeUrl", "acc_agency"],
      ] as const) {
        for (const url of ["data:text/plain,hello", "file:///etc/passwd", "javascript:alert(1)"]) {
          await refused(
            (records) => (records.account[at(id)][field] = url),
            `records.account[${at(id)}].${field} uses the ${url.split(":")[0]}: scheme. ${RULE}`,
          );
        }
      }
      await refused(
        (records) => (records.account[at("acc_globex")].apiKey = KEYS.acme),
        `records.account[${at("acc_globex")}].apiKey is also the API key of account acc_acme: an API key belongs to one account.`,
      );
      await expect(client(target(), "query", KEYS.acme).contacts.create({ phone: "+14155550123" })).resolves.toMatchObject({
        phone: "+14155550123",
      });
    });

    direct("a snapshot with a record that breaks its kind's schema is refused naming the field, and nothing changes", async () => {
      const snapshot = (await call("GET", "/snapshot")).body;
      const before = JSON.stringify(snapshot.records);
      const count = snapshot.records.account.length;
      const withAccount = (account: object) => ({
        ...snapshot,
        records: { ...snapshot.records, account: [...snapshot.records.account, account] },
      });
      expect(await call("PUT", "/snapshot", withAccount({ id: 42 }))).toMatchObject({
        status: 400,
        body: { error: { code: "VALIDATION_ERROR", message: `records.account[${count}].kind is required.` } },
      });
      const numbered = { ...snapshot.records.account[0], id: 42, apiKey: "ik_test_numbered_00000000001" };
      expect(await call("PUT", "/snapshot", withAccount(numbered))).toMatchObject({
        status: 400,
        body: { error: { message: `records.account[${count}].id must be a string.` } },
      });
      const misspelt = {
        ...snapshot.records.account[0],
        id: "acc_misspelt",
        apiKey: "ik_test_misspelt_00000000001",
        webhookUrl: undefined,
        webHookUrl: null,
      };
      expect((await call("PUT", "/snapshot", withAccount(misspelt))).body.error.message).toMatch(
        new RegExp(
          `^Unknown field records\\.account\\[${count}\\]\\.webHookUrl: did you mean records\\.account\\[${count}\\]\\.webhookUrl\\?`,
        ),
      );
      expect(JSON.stringify((await call("GET", "/snapshot")).body.records)).toBe(before);
    });

    direct(
      "a snapshot whose JSON-text fields are not an object's JSON, or whose webhook secret is not one, is refused naming the field, and nothing changes",
      async () => {
        const snapshot = (await call("GET", "/snapshot")).body;
        const before = JSON.stringify(snapshot.records);
        const account = snapshot.records.account[0];
        const contact = {
          id: "ct_text",
          accountId: account.id,
          firstName: null,
          lastName: null,
          phone: null,
          email: "text@example.com",
          customFields: "[1, 2]",
          fromId: null,
          customChannel: null,
          botPaused: false,
          campaignId: null,
          createdAt: "2026-01-01T00:00:00.000Z",
        };
        const job = { id: "job_text", kind: "deliver", payload: "not json", runAt: null, key: null, createdAt: "2026-01-01T00:00:00.000Z" };
        const put = (records: object) => call("PUT", "/snapshot", { ...snapshot, records: { ...snapshot.records, ...records } });
        expect(await put({ contact: [...snapshot.records.contact, contact] })).toMatchObject({
          status: 400,
          body: {
            error: {
              code: "VALIDATION_ERROR",
              message: expect.stringMatching(/^records\.contact\[\d+\]\.customFields must be the JSON text of an object/),
            },
          },
        });
        expect(await put({ job: [...snapshot.records.job, job] })).toMatchObject({
          status: 400,
          body: { error: { message: expect.stringMatching(/^records\.job\[\d+\]\.payload must be the JSON text of an object/) } },
        });
        const secret = await put({ account: [{ ...account, webhookSecret: "abc!" }, ...snapshot.records.account.slice(1)] });
        expect(secret).toMatchObject({
          status: 400,
          body: { error: { message: expect.stringMatching(/^records\.account\[0\]\.webhookSecret /) } },
        });
        expect(JSON.stringify((await call("GET", "/snapshot")).body.records)).toBe(before);
      },
    );

    it("a seed that fails part-way changes nothing", async () => {
      const before = (await call("GET", "/accounts")).body.length;
      const bad = await call("POST", "/seed", {
        accounts: [
          { id: "acc_fine", name: "Fine" },
          { id: "acc_broken", name: "Broken", lists: [{ name: "L", campaignId: "cmp_missing" }] },
        ],
      });
      expect(bad.status).toBe(404);
      expect(bad.body.error.message).toMatch(/no campaign cmp_missing/);
      expect((await call("GET", "/accounts")).body.length).toBe(before);
      const dup = await call("POST", "/seed", { accounts: [{ name: "Dup", apiKey: KEYS.acme }] });
      expect(dup.status).toBe(409);
    });

    it("searches an account's contacts by phone, email or part of a name, a page at a time", async () => {
      const added = await call("POST", "/lists/lst_acme/contacts", {
        source: "manual",
        contacts: [
          { phone: "+14155550171", firstName: "Ada", lastName: "Lovelace", email: "Ada@Example.com" },
          { phone: "+14155550172", firstName: "Adam", lastName: "Smith" },
          { phone: "+14155550173", firstName: "Grace", lastName: "Hopper" },
        ],
      });
      expect(added.body.added).toBe(3);
      const search = async (q: string, extra = "") =>
        (await call("GET", `/contacts?accountId=acc_acme&q=${encodeURIComponent(q)}${extra}`)).body.map((c: any) => c.firstName);
      expect(await search("+14155550173")).toEqual(["Grace"]);
      expect((await call("GET", "/contacts?accountId=acc_acme&q=hopper")).body[0].listIds).toEqual(["lst_acme"]);
      expect(await search("ada@example.COM")).toEqual(["Ada"]);
      expect(await search("ada")).toEqual(["Ada", "Adam"]);
      expect(await search("ada", "&limit=1&offset=1")).toEqual(["Adam"]);
      expect(await search("hopper")).toEqual(["Grace"]);
      expect(await search("+19995550100")).toEqual([]);
      expect((await call("GET", "/contacts?accountId=acc_globex&q=ada")).body).toEqual([]);
      expect((await call("GET", "/contacts?q=")).status).toBe(400);
      // Newest first: the same contacts the other way round, paged from the newest.
      expect(await search("ada", "&order=newest")).toEqual(["Adam", "Ada"]);
      const names = async (query: string) => (await call("GET", `/contacts?accountId=acc_acme${query}`)).body.map((c: any) => c.firstName);
      const oldestFirst = await names("");
      expect(await names("&order=newest")).toEqual([...oldestFirst].reverse());
      expect(await names("&order=newest&limit=2")).toEqual(["Grace", "Adam"]);
      expect(await names("&order=newest&limit=2&offset=2")).toEqual([...oldestFirst].reverse().slice(2, 4));
      expect(await names(`&order=newest&offset=${oldestFirst.length}`)).toEqual([]);
      expect((await call("GET", "/contacts?accountId=acc_acme&order=latest")).status).toBe(400);
    });

    it("the real clock cannot be advanced", async () => {
      const clock = await call("GET", "/clock");
      if (clock.body.mode === "real") expect((await call("POST", "/clock/advance", { ms: 1000 })).status).toBe(409);
      else expect((await call("POST", "/clock/advance", { ms: 1000 })).status).toBe(200);
    });
  });
};
