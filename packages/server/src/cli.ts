#!/usr/bin/env node
/**
 * intake-server: the reference server on HTTPS. Prints one JSON line on stdout (URLs, admin
 * token, certificate file) for programs, and, with --demo or --seed, the accounts' keys and a
 * curl line on stderr for people.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { Seed } from "./admin/service.js";
import type { IntakeOptions } from "./app.js";
import type { Bot } from "./engine/bot.js";
import type { FaultRuleInput } from "./http/faults.js";
// Its check only: the module loads none of what makes a certificate until one is made.
import { defaultCertDir, halfPair } from "./adapters/tls.js";
import { LOG_FORMATS, LOG_LEVELS, logLine, logs, type LogFormat, type LogLevel } from "./live/log-line.js";
import type { Intake } from "./app.js";

const USAGE = `Usage: intake-server [options]

  --host HOST            address to listen on (default 127.0.0.1)
  --port N               port; 0 picks a free one (default 8443)
  --max-connections N    connections open at once; more are closed as they come (default 1000)
  --seed FILE            accounts, campaigns, lists and contacts to start with (JSON or YAML)
  --demo                 start with the built-in demo seed (and print its keys)
  --print-demo-seed      write the demo seed as YAML on stdout (a seed file to edit) and exit
  --data-file FILE       keep the state in FILE, an SQLite database, across restarts and crashes
  --durability full|normal
                         full: each commit reaches the disk (survives a machine crash; default);
                         normal: survives a crash of the server's process only, and costs less
  --admin-token TOKEN    the token /__admin requires (default: random, printed)
  --clock real|virtual   a virtual clock only moves through POST /__admin/clock/advance
  --clock-start ISO      where a virtual clock starts (default 2026-01-01T00:00:00Z)
  --deterministic        ids from counters and a virtual clock: repeatable responses
  --rate-limit N         requests per API key per minute; 0 turns it off (default 120)
  --journal-size N       requests the journal keeps (default 1000)
  --tls-cert FILE        serve this certificate (with --tls-key) instead of generating one
  --tls-key FILE
  --cert-dir DIR         where a generated certificate is kept between runs (default
                         $INTAKE_CERT_DIR, else ~/.cache/intake-server or $XDG_CACHE_HOME's)
  --trust-proxy          believe X-Forwarded-Proto (behind a TLS-terminating proxy)
  --max-media SIZE       largest file one received message embeds (default 5MiB); SIZE is
                         bytes, or a number with KiB, MiB or GiB
  --max-account-media SIZE
                         most bytes of embedded files one account's messages hold (default 256MiB)
  --bot FILE             a module whose default export is the bot: (input) => { reply } | { handOff } | null
  --webhook-attempts N   attempts per webhook before it fails (default 6)
  --webhook-timeout MS   time a webhook receiver has to answer (default 10000)
  --funnel-rate N        queued opening messages per campaign per minute (default 6)
  --duplicate-recharge-webhooks
                         send each auto-recharge webhook twice, with the same idempotency_key
  --allow-http-webhooks  accept http:// webhook URLs to any host (default: https://, and http://
                         to localhost, 127.0.0.0/8 or [::1] only)
  --log quiet|info|debug what happens, a line each on stderr: info (default) shows contacts,
                         messages, bot outcomes, webhook attempts, alerts, the clock and
                         failed requests; debug adds every request and job; quiet, none
  --log-format text|json lines for people (default) or one JSON object a line for programs
  --fault SPEC           inject a fault (repeatable): [operationId|*:]key[=value],...
                         keys: latencyMs=MS status=429|500|502|503|504 retryAfter=S drop rate=0..1 times=N
                         (the admin API's FaultRuleInput fields; latency= is kept as latencyMs)
                         e.g. --fault createContact:status=503,rate=0.5  --fault '*:latencyMs=200'
  --help
`;

function fail(message: string): never {
  process.stderr.write(`intake-server: ${message}\n`);
  process.exit(2);
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} takes a whole number, 0 or more (got ${value}).`);
  return n;
}

/** `createContact:status=503,rate=0.5` -> a fault rule; without `op:`, every operation. */
function parseFault(spec: string): FaultRuleInput {
  const colon = spec.indexOf(":");
  const looksLikeKeys = colon === -1 || spec.slice(0, colon).includes("=");
  const operationId = looksLikeKeys ? "*" : spec.slice(0, colon);
  const rule: Record<string, unknown> = { operationId };
  for (const part of (looksLikeKeys ? spec : spec.slice(colon + 1)).split(",").filter(Boolean)) {
    const [key, value] = part.split("=") as [string, string | undefined];
    const number = Number(value);
    switch (key) {
      // The flag's first spelling, kept: the API's field (and the code's) is latencyMs.
      case "latency":
        rule.latencyMs = number;
        break;
      case "latencyMs":
      case "status":
      case "retryAfter":
      case "rate":
      case "times":
        rule[key] = number;
        break;
      case "drop":
        rule.drop = value === undefined || value === "true";
        break;
      default:
        fail(`--fault ${spec}: unknown key ${key} (latencyMs, status, retryAfter, drop, rate, times).`);
    }
    if (value !== undefined && key !== "drop" && !Number.isFinite(number)) fail(`--fault ${spec}: ${key} takes a number.`);
  }
  return rule as FaultRuleInput;
}

