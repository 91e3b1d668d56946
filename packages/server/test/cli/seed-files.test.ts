// Seed files through the intake-server command: the examples/seeds ones and --print-demo-seed's run
// a funnel as started; a mistake in a seed or an admin body is named by file, path and a did-you-mean.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startCli, type CliRun } from "../support/spawn.js";

const running: CliRun[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop("SIGKILL");
});
async function start(args: string[]) {
  const run = await startCli(args);
  running.push(run);
  return run;
}
const seeds = fileURLToPath(new URL("../../../../examples/seeds/", import.meta.url));
const file = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "intake-seed-")), name);
  writeFileSync(path, text);
  return path;
};

function client(run: CliRun) {
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await run.fetch(url, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as any };
  };
  const admin = (method: string, path: string, body?: unknown) =>
    call(method, `${run.info.adminUrl}${path}`, body, { authorization: `Bearer ${run.info.adminToken}` });
  const v1 = (method: string, path: string, key: string, body?: unknown) =>
    call(method, `${run.info.baseUrl}${path}${path.includes("?") ? "&" : "?"}apiKey=${key}`, body);
  return { admin, v1 };
}

// Each case starts the CLI from source (through tsx): a cold start on a busy machine takes seconds.
describe("seed files", { timeout: 90_000 }, () => {
  it.each([
    [
      "examples/seeds/funnel.yaml",
      () => join(seeds, "funnel.yaml"),
      "ik_seed_funnel_studio_0001",
      "lst_trial_leads",
      /^Hi Grace, thanks for asking about Harbour Yoga/,
    ],
    [
      "examples/seeds/agency.yaml",
      () => join(seeds, "agency.yaml"),
      "ik_seed_sub_smile_dental_01",
      "lst_checkup_due",
      /^Hi Grace, it's time for your check-up/,
    ],
    [
      "--print-demo-seed's output",
      async () => {
        const printed = await runCli(["--print-demo-seed"]);
        expect(printed.code).toBe(0);
        return file("demo.yaml", printed.stdout);
      },
      "ik_demo_business_7Hq2xK9mPwRt4wBn",
      "lst_spring_leads",
      /^Hi Grace, thanks for your interest in Acme Fitness/,
    ],
  ])("%s starts a funnel that works, and the keys it needs are printed", async (_name, seedFile, key, listId, opening) => {
    const run = await start(["--port", "0", "--seed", await seedFile()]);
    const { admin, v1 } = client(run);

    // What a person needs, on stderr: every account's key, the admin URL and token, a curl line.
    const stderr = run.stderr();
    for (const account of (await admin("GET", "/accounts")).body) expect(stderr).toContain(account.apiKey);
    expect(stderr).toContain(run.info.adminUrl);
    expect(stderr).toContain(run.info.adminToken);
    expect(stderr).toMatch(new RegExp(`^ {2}curl --cacert \\S+ -X POST '${run.info.baseUrl}/contacts\\?apiKey=`, "m"));

    // The funnel: a contact added to the list gets the campaign's opening message.
    const contact = await v1("POST", "/contacts", key, { phone: "+14155550123", firstName: "Grace" });
    expect(contact.status).toBe(201);
    expect((await v1("POST", `/lists/${listId}/contacts`, key, { contactId: contact.body.id })).status).toBe(201);
    const sent = await admin("GET", `/messages?contactId=${contact.body.id}&direction=outbound`);
    expect(sent.body).toHaveLength(1);
    expect(sent.body[0].body).toMatch(opening);
  });

  it("a field misspelt in a YAML seed is named by file and path, with a did-you-mean", async () => {
    const seed = file("seed.yaml", "accounts:\n  - name: X\n    apikey: ik_seed_test_key_0000001\n");
    const { code, stderr } = await runCli(["--port", "0", "--seed", seed]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${seed}: Unknown field accounts[0].apikey: did you mean accounts[0].apiKey? Allowed in accounts[0]: id, kind, name,`,
    );
  });

  it("a field misspelt inside a campaign of a JSON seed is named by its path", async () => {
    const seed = file(
      "seed.json",
      JSON.stringify({ accounts: [{ name: "X", campaigns: [{ name: "C", openingTemplte: { body: "Hi", approval: "approved" } }] }] }),
    );
    const { code, stderr } = await runCli(["--port", "0", "--seed", seed]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${seed}: Unknown field accounts[0].campaigns[0].openingTemplte: did you mean accounts[0].campaigns[0].openingTemplate?`,
    );
  });

  it("a wrong value is named by path and what was expected; a broken reference names the file", async () => {
    const typed = file("seed.yaml", "accounts:\n  - name: X\n    subaccounts:\n      - email: not-an-email\n");
    expect((await runCli(["--port", "0", "--seed", typed])).stderr).toContain(
      `${typed}: accounts[0].subaccounts[0].email must be a valid email address`,
    );
    const dangling = file("seed.yaml", "accounts:\n  - name: X\n    lists: [{ name: L, campaignId: cmp_nope }]\n");
    const { code, stderr } = await runCli(["--port", "0", "--seed", dangling]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`${dangling}: .*cmp_nope`));
  });

  it("a webhookUrl to the inbox of no account is refused, with a did-you-mean; a later account's inbox is fine", async () => {
    const seed = file("seed.yaml", "accounts:\n  - { id: acc_shop, name: Shop, webhookUrl: /__inbox/acc_shopp }\n");
    const { code, stderr } = await runCli(["--port", "0", "--seed", seed]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${seed}: Seed account acc_shop: webhookUrl /__inbox/acc_shopp is the inbox of no account here: did you mean /__inbox/acc_shop?`,
    );
    const forward = file("seed.yaml", "accounts:\n  - { id: acc_a, name: A, webhookUrl: /__inbox/acc_b }\n  - { id: acc_b, name: B }\n");
    const run = await start(["--port", "0", "--seed", forward]);
    expect((await client(run).admin("GET", "/accounts/acc_a")).body.webhookUrl).toBe("/__inbox/acc_b");
  });

  it("a misspelt campaignId (a list's, the default campaign's) gets a did-you-mean", async () => {
    const campaigns = "    campaigns: [{ id: cmp_trial, name: Trial }]\n";
    const listed = file(
      "seed.yaml",
      `accounts:\n  - id: acc_x\n    name: X\n${campaigns}    lists: [{ id: lst_x, name: L, campaignId: cmp_trail }]\n`,
    );
    const list = await runCli(["--port", "0", "--seed", listed]);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain(`${listed}: List lst_x: no campaign cmp_trail in account acc_x: did you mean cmp_trial?`);
    const defaulted = file("seed.yaml", `accounts:\n  - id: acc_x\n    name: X\n${campaigns}    defaultCampaignId: cmp_tria\n`);
    const account = await runCli(["--port", "0", "--seed", defaulted]);
    expect(account.code).toBe(2);
    expect(account.stderr).toContain(
      `${defaulted}: Account acc_x's defaultCampaignId: no campaign cmp_tria in account acc_x: did you mean cmp_trial?`,
    );
  });

  it("a snapshot given as a seed is named as one, with how to load it", async () => {
    const snapshot = {
      format: "intake-snapshot/1",
      savedAt: "2026-01-01T00:00:00.000Z",
      clock: { mode: "virtual", now: "2026-01-01T00:00:00.000Z" },
      ids: null,
      records: {},
    };
    const seed = file("state.json", JSON.stringify(snapshot));
    const { code, stderr } = await runCli(["--port", "0", "--seed", seed]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${seed}: This is a snapshot (format intake-snapshot/1, what GET /__admin/snapshot gives), not a seed. Load it with PUT /__admin/snapshot`,
    );
    expect(stderr).not.toContain("Unknown field");
  });

  it("an unknown placeholder in a campaign's texts is refused, with a did-you-mean", async () => {
    const seed = file(
      "seed.yaml",
      "accounts:\n  - name: X\n    campaigns:\n      - { id: cmp_x, name: C, openingTemplate: { body: 'Hi {{first_name}}, welcome!', approval: approved } }\n",
    );
    const { code, stderr } = await runCli(["--port", "0", "--seed", seed]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `${seed}: Campaign cmp_x: openingTemplate.body has an unknown placeholder {{first_name}}: did you mean {{firstName}}?`,
    );
  });

  it("a .json seed is read as JSON (its errors are JSON's)", async () => {
    const seed = file("seed.json", '{"accounts": [{"name": "X",}]}');
    const { code, stderr } = await runCli(["--port", "0", "--seed", seed]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`cannot read the seed file ${seed}: .*JSON`));
  });
});

describe("admin bodies and --fault", { timeout: 90_000 }, () => {
  it("PUT /__admin/faults with latency is 400 suggesting latencyMs, and POST /__admin/seed names the path; nothing changes", async () => {
    const run = await start(["--port", "0", "--fault", "*:latencyMs=5", "--fault", "createContact:latency=7"]);
    const { admin } = client(run);
    // --fault takes the API's latencyMs, and latency= as its alias.
    const before = (await admin("GET", "/faults")).body;
    expect(before.map((rule: { latencyMs: number }) => rule.latencyMs)).toEqual([5, 7]);

    const faults = await admin("PUT", "/faults", [{ latency: 200 }]);
    expect(faults).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR" } } });
    expect(faults.body.error.message).toMatch(
      /^Unknown field \[0\]\.latency: did you mean \[0\]\.latencyMs\? Allowed in \[0\]: operationId, latencyMs, status/,
    );
    expect((await admin("GET", "/faults")).body).toEqual(before);

    const seed = await admin("POST", "/seed", { accounts: [{ name: "X", apikey: "ik_seed_test_key_0000001" }] });
    expect(seed.status).toBe(400);
    expect(seed.body.error.message).toMatch(/^Unknown field accounts\[0\]\.apikey: did you mean accounts\[0\]\.apiKey\?/);
    expect((await admin("GET", "/accounts")).body).toEqual([]);
  });
});
