// intake-server --log and --log-format: what happens, a line each on stderr, for people or programs.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, startCli, type CliRun } from "../support/spawn.js";

const KEY = "ik_cli_log_key_00000000001";
const TOKEN = "adm_cli_log_token_00000";
const running: CliRun[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop("SIGKILL");
});

async function start(args: string[], account: Record<string, unknown> = {}) {
  const seed = join(mkdtempSync(join(tmpdir(), "intake-log-")), "seed.json");
  writeFileSync(seed, JSON.stringify({ accounts: [{ id: "acc_log", name: "Log", apiKey: KEY, ...account }] }));
  const run = await startCli(["--port", "0", "--seed", seed, "--admin-token", TOKEN, "--clock", "virtual", ...args]);
  running.push(run);
  const v1 = (path: string, init: RequestInit = {}) => run.fetch(`${run.info.baseUrl}${path}`, init);
  const created = async (email: string) => {
    const response = await v1(`/contacts?apiKey=${KEY}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    return ((await response.json()) as { id: string }).id;
  };
  const advance = (ms = 1000) =>
    run.fetch(`${run.info.adminUrl}/clock/advance`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ ms }),
    });
  return { run, v1, created, advance };
}

/** Stderr after the welcome that --seed prints at start (its keys are for the person who started it): what --log adds. */
const logged = (run: CliRun) =>
  run
    .stderr()
    .split(/^Node clients: NODE_EXTRA_CA_CERTS=.*\n/m)
    .at(-1)!;

describe("intake-server --log", { timeout: 90_000 }, () => {
  it("by default prints a readable line per happening and per failed request, never a key", async () => {
    const { run, v1, created, advance } = await start([]);
    const id = await created("ada@example.com");
    await v1(`/contacts/${id}?apiKey=${KEY}x`);
    await advance();
    await expect.poll(() => logged(run)).toMatch(/clock advanced to 2026-01-01T00:00:01\.000Z/);
    const lines = logged(run).trim().split("\n");
    // Under the virtual clock a line carries the date too: its days move when the clock is advanced.
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^2026-01-01 00:00:00\\.000 acc_log +contact ${id} created$`)));
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`GET /v1/contacts/${id} -> 4\\d\\d [A-Z_]+ in \\d+(?:\\.\\d+)? ms \\(req_\\w+\\)$`)),
    );
    // A request answered 2xx is a debug line.
    expect(logged(run)).not.toContain("POST /v1/contacts");
    expect(logged(run)).not.toContain(KEY);
    expect(logged(run)).not.toContain(TOKEN);
  });

  it("dates each line on the virtual clock, so a day advanced shows as the next day", async () => {
    const { run, created, advance } = await start([]);
    await advance(86_400_000);
    const id = await created("next-day@example.com");
    await expect.poll(() => logged(run)).toMatch(new RegExp(`^2026-01-02 00:00:00\\.000 acc_log +contact ${id} created$`, "m"));
  });

  it("--log debug --log-format json prints every event as one JSON object a line", async () => {
    const { run, created } = await start(["--log", "debug", "--log-format", "json"]);
    const id = await created("grace@example.com");
    await expect.poll(() => logged(run)).toContain('"request.answered"');
    const events = logged(run)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "contact.created", contactId: id, accountId: "acc_log", id: expect.any(Number) }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: "request.answered", method: "POST", path: "/v1/contacts", status: 201, code: null }),
    );
    expect(logged(run)).not.toContain(KEY);
  });

  it("--log quiet prints nothing after the start line", async () => {
    const { run, v1, created, advance } = await start(["--log", "quiet"]);
    await created("quiet@example.com");
    await v1(`/contacts/nope?apiKey=${KEY}`);
    await advance();
    // Given the server time to print had it meant to: a debug run prints these within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(run.stderr()).toContain("NODE_EXTRA_CA_CERTS=");
    expect(logged(run)).toBe("");
    expect(run.info.event).toBe("listening");
  });

  it("prints the studio's happenings at info (what the inbox received, a list joined, settings changed), and their small steps only at debug", async () => {
    const { run } = await start([]);
    const admin = async (method: string, path: string, body?: unknown) => {
      const init = {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      };
      return (await (await run.fetch(`${run.info.adminUrl}${path}`, init)).json()) as any;
    };
    await admin("PATCH", "/accounts/acc_log", { webhookUrl: "/__inbox/acc_log" });
    const test = await admin("POST", "/accounts/acc_log/test-webhook");
    const list = await admin("POST", "/lists", { accountId: "acc_log", name: "Leads" });
    await admin("POST", `/lists/${list.id}/contacts`, { contacts: [{ email: "lea@example.com" }] });
    await admin("POST", "/accounts/acc_log/credits", { amount: 5 });
    await expect.poll(() => logged(run)).toMatch(/joined list/);
    const lines = logged(run).trim().split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/ acc_log +account updated$/));
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(` acc_log +inbox inb_\\w+ received webhook ${test.webhookId}: signature verified, answered 200$`)),
    );
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(` acc_log +list ${list.id} created$`)));
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(` acc_log +contact ct_\\w+ joined list ${list.id} \\((manual|import)\\)$`)),
    );
    // A credit charge is a debug line.
    expect(logged(run)).not.toContain("credits +5");
  });

  it("--log-format json keeps a webhook receiver's answer on its attempt's line, its terminal controls escaped: parsed, it is the answer as sent", async () => {
    const forged = "Oops\n00:00:01.000 acc_log        webhook dlv_x attempt 1: HTTP 200, delivered\u001b[2J\u009b2J\u2028";
    const receiver = createServer((_, res) => res.writeHead(500, { "content-type": "text/plain" }).end(forged));
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const { run, v1 } = await start(["--log-format", "json"], {
        webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        credits: 10,
        campaigns: [{ id: "cmp_log", name: "Log", type: "Combined", state: "Live", goal: "Book a call." }],
      });
      const response = await v1(`/incoming_custom_channel_message?apiKey=${KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData: { messageSid: "SM-1", fromId: "u1", toId: "log", body: "Hi" } }),
      });
      expect(response.status).toBe(200);
      await expect.poll(() => logged(run)).toContain('"delivery.attempted"');
      // Raw, a C1 control (U+009B is ESC [ in one character) or a line separator would reach the terminal.
      expect(logged(run)).not.toMatch(/[\u007f-\u009f\u2028]/);
      const events = logged(run)
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(events).toContainEqual(expect.objectContaining({ type: "delivery.attempted", status: 500, error: `HTTP 500: ${forged}` }));
    } finally {
      receiver.closeAllConnections();
      receiver.close();
    }
  });

  it("refuses a --log or --log-format it does not know", async () => {
    const level = await runCli(["--log", "loud"]);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain("--log is quiet, info or debug (got loud).");
    const format = await runCli(["--log-format", "xml"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--log-format is text or json (got xml).");
  });
});