const UNITS: Record<string, number> = { "": 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** `5MiB`, `512KiB` or a number of bytes. */
function size(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]ib)?$/i.exec(value.trim());
  const bytes = match ? Math.floor(Number(match[1]) * UNITS[(match[2] ?? "").toLowerCase()]!) : NaN;
  if (!Number.isSafeInteger(bytes)) fail(`--${name} takes a size: a number of bytes, or a number with KiB, MiB or GiB, such as 5MiB (got ${value}).`);
  return bytes;
}

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) fail(`--${name} takes a positive number (got ${value}).`);
  return n;
}

async function loadBot(path: string): Promise<Bot> {
  let module: { default?: unknown; bot?: unknown };
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as typeof module;
  } catch (error) {
    fail(`cannot load the bot module ${path}: ${(error as Error).message}`);
  }
  const bot = module.default ?? module.bot;
  if (typeof bot !== "function") fail(`the bot module ${path} must export a function (default export, or one named bot).`);
  return bot as Bot;
}

/** A seed file, checked as POST /__admin/seed checks its body, its errors naming the file. */
async function readSeed(path: string): Promise<Seed> {
  let seed: unknown;
  try {
    const text = readFileSync(path, "utf8");
    // JSON through JSON.parse: the YAML parser reads it too, but many times slower for a big file.
    seed = /\.json$/i.test(path) ? JSON.parse(text) : (await import("yaml")).parse(text);
  } catch (error) {
    fail(`cannot read the seed file ${path}: ${(error as Error).message}`);
  }
  const { bodyChecker } = await import("./admin/http.js");
  try {
    bodyChecker("applySeed", path)(seed);
  } catch (error) {
    fail((error as Error).message);
  }
  return seed as Seed;
}

async function printDemoSeed() {
  const [{ stringify }, { DEMO_SEED }] = await Promise.all([import("yaml"), import("./admin/demo-seed.js")]);
  process.stdout.write(
    `# The demo seed (intake-server --demo): start from it with intake-server --seed FILE.\n# Its fields are the admin API's Seed schema: GET /__admin/openapi.json.\n${stringify(DEMO_SEED, { lineWidth: 0 })}`,
  );
}

