/**
 * intake-server's command line: its options, their usage text, and what they ask of the service.
 * Loads nothing of the server, so --help and usage errors answer at once.
 */
import { parseArgs } from "node:util";
import { closestMatch } from "leven";
import { halfPair } from "../adapters/tls.js";
import type { FaultRuleInput } from "../faults/faults.js";
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "../live/log-line.js";
import type { ModelBotOptions } from "../model-bot/options.js";

export const USAGE = `Usage: intake-server [options]

  --host HOST            address to listen on (default 127.0.0.1)
  --port N               port; 0 picks a free one (default 8443)
  --max-connections N    connections open at once; more are closed as they come (default 1000)
  --max-connections-per-client N
                         connections one client address may hold at once; its next ones are
                         closed as they come (default half of --max-connections, rounded up)
  --seed FILE            accounts, campaigns, lists and contacts to start with (JSON or YAML)
  --demo                 start with the built-in demo seed (and print its keys)
  --print-demo-seed      write the demo seed as YAML on stdout (a seed file to edit) and exit
  --data-file FILE       keep the state in FILE, an SQLite database, across restarts and crashes
  --durability full|normal
                         full: each commit reaches the disk (survives a machine crash; default);
                         normal: survives a crash of the server's process only, and costs less
  --admin-token TOKEN    the token /__admin requires (default: random, printed)
  --clock real|virtual   a virtual clock only moves when told to: the dashboard's Queue & clock
                         page, or POST /__admin/clock/advance (default real; virtual with --demo)
  --clock-start ISO      where a virtual clock starts (default 2026-01-01T00:00:00Z; with --demo,
                         the time the server starts)
  --deterministic        ids from counters and a virtual clock: repeatable responses
  --rate-limit N         requests per API key per minute, on real time whatever the clock; 0 turns
                         it off (default 120; 0 with --deterministic)
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
  --model NAME           a model answers, on an OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio,
                         vLLM, llama.cpp), from the campaign's fields (docs/model-bot.md)
  --model-base-url URL   the endpoint (default $OPENAI_BASE_URL, else https://api.openai.com/v1)
  --model-key KEY        its API key (default $OPENAI_API_KEY; none for one on this machine)
  --model-timeout MS     time one message's call may take (default 30000)
  --model-max-tokens N   the cap on an answer's tokens (default 400)
  --model-history N      the conversation's latest messages the model sees (default 20)
  --model-record FILE    keep every answer in FILE (created, or added to), to replay in CI
  --model-replay FILE    answer from FILE only, made with --model-record: no endpoint, no key
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
                         when=before|after (after: the operation is applied, then its answer lost)
                         (the admin API's FaultRuleInput fields; latency= is kept as latencyMs)
                         e.g. --fault createContact:status=503,rate=0.5  --fault '*:latencyMs=200'
  --help
`;

export function fail(message: string): never {
  process.stderr.write(`intake-server: ${message}\n`);
  process.exit(2);
}

export function integer(name: string, value: string | undefined): number | undefined {
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
      case "when":
        rule.when = value;
        break;
      default:
        fail(`--fault ${spec}: unknown key ${key} (latencyMs, status, retryAfter, drop, when, rate, times).`);
    }
    if (value !== undefined && key !== "drop" && key !== "when" && !Number.isFinite(number))
      fail(`--fault ${spec}: ${key} takes a number.`);
  }
  return rule as FaultRuleInput;
}

const UNITS: Record<string, number> = { "": 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** `5MiB`, `512KiB` or a number of bytes. */
function size(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]ib)?$/i.exec(value.trim());
  const bytes = match ? Math.floor(Number(match[1]) * UNITS[(match[2] ?? "").toLowerCase()]!) : NaN;
  if (!Number.isSafeInteger(bytes))
    fail(`--${name} takes a size: a number of bytes, or a number with KiB, MiB or GiB, such as 5MiB (got ${value}).`);
  return bytes;
}

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) fail(`--${name} takes a positive number (got ${value}).`);
  return n;
}

/** The command line's options, as node:util's parseArgs takes them. */
const OPTIONS = {
  host: { type: "string", default: "127.0.0.1" },
  port: { type: "string", default: "8443" },
  "max-connections": { type: "string" },
  "max-connections-per-client": { type: "string" },
  seed: { type: "string" },
  demo: { type: "boolean", default: false },
  "print-demo-seed": { type: "boolean", default: false },
  "data-file": { type: "string" },
  durability: { type: "string", default: "full" },
  "admin-token": { type: "string" },
  // No default here: --demo's differs (clockOf).
  clock: { type: "string" },
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
  model: { type: "string" },
  "model-base-url": { type: "string" },
  "model-key": { type: "string" },
  "model-timeout": { type: "string" },
  "model-max-tokens": { type: "string" },
  "model-history": { type: "string" },
  "model-record": { type: "string" },
  "model-replay": { type: "string" },
  "webhook-attempts": { type: "string" },
  "webhook-timeout": { type: "string" },
  "funnel-rate": { type: "string" },
  "duplicate-recharge-webhooks": { type: "boolean", default: false },
  fault: { type: "string", multiple: true },
  log: { type: "string", default: "info" },
  "log-format": { type: "string", default: "text" },
  help: { type: "boolean", default: false },
} as const;

