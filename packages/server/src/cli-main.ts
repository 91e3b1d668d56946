/**
 * intake-server: the reference server on HTTPS. Prints one JSON line on stdout (URLs, admin
 * token, certificate file) for programs, and, with --demo or --seed, the accounts' keys and a
 * curl line on stderr for people.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Seed } from "./domain/state.js";
import type { IntakeOptions } from "./app.js";
import type { Bot } from "./engine/bot.js";
import { fail, intakeOptionsOf, integer, modelBotOptionsOf, readArgs, USAGE } from "./cli/arguments.js";
import { botLine } from "./cli/bot-line.js";
import type { ModelBotOptions } from "./model-bot/options.js";
// Its check only: the module loads none of what makes a certificate until one is made.
import { defaultCertDir } from "./adapters/tls.js";
import { logLine, logs, type LogFormat, type LogLevel } from "./live/log-line.js";
import type { Intake } from "./app.js";
import { internals } from "./internals.js";
import type { DataFile } from "./adapters/data-file.js";

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

/** The model bot the flags ask for (loaded only then); a replay file that cannot be read, say, is a usage error. */
async function modelBot(options: ModelBotOptions | undefined): Promise<Bot | undefined> {
  if (!options) return undefined;
  const [{ createModelBot }, { missingKey }, { recordingFile }, { loadOpenAI }] = await Promise.all([
    import("./model-bot/model-bot.js"),
    import("./model-bot/options.js"),
    import("./adapters/recording-file.js"),
    import("./model-bot/openai-client.js"),
  ]);
  try {
    const bot = createModelBot(options, recordingFile);
    // Said at start, not at the first message: a replay needs no client, a live model does.
    if (!options.replay) await loadOpenAI("--model");
    const warning = missingKey(options);
    if (warning) process.stderr.write(`intake-server: ${warning}\n`);
    return bot;
  } catch (error) {
    fail((error as Error).message);
  }
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
  const { bodyChecker } = await import("./admin/validators.js");
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
  const args = readArgs();
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (args["print-demo-seed"]) return printDemoSeed();
  const log = args.log as LogLevel;
  const logFormat = args["log-format"] as LogFormat;
  const options: IntakeOptions = intakeOptionsOf(args);
  // The server's modules, the seed and the bot load only now: --help and usage errors answer at once.
  const [{ createIntake }, { serve }, { openDataFile, persist }, { sqlite }, { NotSavedError }, demo, { welcomeText }] = await Promise.all([
    import("./app.js"),
    import("./adapters/node.js"),
    import("./adapters/data-file.js"),
    import("./adapters/sqlite.js"),
    import("./durable/write-through.js"),
    import("./admin/demo-seed.js"),
    import("./cli/welcome.js"),
  ]);
  const seed = args.demo ? demo.DEMO_SEED : args.seed ? await readSeed(args.seed) : undefined;
  const bot = args.bot ? await loadBot(args.bot) : await modelBot(modelBotOptionsOf(args));
  const dataFile = args["data-file"];
  // An optional peer dependency: without it, --data-file says what to install (exit code 2).
  if (dataFile) sqlite("--data-file");
  // Claimed as it is opened: a second server must not even start the first one's pending work.
  const file = dataFile ? openDataFile(dataFile, { durability: args.durability as "full" | "normal" }) : undefined;
  process.once("exit", () => file?.close());

  // A commit that failed says what to do (free some space, say) in one line, not as an unexpected error's stack.
  const onError = (error: unknown) =>
    error instanceof NotSavedError
      ? process.stderr.write(`intake-server: ${error.message}\n`)
      : console.error("intake: unexpected error", error);
  // Written through from the turn the state is made in: restored jobs already due (work that fell
  // due while the server was down) run from the next microtask on, and what they change is saved
  // like any other change. A new data file holds the starting state at once, so a crash before any
  // change loses nothing.
  let restored = false;
  const { intake, persistence } = await loadState(file, async () => {
    const snapshot = file?.read();
    restored = snapshot !== undefined;
    // A seed's references (a list's campaignId, say) are checked as it is applied: the error names the file.
    const intake = seeded(snapshot ? undefined : args.seed, () => createIntake({ ...options, seed, bot, snapshot, onError }));
    // From the start: restored work that is due runs from the next microtask on.
    if (log !== "quiet") printEvents(intake, log, logFormat);
    return { intake, persistence: file ? persist(internals(intake), file) : undefined };
  });
  if (persistence?.keptJson) {
    process.stderr.write(
      `intake-server: ${dataFile} was an intake-snapshot/1 JSON file; it is now an SQLite database holding the same state, and the JSON is kept at ${persistence.keptJson}.\n`,
    );
  }
  const server = await serve(internals(intake), {
    host: args.host,
    port: integer("port", args.port),
    maxConnections: integer("max-connections", args["max-connections"]),
    maxConnectionsPerClient: integer("max-connections-per-client", args["max-connections-per-client"]),
    certFile: args["tls-cert"],
    keyFile: args["tls-key"],
    dataFile,
    certDir: args["cert-dir"] ?? defaultCertDir(),
  });
  // The token goes in the fragment: browsers never send it, so it reaches no request line or log.
  const dashboardUrl = `${server.dashboardUrl}#token=${encodeURIComponent(intake.adminToken)}`;

  // The demo's first conversation, its reply delivered to the inbox before the server says it is ready.
  if (args.demo && !restored) await demo.startDemo(intake.admin);

  // Ready for a stop before saying so: a program may send SIGTERM the moment it reads the line below.
  stopOnSignals(server, intake, persistence);

  if (server.certificateRenewed) {
    process.stderr.write(
      `intake-server: the certificate kept at ${server.certificatePath} was replaced (${server.certificateRenewed}); clients that trusted the old one must trust this file again.\n`,
    );
  }
  // People read which bot answers, the keys and a curl line; programs read the JSON line, which comes last so it marks "ready".
  const botInfo = await intake.admin.bot();
  process.stderr.write(`${botLine(botInfo, args.bot)}\n`);
  if (seed) {
    const { baseUrl, adminUrl, certificatePath: certificate } = server;
    process.stderr.write(
      welcomeText({
        baseUrl,
        adminUrl,
        adminToken: intake.adminToken,
        dashboardUrl,
        certificate,
        accounts: await intake.admin.accounts(),
        clock: { mode: intake.clock.mode, now: intake.clock.now() },
      }),
    );
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
      bot: botInfo,
      ...(args.demo ? { demoKeys: demo.DEMO_KEYS, demoWebhookSecrets: demo.DEMO_WEBHOOK_SECRETS } : {}),
    })}\n`,
  );
}

/** SIGINT and SIGTERM stop the server gracefully: the connections, then the work in flight, then the last save. */
function stopOnSignals(server: { close(): Promise<void> }, intake: Intake, persistence: { stop(): void } | undefined) {
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
}

/**
 * Prints what happens on stderr, a line an event. Lines written in the same turn go out in one
 * write: stderr is synchronous on a pipe, and a burst (an import) would otherwise cost a write each.
 */
function printEvents(intake: Intake, level: LogLevel, format: LogFormat) {
  // Under a virtual clock the day moves when the clock is advanced: each line says which it is.
  const dated = intake.clock.mode === "virtual";
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
      pending.push(`${logLine(format, entry.id, entry.event(), dated)}\n`);
    },
    end: () => (pending.length ? flush() : undefined),
  });
}

/** Creates the server; a data file holding a record the server refuses is named, with the record and what to do. */
async function loadState<T>(file: DataFile | undefined, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (error) {
    const refusal = file?.refusal(error);
    if (refusal) throw new Error(refusal, { cause: error });
    throw error;
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