async function main() {
  let args;
  try {
    args = parseArgs({
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "8443" },
        "max-connections": { type: "string" },
        seed: { type: "string" },
        demo: { type: "boolean", default: false },
        "print-demo-seed": { type: "boolean", default: false },
        "data-file": { type: "string" },
        durability: { type: "string", default: "full" },
        "admin-token": { type: "string" },
        clock: { type: "string", default: "real" },
        "clock-start": { type: "string" },
        deterministic: { type: "boolean", default: false },
        "rate-limit": { type: "string" },
        "journal-size": { type: "string" },
        "tls-cert": { type: "string" },
        "tls-key": { type: "string" },
        "cert-dir": { type: "string" },
        "trust-proxy": { type: "boolean", default: false },
        "max-media": { type: "string" },
        "max-account-media": { type: "string" },
        "allow-http-webhooks": { type: "boolean", default: false },
        bot: { type: "string" },
        "webhook-attempts": { type: "string" },
        "webhook-timeout": { type: "string" },
        "funnel-rate": { type: "string" },
        "duplicate-recharge-webhooks": { type: "boolean", default: false },
        fault: { type: "string", multiple: true },
        log: { type: "string", default: "info" },
        "log-format": { type: "string", default: "text" },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (args["print-demo-seed"]) return printDemoSeed();
  if (args.clock !== "real" && args.clock !== "virtual") fail(`--clock is real or virtual (got ${args.clock}).`);
  if (args.seed && args.demo) fail("--seed and --demo both give a starting state: choose one.");
  const log = args.log as LogLevel;
  if (!LOG_LEVELS.includes(log)) fail(`--log is quiet, info or debug (got ${args.log}).`);
  const logFormat = args["log-format"] as LogFormat;
  if (!LOG_FORMATS.includes(logFormat)) fail(`--log-format is text or json (got ${args["log-format"]}).`);
  if (args.durability !== "full" && args.durability !== "normal") fail(`--durability is full or normal (got ${args.durability}).`);
  if (args.durability !== "full" && !args["data-file"]) fail("--durability applies to a --data-file: give one, or leave --durability out.");
  const half = halfPair(args["tls-cert"], args["tls-key"]);
  if (half) fail(half);
  const port = integer("port", args.port);
  const maxConnections = integer("max-connections", args["max-connections"]);
  if (maxConnections === 0) fail("--max-connections takes a whole number, 1 or more (got 0).");
  const options = {
    adminToken: args["admin-token"],
    clock: args.clock as "real" | "virtual",
    clockStart: args["clock-start"],
    deterministic: args.deterministic,
    rateLimit: integer("rate-limit", args["rate-limit"]),
    journalSize: integer("journal-size", args["journal-size"]),
    trustForwardedProto: args["trust-proxy"],
    maxMediaBytes: size("max-media", args["max-media"]),
    maxAccountMediaBytes: size("max-account-media", args["max-account-media"]),
    allowHttpWebhooks: args["allow-http-webhooks"],
    webhooks: {
      ...(args["webhook-attempts"] ? { maxAttempts: positive("webhook-attempts", args["webhook-attempts"]) } : {}),
      ...(args["webhook-timeout"] ? { timeoutMs: positive("webhook-timeout", args["webhook-timeout"]) } : {}),
    },
    funnel: args["funnel-rate"] ? { queueIntervalMs: 60_000 / positive("funnel-rate", args["funnel-rate"]) } : {},
    duplicateRechargeWebhooks: args["duplicate-recharge-webhooks"],
    faults: (args.fault ?? []).map(parseFault),
  } satisfies IntakeOptions;
  // The server's modules, the seed and the bot load only now: --help and usage errors answer at once.
  const [{ createIntake }, { serve }, { openDataFile }, { persist, NotSavedError }, demo, { welcomeText }] = await Promise.all([
    import("./app.js"),
    import("./adapters/node.js"),
    import("./adapters/data-file.js"),
    import("./adapters/write-through.js"),
    import("./admin/demo-seed.js"),
    import("./welcome.js"),
  ]);
  const seed = args.demo ? demo.DEMO_SEED : args.seed ? await readSeed(args.seed) : undefined;
  const bot = args.bot ? await loadBot(args.bot) : undefined;
  const dataFile = args["data-file"];
  // Claimed as it is opened: a second server must not even start the first one's pending work.
  const file = dataFile ? openDataFile(dataFile, { durability: args.durability }) : undefined;
  process.once("exit", () => file?.close());

  // A commit that failed says what to do (free some space, say) in one line, not as an unexpected error's stack.
  const onError = (error: unknown) =>
    error instanceof NotSavedError ? process.stderr.write(`intake-server: ${error.message}\n`) : console.error("intake: unexpected error", error);
  // Written through from the turn the state is made in: restored jobs already due (work that fell
  // due while the server was down) run from the next microtask on, and what they change is saved
  // like any other change. A new data file holds the starting state at once, so a crash before any
  // change loses nothing.
  const { intake, persistence } = await loadState(dataFile, async () => {
    const snapshot = file?.read();
    // A seed's references (a list's campaignId, say) are checked as it is applied: the error names the file.
    const intake = seeded(snapshot ? undefined : args.seed, () => createIntake({ ...options, seed, bot, snapshot, onError }));
    // From the start: restored work that is due runs from the next microtask on.
    if (log !== "quiet") printEvents(intake, log, logFormat);
    return { intake, persistence: file ? persist(intake, file) : undefined };
  });
  if (persistence?.keptJson) {
    process.stderr.write(`intake-server: ${dataFile} was an intake-snapshot/1 JSON file; it is now an SQLite database holding the same state, and the JSON is kept at ${persistence.keptJson}.\n`);
  }
  const server = await serve(intake, {
    host: args.host,
    port,
    maxConnections,
    certFile: args["tls-cert"],
    keyFile: args["tls-key"],
    dataFile,
    certDir: args["cert-dir"] ?? defaultCertDir(),
    trustForwardedProto: args["trust-proxy"],
  });
  // The token goes in the fragment: browsers never send it, so it reaches no request line or log.
  const dashboardUrl = `${server.dashboardUrl}#token=${encodeURIComponent(intake.adminToken)}`;

  // Ready for a stop before saying so: a program may send SIGTERM the moment it reads the line below.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`intake-server: ${signal}, shutting down\n`);
    await server.close();
    // Webhook attempts in flight finish (and are recorded) before the last save.
    await intake.close();
    let code = 0;
    try {
      persistence?.stop();
    } catch (error) {
      process.stderr.write(`intake-server: ${(error as Error).message}\n`);
      code = 1;
    }
    process.exit(code);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  if (server.certificateRenewed) {
    process.stderr.write(
      `intake-server: the certificate kept at ${server.certificatePath} was replaced (${server.certificateRenewed}); clients that trusted the old one must trust this file again.\n`,
    );
  }
  // People read the keys and a curl line; programs read the JSON line, which comes last so it marks "ready".
  if (seed) {
    const { baseUrl, adminUrl, certificatePath: certificate } = server;
    process.stderr.write(welcomeText({ baseUrl, adminUrl, adminToken: intake.adminToken, dashboardUrl, certificate, accounts: intake.admin.listAccounts() }));
  } else {
    process.stderr.write(`Dashboard: ${dashboardUrl}\n`);
  }
  process.stdout.write(
    `${JSON.stringify({
      event: "listening",
      pid: process.pid,
      url: server.origin,
      baseUrl: server.baseUrl,
      adminUrl: server.adminUrl,
      adminToken: intake.adminToken,
      dashboardUrl,
      certificate: server.certificatePath,
      dataFile: dataFile ?? null,
      clock: intake.clock.mode,
      ...(args.demo ? { demoKeys: demo.DEMO_KEYS, demoWebhookSecrets: demo.DEMO_WEBHOOK_SECRETS } : {}),
    })}\n`,
  );
}

/**
 * Prints what happens on stderr, a line an event. Lines written in the same turn go out in one
 * write: stderr is synchronous on a pipe, and a burst (an import) would otherwise cost a write each.
 */
function printEvents(intake: Intake, level: LogLevel, format: LogFormat) {
  let pending: string[] = [];
  const flush = () => {
    const text = pending.join("");
    pending = [];
    process.stderr.write(text);
  };
  intake.subscribe({
    deliver(entry) {
      if (!logs(level, entry)) return;
      if (pending.length === 0) setImmediate(flush);
      pending.push(`${logLine(format, entry.id, entry.event())}\n`);
    },
    end: () => (pending.length ? flush() : undefined),
  });
}

/** Creates the server; a data file whose records cannot be loaded is named, with what to do. */
async function loadState<T>(dataFile: string | undefined, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    if (!dataFile || !/^The records could not be loaded/.test((error as Error).message)) throw error;
    throw new Error(`${dataFile} holds a state this server cannot load (${(error as Error).message.replace(/\. Nothing was changed\.$/, "")}). Move it away to start empty, or fix the record it names.`, { cause: error });
  }
}

/** Runs `create`; an error in applying the seed file names the file. */
function seeded<T>(seedFile: string | undefined, create: () => T): T {
  try {
    return create();
  } catch (error) {
    if (seedFile) fail(`${seedFile}: ${(error as Error).message}`);
    throw error;
  }
}

main().catch((error: unknown) => fail((error as Error).message));