export type Args = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>["values"];

/** For an unknown option, the nearest known one (`--clok`: ": did you mean --clock?"), else nothing. */
function didYouMean(error: unknown): string {
  if ((error as { code?: string }).code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return "";
  const given = /'(-{1,2}[^'=]+)/.exec((error as Error).message)?.[1]?.replace(/^-+/, "");
  const near = given ? closestMatch(given, Object.keys(OPTIONS), { maxDistance: Math.max(2, Math.floor(given.length / 3)) }) : undefined;
  return near ? `: did you mean --${near}?` : "";
}

/** The command line, checked: a usage error exits 2 saying what is wrong. */
export function readArgs(): Args {
  let args: Args;
  try {
    args = parseArgs({ options: OPTIONS, strict: true }).values;
  } catch (error) {
    fail(`${(error as Error).message}${didYouMean(error)}\n\n${USAGE}`);
  }
  if (args.clock !== undefined && args.clock !== "real" && args.clock !== "virtual")
    fail(`--clock is real or virtual (got ${args.clock}).`);
  if (args.seed && args.demo) fail("--seed and --demo both give a starting state: choose one.");
  if (!LOG_LEVELS.includes(args.log as LogLevel)) fail(`--log is quiet, info or debug (got ${args.log}).`);
  if (!LOG_FORMATS.includes(args["log-format"] as LogFormat)) fail(`--log-format is text or json (got ${args["log-format"]}).`);
  if (args.durability !== "full" && args.durability !== "normal") fail(`--durability is full or normal (got ${args.durability}).`);
  if (args.durability !== "full" && !args["data-file"]) fail("--durability applies to a --data-file: give one, or leave --durability out.");
  const half = halfPair(args["tls-cert"], args["tls-key"]);
  if (half) fail(half);
  const maxConnections = integer("max-connections", args["max-connections"]);
  if (maxConnections === 0) fail("--max-connections takes a whole number, 1 or more (got 0).");
  const perClient = integer("max-connections-per-client", args["max-connections-per-client"]);
  if (perClient !== undefined && (perClient < 1 || perClient > (maxConnections ?? 1000))) {
    fail(`--max-connections-per-client takes a whole number from 1 to --max-connections (${maxConnections ?? 1000}) (got ${perClient}).`);
  }
  checkModelArgs(args);
  return args;
}

const MODEL_FLAGS = [
  "model-base-url",
  "model-key",
  "model-timeout",
  "model-max-tokens",
  "model-history",
  "model-record",
  "model-replay",
] as const;

/** The model bot's flags: each needs --model, which excludes --bot; record and replay are two modes. */
function checkModelArgs(args: Args) {
  const given = MODEL_FLAGS.find((flag) => args[flag] !== undefined);
  if (args.model === undefined) {
    if (given) fail(`--${given} is a setting of the model bot: give --model NAME too.`);
    return;
  }
  if (!args.model.trim()) fail("--model takes the model's name, as the endpoint knows it (e.g. gpt-4o-mini, llama3.2).");
  if (args.bot !== undefined) fail("--bot and --model both choose the bot: give one.");
  if (args["model-record"] !== undefined && args["model-replay"] !== undefined) {
    fail("--model-record and --model-replay are two modes: record a rehearsal against an endpoint, or replay one with none; give one.");
  }
  for (const flag of ["model-timeout", "model-max-tokens", "model-history"] as const) {
    const value = args[flag];
    if (value !== undefined && !(Number.isInteger(Number(value)) && Number(value) >= 1))
      fail(`--${flag} takes a whole number, 1 or more (got ${value}).`);
  }
}

/** What the model bot's flags ask for (createModelBot's options), or undefined without --model. */
export function modelBotOptionsOf(args: Args): ModelBotOptions | undefined {
  if (args.model === undefined) return undefined;
  return {
    model: args.model,
    baseUrl: args["model-base-url"],
    apiKey: args["model-key"],
    timeoutMs: integer("model-timeout", args["model-timeout"]),
    maxTokens: integer("model-max-tokens", args["model-max-tokens"]),
    historyLimit: integer("model-history", args["model-history"]),
    record: args["model-record"],
    replay: args["model-replay"],
  };
}

/**
 * The clock the flags ask for. The demo is for rehearsing a funnel, whose follow-ups come after
 * quiet days: it runs on a virtual clock the dashboard can move, starting at the time it starts so
 * its records read as today's (with `--deterministic`, the fixed start). `--clock real` keeps the real one.
 */
function clockOf(args: Args): { clock: "real" | "virtual"; clockStart: string | number | undefined } {
  const clock = (args.clock ?? (args.demo ? "virtual" : "real")) as "real" | "virtual";
  // --deterministic keeps the fixed start its repeatable responses need.
  const clockStart = args["clock-start"] ?? (args.demo && clock === "virtual" && !args.deterministic ? Date.now() : undefined);
  return { clock, clockStart };
}

/** What the flags ask of the service. */
export function intakeOptionsOf(args: Args) {
  return {
    adminToken: args["admin-token"],
    ...clockOf(args),
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
  };
}
