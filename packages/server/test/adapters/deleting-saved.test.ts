// --data-file keeps a deletion: a contact, a list and a campaign deleted through the admin API (and
// a balance set) are gone after kill -9 and a restart, and nothing saved names them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { startCli, type CliRun } from "../support/spawn.js";

const TOKEN = "adm_deleting_saved_token_01";
const KEY = "ik_deleting_saved_key_000001";

const running: CliRun[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop("SIGKILL");
});

async function start(dataFile: string, args: string[] = []): Promise<CliRun> {
  const run = await startCli(["--port", "0", "--rate-limit", "0", "--admin-token", TOKEN, "--data-file", dataFile, ...args]);
  running.push(run);
  return run;
}

const adminOf = (run: CliRun) => async (method: string, path: string, body?: unknown) => {
  const response = await run.fetch(`${run.info.adminUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
};

describe("a deletion with --data-file", { timeout: 60_000 }, () => {
  it("is kept across kill -9 and a restart, with everything it took", async () => {
    const folder = mkdtempSync(join(tmpdir(), "intake-deleting-"));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const dataFile = join(folder, "state.db");
    const seed = join(folder, "seed.json");
    const account = {
      id: "acc_keep",
      name: "Keep",
      apiKey: KEY,
      credits: 10,
      campaigns: [
        { id: "cmp_gone", name: "Gone" },
        { id: "cmp_kept", name: "Kept" },
      ],
      contacts: [
        { id: "ct_gone", phone: "+14155550161" },
        { id: "ct_kept", phone: "+14155550162" },
      ],
      lists: [
        { id: "lst_kept", name: "Kept", campaignId: "cmp_gone", contactIds: ["ct_gone", "ct_kept"] },
        { id: "lst_gone", name: "Gone", contactIds: ["ct_kept"] },
      ],
    };
    writeFileSync(seed, JSON.stringify({ accounts: [account] }));
    const first = await start(dataFile, ["--seed", seed]);
    const admin = adminOf(first);
    expect((await admin("DELETE", "/contacts/ct_gone")).status).toBe(204);
    expect((await admin("DELETE", "/lists/lst_gone")).status).toBe(204);
    expect((await admin("DELETE", "/campaigns/cmp_gone")).status).toBe(204);
    expect((await admin("POST", "/accounts/acc_keep/credits", { balance: 0 })).body.balance).toBe(0);
    await first.stop("SIGKILL");
    running.splice(running.indexOf(first), 1);

    const again = adminOf(await start(dataFile));
    for (const path of ["/contacts/ct_gone", "/lists/lst_gone", "/campaigns/cmp_gone"])
      expect((await again("GET", path)).status, path).toBe(404);
    expect((await again("GET", "/lists/lst_kept")).body).toMatchObject({ campaignId: null, memberCount: 1 });
    expect((await again("GET", "/contacts/ct_kept")).body.listIds).toEqual(["lst_kept"]);
    expect((await again("GET", "/accounts/acc_keep")).body).toMatchObject({ defaultCampaignId: null, credits: 0 });
    const saved = JSON.stringify((await again("GET", "/snapshot")).body.records);
    for (const id of ["ct_gone", "lst_gone", "cmp_gone"]) expect(saved).not.toContain(id);
  });
});
