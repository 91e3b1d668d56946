// The intake-server command: its start line, --demo, usage errors, --data-file across restarts.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect, type TLSSocket } from "node:tls";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import selfsigned from "selfsigned";
import { Agent } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { startReceiver } from "../support/receiver.js";
import { runCli, startCli, type CliProcess, type CliRun } from "../support/spawn.js";

const running: CliRun[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.stop("SIGKILL");
});
async function start(args: string[], nodeArgs?: string[], how?: CliProcess) {
  const run = await startCli(args, nodeArgs, how);
  running.push(run);
  return run;
}
const dir = () => mkdtempSync(join(tmpdir(), "intake-cli-"));
/** A new folder holding cert.pem and key.pem: a certificate of the test's own for 127.0.0.1. */
async function ownCertificate() {
  const folder = dir();
  const pems = await selfsigned.generate([{ name: "commonName", value: "Own certificate" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  writeFileSync(join(folder, "cert.pem"), pems.cert);
  writeFileSync(join(folder, "key.pem"), pems.private);
  return folder;
}
const KEY = "ik_cli_test_key_00000000001";
const writeSeed = (seed: unknown) => {
  const file = join(dir(), "seed.json");
  writeFileSync(file, JSON.stringify(seed));
  return file;
};

function createContact(run: CliRun, phone: string) {
  return run.fetch(`${run.info.baseUrl}/contacts?apiKey=${KEY}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone }),
  });
}

// Each test starts the CLI from source (through tsx) one to three times: on a fresh machine, whose tsx
// cache is cold, with the suite's other files running, a start took up to ~12 s.
describe("intake-server", { timeout: 90_000 }, () => {
  it("prints one JSON line with the base URL, admin URL and token, and the certificate file; serves a seed file", async () => {
    const seedFile = join(dir(), "seed.yaml");
    writeFileSync(seedFile, `accounts:\n  - name: CLI test\n    apiKey: ${KEY}\n`);
    const run = await start(["--port", "0", "--seed", seedFile, "--admin-token", "adm_cli_token_000000"]);
    expect(run.info).toMatchObject({
      event: "listening",
      url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/),
      baseUrl: `${run.info.url}/v1`,
      adminUrl: `${run.info.url}/__admin`,
      adminToken: "adm_cli_token_000000",
      // Plain HTTP on loopback: a browser on this machine opens it with no certificate warning.
      dashboardUrl: `${run.info.url.replace("https://", "http://")}/__dashboard/#token=adm_cli_token_000000`,
      clock: "real",
      dataFile: null,
    });
    expect(run.stderr()).toContain(
      `Dashboard: ${run.info.dashboardUrl} (plain HTTP, for a browser on this machine only: no certificate to trust)\n`,
    );
    expect(readFileSync(run.info.certificate, "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect((await createContact(run, "+14155550123")).status).toBe(201);
    const accounts = await run.fetch(`${run.info.adminUrl}/accounts`, { headers: { authorization: "Bearer adm_cli_token_000000" } });
    expect((await accounts.json())[0]).toMatchObject({ name: "CLI test" });
  });

  it("--demo prints the demo keys and a curl line that works as pasted", async () => {
    const run = await start(["--demo", "--port", "0"]);
    expect(run.info.demoKeys).toMatchObject({ business: expect.stringMatching(/^ik_demo_/), agency: expect.stringMatching(/^ik_demo_/) });
    const stderr = run.stderr();
    expect(stderr).toContain(run.info.demoKeys!.business);
    const curl = stderr
      .split("\n")
      .find((line) => line.trim().startsWith("curl "))!
      .trim();
    expect(curl).toContain(`--cacert ${run.info.certificate}`);
    const hasCurl = await promisify(execFile)("curl", ["--version"]).then(
      () => true,
      () => false,
    );
    if (hasCurl) {
      const { stdout } = await promisify(execFile)("sh", ["-c", `${curl} -s -w ' %{http_code}'`]);
      expect(stdout).toMatch(/"phone":"\+14155550123".* 201$/);
    } else {
      // Without curl on the machine, replay the line's request exactly.
      const url = /'(https:[^']+)'/.exec(curl)![1]!;
      const body = /-d '([^']+)'/.exec(curl)![1]!;
      const response = await run.fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(response.status).toBe(201);
    }
    // The printed webhook secrets are the ones the demo accounts sign with.
    const secrets = run.info.demoWebhookSecrets!;
    const admin = { headers: { authorization: `Bearer ${run.info.adminToken}` } };
    const account = async (id: string) =>
      (await (await run.fetch(`${run.info.adminUrl}/accounts/${id}`, admin)).json()) as { webhookSecret: string };
    const signing = await Promise.all(["acc_acme", "acc_agency", "sub_client_one"].map(async (id) => (await account(id)).webhookSecret));
    expect(signing).toEqual([secrets.business, secrets.agency, secrets.subaccount]);
    // Every secret stderr shows people, the JSON line gives programs.
    const printed = [...stderr.matchAll(/whsec_\S+/g)].map(([secret]) => secret);
    expect(printed.length).toBeGreaterThan(0);
    expect(new Set(printed)).toEqual(new Set(Object.values(secrets)));
  });

  it("--demo runs on a virtual clock that starts at the time it starts, moved from the dashboard or the admin API, as its banner says", async () => {
    const before = Date.now();
    const run = await start(["--demo", "--port", "0"]);
    const after = Date.now();
    expect(run.info.clock).toBe("virtual");
    const auth = { authorization: `Bearer ${run.info.adminToken}` };
    const clock = async () =>
      (await (await run.fetch(`${run.info.adminUrl}/clock`, { headers: auth })).json()) as { mode: string; now: string };
    const started = Date.parse((await clock()).now);
    expect(started).toBeGreaterThanOrEqual(before);
    expect(started).toBeLessThanOrEqual(after);
    const banner = run.stderr();
    expect(banner).toContain(`Time: a virtual clock, now ${new Date(started).toISOString()}`);
    expect(banner).toContain("Queue & clock page (Advance a minute, an hour, a day)");
    expect(banner).toContain(`POST ${run.info.adminUrl}/clock/advance {"ms":86400000}`);
    // The line as printed moves it.
    const advanced = await run.fetch(`${run.info.adminUrl}/clock/advance`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ ms: 86_400_000 }),
    });
    expect(advanced.status).toBe(200);
    expect(Date.parse((await clock()).now)).toBe(started + 86_400_000);
  });

  it("--demo --clock real keeps the real clock, and its banner says so and how to get one to move", async () => {
    const run = await start(["--demo", "--port", "0", "--clock", "real"]);
    expect(run.info.clock).toBe("real");
    expect(run.stderr()).toContain(
      "Time: the real clock. Follow-ups wait real hours and days; to move time from the dashboard's Queue & clock page, start with --clock virtual.",
    );
  });

  it.each([
    [["--clock", "sometimes"], "--clock is real or virtual (got sometimes)."],
    [["--port=-1"], "--port takes a whole number, 0 or more (got -1)."],
    [["--bogus"], "Unknown option '--bogus'"],
    [["--clok", "virtual"], "Unknown option '--clok': did you mean --clock?"],
    [["--data-fle", "x.db"], "Unknown option '--data-fle': did you mean --data-file?"],
    [["--seed", "/nonexistent/seed.yaml"], "cannot read the seed file /nonexistent/seed.yaml"],
    [["--demo", "--seed", "x.json"], "--seed and --demo both give a starting state: choose one."],
    [["--max-connections", "0"], "--max-connections takes a whole number, 1 or more (got 0)."],
    [
      ["--max-connections-per-client", "0"],
      "--max-connections-per-client takes a whole number from 1 to --max-connections (1000) (got 0).",
    ],
    [
      ["--max-connections", "4", "--max-connections-per-client", "5"],
      "--max-connections-per-client takes a whole number from 1 to --max-connections (4) (got 5).",
    ],
  ])("%o exits 2 saying what is wrong", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it("--demo is ready with a first delivery delivered to the demo's inbox: its custom-channel lead wrote in and the bot's answer arrived, signed", async () => {
    const run = await start(["--demo", "--port", "0"]);
    const admin = async (path: string) =>
      (await (
        await run.fetch(`${run.info.adminUrl}${path}`, { headers: { authorization: `Bearer ${run.info.adminToken}` } })
      ).json()) as any;
    // Read as soon as the ready line is out: nothing waited for.
    const [delivery] = await admin("/deliveries?accountId=acc_acme");
    expect(delivery).toMatchObject({
      state: "delivered",
      url: "/__inbox/acc_acme",
      contact: { id: "ct_demo_grace", name: "Grace Hopper" },
      payload: { toId: "grace.hopper", channel: "site_chat" },
    });
    expect(delivery.payload.body).toMatch(/^Memberships start at 29 dollars/);
    const inbox = await admin("/inbox/acc_acme");
    expect(inbox.requests).toHaveLength(1);
    expect(inbox.requests[0]).toMatchObject({ webhookId: delivery.webhookId, signature: { verified: true }, answeredStatus: 200 });
    const [message] = await admin("/messages?contactId=ct_demo_grace&direction=inbound");
    expect(message).toMatchObject({
      source: "simulated",
      simulatedVia: "demo",
      body: "Hi! How much is a membership?",
      botOutcome: "replied",
    });
    // Every demo account's webhooks go to its own inbox.
    const accounts = await admin("/accounts");
    for (const account of accounts) expect(account.webhookUrl, account.id).toBe(`/__inbox/${account.id}`);
  });

  it(
    "--demo with --data-file: the inbox is not saved, and a restart from the file's state simulates nothing again",
    { timeout: 120_000 },
    async () => {
      const dataFile = join(dir(), "state.db");
      const get = async (run: CliRun, path: string) =>
        (await (
          await run.fetch(`${run.info.adminUrl}${path}`, { headers: { authorization: `Bearer ${run.info.adminToken}` } })
        ).json()) as any;
      const first = await start(["--demo", "--port", "0", "--data-file", dataFile]);
      expect((await get(first, "/inbox/acc_acme")).requests).toHaveLength(1);
      const [delivery] = await get(first, "/deliveries");
      expect(await first.stop("SIGTERM")).toBe(0);
      running.pop();

      const second = await start(["--demo", "--port", "0", "--data-file", dataFile]);
      expect(await get(second, "/deliveries")).toEqual([delivery]);
      expect(await get(second, "/messages?contactId=ct_demo_grace")).toHaveLength(2);
      expect((await get(second, "/inbox/acc_acme")).requests).toEqual([]);
    },
  );

  it("a data file under a file, not a folder, exits 2 saying what to do", async () => {
    const file = join(dir(), "plain");
    writeFileSync(file, "a file");
    const underAFile = join(file, "state.db");
    const notAFolder = await runCli(["--port", "0", "--data-file", underAFile]);
    expect(notAFolder.code).toBe(2);
    expect(notAFolder.stderr).toContain(`intake-server: Cannot write beside ${underAFile} (EEXIST: file already exists, mkdir`);
    expect(notAFolder.stderr).toContain("give --data-file a file in a folder this user can write");
    expect(notAFolder.stdout).not.toContain('"listening"');
  });

  it("a data file that is a folder exits 2 saying to give a file, and claims nothing", async () => {
    const folder = dir();
    const result = await runCli(["--port", "0", "--data-file", folder]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `intake-server: ${folder} is a folder: give --data-file a file, such as ${folder}/intake.db (made if missing).\n`,
    );
    expect(existsSync(`${folder}.lock`)).toBe(false);
  });

  it("--tls-cert without --tls-key exits saying both are needed, and starts nothing, not even a data file", async () => {
    const dataFile = join(dir(), "state.db");
    for (const half of [
      ["--tls-cert", join(dir(), "cert.pem")],
      ["--tls-key", join(dir(), "key.pem")],
    ]) {
      const result = await runCli(["--port", "0", "--data-file", dataFile, ...half]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--tls-cert and --tls-key go together: give both files.");
      expect(result.stdout).not.toContain('"listening"');
      expect(existsSync(dataFile)).toBe(false);
    }
  });

  it("a port in use exits saying so and what to do", async () => {
    const first = await start(["--port", "0"]);
    const port = new URL(first.info.url).port;
    const second = await runCli(["--port", port]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(
      `Port ${port} on 127.0.0.1 is in use: stop what holds it, or use port 0 (--port 0, or port: 0 in code) for any free port.`,
    );
    expect((await first.fetch(`${first.info.baseUrl}/contacts?apiKey=${KEY}&email=a%40b.co`)).status).toBe(401);
  });

  it("--tls-cert/--tls-key, --clock virtual, --clock-start and --rate-limit reach the server", async () => {
    const folder = await ownCertificate();
    const seedFile = join(folder, "seed.json");
    writeFileSync(seedFile, JSON.stringify({ accounts: [{ name: "Flags", apiKey: KEY }] }));
    const run = await start([
      "--port",
      "0",
      "--seed",
      seedFile,
      "--tls-cert",
      join(folder, "cert.pem"),
      "--tls-key",
      join(folder, "key.pem"),
      "--clock",
      "virtual",
      "--clock-start",
      "2030-05-01T12:00:00Z",
      "--rate-limit",
      "1",
    ]);
    expect(run.info.certificate).toBe(join(folder, "cert.pem"));
    expect(run.info.clock).toBe("virtual");
    const first = await createContact(run, "+14155550123");
    expect((await first.json()).createdAt).toBe("2030-05-01T12:00:00.000Z");
    expect((await createContact(run, "+14155550124")).status).toBe(429);
  });

  it("--max-connections caps the connections open at once: one past it is closed as it comes", async () => {
    const run = await start(["--port", "0", "--max-connections", "1"]);
    const ca = readFileSync(run.info.certificate, "utf8");
    const port = Number(new URL(run.info.url).port);
    const held = await new Promise<TLSSocket>((resolve) => {
      const socket = tlsConnect({ port, host: "127.0.0.1", ca, servername: "localhost" }, () => resolve(socket));
    });
    try {
      const refused = await new Promise<string>((resolve) => {
        let text = "";
        const socket = connect(port, "127.0.0.1", () => socket.write("GET /v1/contacts HTTP/1.1\r\nhost: x\r\n\r\n"));
        socket
          .on("data", (chunk) => (text += chunk))
          .on("error", () => {})
          .on("close", () => resolve(text));
      });
      expect(refused).toBe("");
    } finally {
      held.destroy();
    }
  });

  it("--max-connections-per-client sets one client's share (half of --max-connections by default)", async () => {
    const held: TLSSocket[] = [];
    try {
      for (const share of [undefined, "2"]) {
        const run = await start(["--port", "0", "--max-connections", "2", ...(share ? ["--max-connections-per-client", share] : [])]);
        const ca = readFileSync(run.info.certificate, "utf8");
        const port = Number(new URL(run.info.url).port);
        const opened = await Promise.all(
          [0, 1].map(
            () =>
              new Promise<TLSSocket | undefined>((resolve) => {
                const socket = tlsConnect({ port, host: "127.0.0.1", ca, servername: "localhost" }, () => resolve(socket));
                socket.on("error", () => {}).on("close", () => resolve(undefined));
              }),
          ),
        );
        held.push(...opened.filter((socket) => socket !== undefined));
        expect(opened.filter((socket) => socket !== undefined)).toHaveLength(share ? 2 : 1);
      }
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it("--fault rules apply from the start, and a bad one is refused", async () => {
    const seedFile = join(dir(), "seed.json");
    writeFileSync(seedFile, JSON.stringify({ accounts: [{ name: "Faulty", apiKey: KEY }] }));
    const run = await start([
      "--port",
      "0",
      "--seed",
      seedFile,
      "--fault",
      "createContact:status=503,times=1",
      "--fault",
      "findContact:drop",
      "--fault",
      "addContactToList:status=500,when=after",
    ]);
    const first = await createContact(run, "+14155550123");
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("1");
    expect((await createContact(run, "+14155550123")).status).toBe(201);
    const rules = await (
      await run.fetch(`${run.info.adminUrl}/faults`, { headers: { authorization: `Bearer ${run.info.adminToken}` } })
    ).json();
    expect(rules.map((rule: { operationId: string; when: string }) => [rule.operationId, rule.when])).toEqual([
      ["createContact", "before"],
      ["findContact", "before"],
      ["addContactToList", "after"],
    ]);
    await expect(run.fetch(`${run.info.baseUrl}/contacts?apiKey=${KEY}&email=a%40example.com`)).rejects.toThrow();
    const bad = await runCli(["--port", "0", "--fault", "createContact:explode=1"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--fault createContact:explode=1: unknown key explode");
  });

  it("--deterministic prints the same admin token on every run", async () => {
    const tokens = [];
    for (let i = 0; i < 2; i++) {
      const run = await start(["--port", "0", "--deterministic"]);
      tokens.push(run.info.adminToken);
      await run.stop();
      running.pop();
    }
    expect(tokens[1]).toBe(tokens[0]);
  });

  it("--demo --deterministic starts the demo's virtual clock at the same time on every run", async () => {
    const starts = [];
    for (let i = 0; i < 2; i++) {
      const run = await start(["--port", "0", "--demo", "--deterministic"]);
      const clock = await run.fetch(`${run.info.adminUrl}/clock`, { headers: { authorization: `Bearer ${run.info.adminToken}` } });
      starts.push(((await clock.json()) as { mode: string; now: string }).now);
      await run.stop();
      running.pop();
      // A start at the time it starts would differ between the two runs by at least this.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(starts[1]).toBe(starts[0]);
  });

  it("--help prints the options", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--data-file FILE");
  });

  it("answers --help and usage errors before loading the server, and loads no certificate generator for a certificate it is given or keeps", async () => {
    const probe = ["--import", fileURLToPath(new URL("../support/loaded-packages.mjs", import.meta.url))];
    const loaded = (stderr: string) =>
      [...stderr.matchAll(/^loaded packages: (.*)$/gm)].flatMap((line) => JSON.parse(line[1]!) as string[]);
    for (const args of [["--help"], ["--rate-limit", "lots"], ["--fault", "createContact:explode=1"]]) {
      const result = await runCli(args, probe);
      expect(result.code, args[0]).toBe(args[0] === "--help" ? 0 : 2);
      expect(loaded(result.stderr), args[0]).not.toContain("@mswjs/data");
    }
    const folder = await ownCertificate();
    const given = await start(["--port", "0", "--tls-cert", join(folder, "cert.pem"), "--tls-key", join(folder, "key.pem")], probe);
    expect(await given.stop("SIGTERM")).toBe(0);
    // The probe sees the server's storage load, and no selfsigned: the certificate given is used as it is.
    expect(loaded(given.stderr())).toContain("@mswjs/data");
    expect(loaded(given.stderr())).not.toContain("selfsigned");
    // Without one, a certificate is made, and the probe sees what makes it; the next start reuses it.
    const certDir = join(dir(), "certs");
    const made = await start(["--port", "0", "--cert-dir", certDir], probe);
    expect(await made.stop("SIGTERM")).toBe(0);
    expect(loaded(made.stderr())).toContain("selfsigned");
    const reused = await start(["--port", "0", "--cert-dir", certDir], probe);
    expect(await reused.stop("SIGTERM")).toBe(0);
    expect(loaded(reused.stderr())).not.toContain("selfsigned");
  });

  it("a bad seed file is refused with the field that is wrong", async () => {
    const seedFile = join(dir(), "seed.json");
    writeFileSync(seedFile, JSON.stringify({ accounts: [{ name: "x", kind: "reseller" }] }));
    const result = await runCli(["--port", "0", "--seed", seedFile]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${seedFile}: accounts[0].kind must be one of: standard, agency.`);
  });

  it("--data-file keeps the state and the certificate across a graceful restart", { timeout: 120_000 }, async () => {
    const dataFile = join(dir(), "state.db");
    const seedFile = join(dir(), "seed.json");
    writeFileSync(seedFile, JSON.stringify({ accounts: [{ name: "Persisted", apiKey: KEY }] }));
    const first = await start(["--port", "0", "--seed", seedFile, "--data-file", dataFile]);
    for (const phone of ["+14155550101", "+14155550102", "+14155550103"]) expect((await createContact(first, phone)).status).toBe(201);
    // One server keeps a data file at a time: a second stops at start, naming the first.
    const refused = await runCli(["--port", "0", "--data-file", dataFile]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `intake-server: ${dataFile} is in use by another server (process ${first.info.pid}; ${dataFile}.lock): stop it, or give this one another --data-file.`,
    );
    expect(await first.stop("SIGTERM")).toBe(0);
    running.pop();
    // Readable with any SQLite tool: a table per kind of record, each row the record as JSON.
    const db = new Database(dataFile, { readonly: true });
    const phones = db.prepare("SELECT json_extract(record, '$.phone') FROM contacts ORDER BY rowid").pluck().all();
    db.close();
    expect(phones).toEqual(["+14155550101", "+14155550102", "+14155550103"]);
    expect(existsSync(`${dataFile}.lock`)).toBe(false);

    const second = await start(["--port", "0", "--data-file", dataFile]);
    expect(readFileSync(second.info.certificate, "utf8")).toBe(readFileSync(`${dataFile}.cert.pem`, "utf8"));
    const found = await second.fetch(`${second.info.baseUrl}/contacts?apiKey=${KEY}&phoneNumber=%2B14155550102`);
    expect(found.status).toBe(200);
    expect((await createContact(second, "+14155550101")).status).toBe(200);
  });

  it(
    "--max-media, --max-account-media and --allow-http-webhooks reach the server; the media held is counted again after a restart",
    { timeout: 120_000 },
    async () => {
      const dataFile = join(dir(), "state.db");
      const seedFile = writeSeed({ accounts: [{ id: "acc_media", name: "Media", apiKey: KEY }] });
      const args = ["--port", "0", "--data-file", dataFile, "--max-media", "1KiB", "--max-account-media", "2KiB", "--allow-http-webhooks"];
      const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
      const receive = (run: CliRun, sid: string, size: number) =>
        run.fetch(`${run.info.baseUrl}/incoming_custom_channel_message?apiKey=${KEY}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            customData: {
              messageSid: sid,
              fromId: "u",
              toId: "t",
              body: "x",
              mediaUrl: `data:image/png;base64,${Buffer.concat([png, Buffer.alloc(size - png.length)]).toString("base64")}`,
              mediaContentType: "image/png",
            },
          }),
        });
      const first = await start([...args, "--seed", seedFile]);
      expect((await receive(first, "S-1", 1025)).status).toBe(400);
      expect((await receive(first, "S-1", 1024)).status).toBe(200);
      expect((await receive(first, "S-2", 1024)).status).toBe(200);
      const patch = await first.fetch(`${first.info.adminUrl}/accounts/acc_media`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${first.info.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ webhookUrl: "http://hooks.example.com/intake" }),
      });
      expect(patch.status).toBe(200);
      expect(await first.stop("SIGTERM")).toBe(0);
      running.pop();

      const second = await start(args);
      const full = await receive(second, "S-3", 100);
      expect(full.status).toBe(413);
      expect(((await full.json()) as { error: string }).error).toContain(
        "already hold 2048 bytes (2 KiB) of media; the file in customData.mediaUrl, 100 bytes,",
      );
      const bad = await runCli(["--port", "0", "--max-media", "5MB"]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(
        "--max-media takes a size: a number of bytes, or a number with KiB, MiB or GiB, such as 5MiB (got 5MB).",
      );
    },
  );

  it("a data file with a record of an account it does not have stops the start, naming the file, the row and what to do", async () => {
    const dataFile = join(dir(), "state.db");
    const first = await start([
      "--port",
      "0",
      "--data-file",
      dataFile,
      "--seed",
      writeSeed({ accounts: [{ id: "acc_kept", name: "Kept", apiKey: KEY }] }),
    ]);
    expect(await first.stop("SIGTERM")).toBe(0);
    running.pop();
    const db = new Database(dataFile);
    const orphan = { id: "lst_orphan", accountId: "acc_gone", name: "Orphan", campaignId: null, createdAt: "2026-01-01T00:00:00.000Z" };
    db.prepare("INSERT INTO lists (id, record) VALUES (?, ?)").run(orphan.id, JSON.stringify(orphan));
    db.close();
    const refused = await runCli(["--port", "0", "--data-file", dataFile]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `intake-server: ${dataFile} holds a record this server cannot load, the row lst_orphan of lists: records.list[0].accountId names account acc_gone, which these records do not have. Fix or delete that row (sqlite3 ${dataFile}), or restore the file from a copy.\n`,
    );
    expect(existsSync(`${dataFile}.lock`)).toBe(false);
  });

  it("keeps its generated certificate in one place across restarts, so a client that trusts that file once keeps working", async () => {
    const certDir = join(dir(), "certs");
    const first = await start(["--port", "0", "--cert-dir", certDir]);
    expect(first.info.certificate).toBe(join(certDir, "localhost.cert.pem"));
    const trusted = readFileSync(first.info.certificate, "utf8");
    await first.stop("SIGTERM");
    // INTAKE_CERT_DIR names the folder when --cert-dir does not (the tests set it for every CLI they start).
    expect(process.env.INTAKE_CERT_DIR).toBeTruthy();
    const second = await start(["--port", "0"], [], { env: { INTAKE_CERT_DIR: certDir } });
    expect(second.info.certificate).toBe(first.info.certificate);
    const agent = new Agent({ connect: { ca: trusted } });
    try {
      const answer = await fetch(`${second.info.baseUrl}/contacts?apiKey=ik_nobody_00000000000&email=a%40example.com`, {
        dispatcher: agent,
      } as RequestInit);
      expect(answer.status).toBe(401);
    } finally {
      await agent.close();
    }
  });

  it("a kept certificate that does not name a new --host is replaced, and stderr says clients must trust it again", async () => {
    const dataFile = join(dir(), "state.db");
    const first = await start(["--port", "0", "--data-file", dataFile]);
    const kept = readFileSync(first.info.certificate, "utf8");
    // Stopped as soon as it said it was listening: a graceful stop, the data file saved.
    expect(await first.stop("SIGTERM")).toBe(0);
    running.pop();

    const second = await start(["--port", "0", "--host", "127.0.0.2", "--data-file", dataFile]);
    expect(second.stderr()).toContain(`the certificate kept at ${dataFile}.cert.pem was replaced (it is not for 127.0.0.2)`);
    expect(readFileSync(second.info.certificate, "utf8")).not.toBe(kept);
    expect((await second.fetch(`${second.info.baseUrl}/contacts?apiKey=${KEY}&email=a%40b.co`)).status).toBe(401);
  });

  it("--data-file keeps a virtual clock's time through a kill -9, is readable by its owner only, and drops a half-made file", async () => {
    const folder = dir();
    const dataFile = join(folder, "state.db");
    // What a start killed while it made a new data file leaves behind.
    writeFileSync(`${dataFile}.creating`, "half a database");
    const first = await start(["--port", "0", "--clock", "virtual", "--data-file", dataFile]);
    const auth = { authorization: `Bearer ${first.info.adminToken}`, "content-type": "application/json" };
    const advanced = await first.fetch(`${first.info.adminUrl}/clock/advance`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ ms: 86_400_000 }),
    });
    expect(advanced.status).toBe(200);
    for (const file of [dataFile, `${dataFile}-wal`, `${dataFile}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${dataFile}.creating`)).toBe(false);
    await first.stop("SIGKILL");
    running.pop();
    const second = await start(["--port", "0", "--clock", "virtual", "--data-file", dataFile]);
    const clock = await second.fetch(`${second.info.adminUrl}/clock`, { headers: { authorization: `Bearer ${second.info.adminToken}` } });
    expect((await clock.json()).now).toBe("2026-01-02T00:00:00.000Z");
  });

  it("pending webhook deliveries and queued opening messages resume after a graceful restart", { timeout: 120_000 }, async () => {
    const hooks = await startReceiver();
    try {
      hooks.answer(() => ({ status: 503 }));
      const folder = dir();
      const dataFile = join(folder, "state.db");
      const seedFile = join(folder, "seed.json");
      writeFileSync(
        seedFile,
        JSON.stringify({
          accounts: [
            {
              name: "Restart",
              apiKey: KEY,
              webhookUrl: hooks.url,
              credits: 100,
              campaigns: [
                {
                  id: "cmp_r",
                  name: "R",
                  state: "Live",
                  triggerOnNewListContacts: true,
                  openingTemplate: { body: "Hi {{firstName}}", approval: "approved" },
                  followUps: { enabled: true, delaysHours: [1], cycles: 1, messagesPerCycle: 1 },
                },
              ],
              lists: [{ id: "lst_r", name: "R", campaignId: "cmp_r" }],
            },
          ],
        }),
      );
      const args = ["--port", "0", "--clock", "virtual", "--data-file", dataFile];
      const first = await start([...args, "--seed", seedFile, "--admin-token", "adm_restart_token"]);
      const admin = (run: CliRun, method: string, path: string, body?: unknown) =>
        run
          .fetch(`${run.info.adminUrl}${path}`, {
            method,
            headers: { authorization: "Bearer adm_restart_token", "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          })
          .then((r) => r.json());
      await first.fetch(`${first.info.baseUrl}/incoming_custom_channel_message?apiKey=${KEY}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customData: { messageSid: "SM-1", fromId: "u1", toId: "t", body: "hi" } }),
      });
      const contacts = Array.from({ length: 5 }, (_, i) => ({ phone: `+1415555020${i}` }));
      await admin(first, "POST", "/lists/lst_r/contacts", { contacts });
      await admin(first, "POST", "/settle");
      expect(hooks.received).toHaveLength(1);
      // The bot's reply failed once; one opening went at once (its follow-up is due in an hour); four are queued.
      expect((await admin(first, "GET", "/jobs")).map((j: { kind: string }) => j.kind).sort()).toEqual([
        "deliver",
        "follow_up",
        "opening",
        "opening",
        "opening",
        "opening",
      ]);
      expect(await first.stop("SIGTERM")).toBe(0);
      running.pop();

      hooks.answer(() => ({ status: 200 }));
      const second = await start([...args, "--admin-token", "adm_restart_token"]);
      expect((await admin(second, "GET", "/jobs")).length).toBe(6);
      await admin(second, "POST", "/clock/advance", { ms: 60_000 });
      expect(hooks.received).toHaveLength(2);
      expect(hooks.received[1]!.headers["webhook-id"]).toBe(hooks.received[0]!.headers["webhook-id"]);
      expect((await admin(second, "GET", "/deliveries"))[0]).toMatchObject({ state: "delivered" });
      const bySource = async (source: string) =>
        (await admin(second, "GET", "/messages")).filter((m: { source: string }) => m.source === source);
      expect((await bySource("opening")).map((m: { status: string }) => m.status)).toEqual(["sent", "sent", "sent", "sent", "sent"]);
      // Each opening scheduled a follow-up an hour later; those stored before the stop came back too.
      expect((await admin(second, "GET", "/jobs")).map((j: { kind: string }) => j.kind)).toEqual(Array(5).fill("follow_up"));
      await admin(second, "POST", "/clock/advance", { ms: 3_600_000 });
      expect(await bySource("follow_up")).toHaveLength(5);
      expect(await admin(second, "GET", "/jobs")).toEqual([]);
      // 100 - 2 (first message and bot reply to u1) - 5 openings.
      expect((await admin(second, "GET", "/accounts")).find((a: { name: string }) => a.name === "Restart").credits).toBe(93);
    } finally {
      await hooks.close();
    }
  });
});

// The CLI serves in its own process: a signal sent to it, or a kill -9, reaches the server itself.
describe("intake-server's process", { timeout: 90_000 }, () => {
  it("is the one its start line names; SIGINT and SIGTERM stop it gracefully, SIGHUP ends it as a hang-up does", async () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const run = await start(["--port", "0"]);
      expect(run.info.pid).toBe(run.child.pid);
      expect(await run.stop(signal)).toBe(0);
      expect(run.stderr().match(new RegExp(`${signal}, shutting down`, "g"))).toHaveLength(1);
    }
    const hungUp = await start(["--port", "0"]);
    expect(await hungUp.stop("SIGHUP")).toBeNull();
    expect(hungUp.child.signalCode).toBe("SIGHUP");
  });

  it("keeps its data file from a second CLI, which exits 2 naming it; after a kill -9 the next start takes the file over", async () => {
    const dataFile = join(dir(), "state.db");
    const first = await start(["--port", "0", "--data-file", dataFile]);
    const refused = await runCli(["--port", "0", "--data-file", dataFile]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `intake-server: ${dataFile} is in use by another server (process ${first.info.pid}; ${dataFile}.lock)`,
    );
    // stop() resolves on the child's exit, once this process has reaped it: its pid runs no more.
    expect(await first.stop("SIGKILL")).toBeNull();
    expect(existsSync(`${dataFile}.lock`)).toBe(true);

    const second = await start(["--port", "0", "--data-file", dataFile]);
    expect(readFileSync(`${dataFile}.lock`, "utf8")).toBe(`${second.info.pid} ${hostname()}\n`);
    expect(await second.stop("SIGTERM")).toBe(0);
    expect(existsSync(`${dataFile}.lock`)).toBe(false);
  });
});
