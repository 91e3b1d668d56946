/**
 * createIntake: the whole service as a fetch-style function, `(Request) => Promise<Response>`,
 * plus its admin API as a typed client, the clock and close(). Nothing here is Node-specific: the
 * msw handlers wrap `fetch`; the node adapter hands requests to `handle`, the same function on the
 * core's own request and response shapes, one of the parts only adapters use (internals.ts).
 *
 * The parts, and how news travels between them: every change goes through domain/ and is told
 * on the one event stream, which the engine, the journal, the live feed, the rate limiter and the
 * fault rules (on a reset) and the data file (adapters/write-through.ts) subscribe to.
 */
import { createAdminClient, type AdminClient } from "./admin/client.js";
import { operations as adminOperations, type AdminDeps } from "./admin/operations.js";
import { adminValidator, bodyChecker } from "./admin/validators.js";
import { operations as apiOperations } from "./api/operations.js";
import { apiValidator } from "./api/validators.js";
import { UNBOUNDED } from "./domain/capacity.js";
import { createDomain, type Domain } from "./domain/domain.js";
import { configuredSecrets, redactorOf } from "./domain/secrets.js";
import { applySeed, loadSnapshot, snapshot, type Seed, type Snapshot } from "./domain/state.js";
import type { FetchLike } from "./engine/delivery.js";
import { createEngine, type EngineOptions } from "./engine/index.js";
import type { EventSource } from "./events/stream.js";
import { adminDocument } from "./generated/admin-document.js";
import type { DashboardFiles } from "./http/steps/serve-dashboard.js";
import { fromFetchRequest, toFetchResponse } from "./contract/exchange.js";
import { Faults, type FaultRuleInput } from "./faults/faults.js";
import { createFrontDoor } from "./http/front-door.js";
import type { AdminOperation } from "./http/steps/run-admin-operation.js";
import { answerHolds } from "./http/steps/hold-answer.js";
import { createRateLimiter } from "./http/rate-limiter.js";
import { EventFeed, type Subscriber } from "./live/feed.js";
import { feedLiveEvents } from "./live/feed-events.js";
import { Journal } from "./live/journal.js";
import { STREAM_DEFAULTS, checkedLimits, eventStream } from "./live/sse.js";
import { realClock, virtualClock, VIRTUAL_EPOCH, type Clock, type VirtualClock } from "./shared/clock.js";
import { deterministicIds, randomIds, serialIds, type IdState } from "./shared/ids.js";
import { attachInternals } from "./internals.js";
import { IN_PROCESS_ORIGIN } from "./shared/webhook-url.js";
import { Inbox } from "./inbox/inbox.js";

export interface IntakeOptions extends EngineOptions {
  /**
   * For outgoing webhooks. Default: globalThis.fetch, looked up at each call. Webhooks to the
   * server's own inbox (a URL `/__inbox/<accountId>`) do not go through it: the core answers them.
   */
  fetch?: FetchLike | undefined;
  /** Each auto-recharge webhook is sent twice (same idempotency_key), to prove receivers de-duplicate. */
  duplicateRechargeWebhooks?: boolean | undefined;
  /**
   * Let webhook URLs (webhookUrl, autoRechargeUrl) be plain http:// to any host. Default false:
   * https:// to any host, http:// only to a loopback one (localhost, 127.0.0.0/8, [::1]).
   */
  allowHttpWebhooks?: boolean | undefined;
  /** Accounts, campaigns, lists and contacts to start with (and to go back to on reset). */
  seed?: Seed | undefined;
  /** A snapshot to start from instead of the seed (what a data file holds, or GET /__admin/snapshot gave). */
  snapshot?: Snapshot | undefined;
  /** The token /__admin requires. Default: a random one. */
  adminToken?: string | undefined;
  /** "real" (default), "virtual" (advanced through the admin API), or a clock of your own. */
  clock?: "real" | "virtual" | Clock | undefined;
  /** Where a virtual clock starts. Default 2026-01-01T00:00:00.000Z. */
  clockStart?: string | number | undefined;
  /**
   * Ids from counters, secrets from a seeded generator, time from a virtual clock: two runs of
   * the same test give byte-identical responses.
   */
  deterministic?: boolean | { seed?: number | undefined } | undefined;
  /**
   * Requests per API key per minute (per `rateLimitWindowMs`). Default 120, or 0 (off) with
   * `deterministic`, whose answers would otherwise differ by their RateLimit-Reset; 0 turns the
   * limit off. Counted on real time whatever the clock, so waiting the advertised Retry-After
   * always works.
   */
  rateLimit?: number | undefined;
  /**
   * The rate limit's window, in ms (1000 or more). Default 60 000, the interface's minute; shorter
   * lets a suite test its 429 handling without waiting a minute.
   */
  rateLimitWindowMs?: number | undefined;
  /** How many requests the journal keeps. Default 1000. */
  journalSize?: number | undefined;
  /** Largest request body. Default 32 MiB. */
  maxBodyBytes?: number | undefined;
  /**
   * Largest file one received message may embed as a data URL, decoded (a message carries one).
   * Default 5 MiB. Larger is 400.
   */
  maxMediaBytes?: number | undefined;
  /**
   * Most bytes of files (decoded data URLs) an account's stored messages may hold together; a
   * message that would go past it is 413. Default 256 MiB.
   */
  maxAccountMediaBytes?: number | undefined;
  /**
   * Most contacts and most messages the state holds (a hosted sandbox's capacity): a request that
   * would add one past it is answered 507 SANDBOX_FULL. The service's own messages (bot replies,
   * openings, follow-ups) are never refused. Default: no bound.
   */
  capacity?: { contacts?: number | undefined; messages?: number | undefined } | undefined;
  /** How long an Idempotency-Key is remembered. Default 24 hours. */
  idempotencyTtlMs?: number | undefined;
  /**
   * Where the service is mounted on its origin: every path is under it (`/s/team-a/v1/contacts`),
   * the dashboard's links and redirects too. Default "" (the root). A hosted sandbox's is
   * `/s/<name>`.
   */
  basePath?: string | undefined;
  /** Believe X-Forwarded-Proto (behind a TLS-terminating proxy). Default false. */
  trustForwardedProto?: boolean | undefined;
  /** Unexpected errors (the client sees a plain 500). Default: console.error. */
  onError?: ((error: unknown) => void) | undefined;
  /**
   * Whether the adapter can close a connection without an answer, as a fault rule's `drop` asks.
   * Default true; a Cloudflare Worker cannot, and refuses such rules.
   */
  dropsConnections?: boolean | undefined;
  /** Fault rules to start with (and to go back to on reset); see PUT /__admin/faults. */
  faults?: FaultRuleInput[] | undefined;
  /**
   * GET /__admin/events: how many of the latest events a reconnecting subscriber can replay
   * (default 1000), how many unread events a subscriber may stay behind for more than a second
   * before it is disconnected (default 10 000; ten times as many disconnect it at once), how often
   * a quiet stream gets a keep-alive comment (default 15 000 ms).
   */
  liveEvents?: { replay?: number | undefined; maxQueued?: number | undefined; keepAliveMs?: number | undefined } | undefined;
}

export interface Intake {
  /**
   * Serves /v1, /__admin, /__dashboard and the webhook inbox, /__inbox: the core, for any adapter
   * (`serve` in `@intake/server/node` and the msw handlers hand it their requests).
   */
  fetch(request: Request): Promise<Response>;
  /** The admin API (/__admin), in process: the same typed client a test gets from connectIntake. */
  admin: AdminClient;
  clock: Clock;
  adminToken: string;
  /**
   * Everything that happens, as it happens: the domain's events and every request answered, raw
   * for code in the server's own process. Records are the stored ones, keys and secrets included
   * (as in `snapshot()`): read them, never change them. `subscribe` gives what /__admin/events
   * shows instead, request keys redacted.
   */
  events: EventSource;
  /** The whole state now: what GET /__admin/snapshot gives, and what a data file holds. */
  snapshot(): Snapshot;
  /**
   * What happens, live (what GET /__admin/events streams): `subscriber.deliver` gets each event
   * as it happens, of one account if `accountId` is given, until the returned function is called
   * or the server closes (`end`).
   */
  subscribe(subscriber: Subscriber): () => void;
  /** Ends the live event streams, stops scheduling; webhook attempts in flight are aborted and stay stored for a restart. */
  close(): Promise<void>;
}

export const DEFAULTS = {
  rateLimit: 120,
  journalSize: 1000,
  maxBodyBytes: 32 * 1024 * 1024,
  // What messaging channels commonly allow per file (MMS and messaging-app images: about 5 MB),
  // and well inside the body limit once base64 adds its third.
  maxMediaBytes: 5 * 1024 * 1024,
  // About 50 files at the per-message limit: more than a test suite or a demo stores in one
  // account, while one account can no longer grow the state (memory, the data file, snapshots,
  // which hold the files as base64, a third larger) without bound.
  maxAccountMediaBytes: 256 * 1024 * 1024,
  idempotencyTtlMs: 24 * 60 * 60 * 1000,
};

export function createIntake(options: IntakeOptions = {}): Intake {
  const deterministic = options.deterministic ? (options.deterministic === true ? {} : options.deterministic) : undefined;
  const clock = makeClock(options, deterministic !== undefined);
  const base = basePathOf(options.basePath);
  const restoredIds = options.snapshot?.ids as IdState | null | undefined;
  const ids = deterministic ? deterministicIds(deterministic.seed ?? 1, restoredIds ?? undefined) : randomIds();
  const onError = safeReporter(options.onError);
  const domain = createDomain({
    clock,
    ids,
    onError,
    limits: {
      maxMediaBytes: options.maxMediaBytes ?? DEFAULTS.maxMediaBytes,
      maxAccountMediaBytes: options.maxAccountMediaBytes ?? DEFAULTS.maxAccountMediaBytes,
      idempotencyTtlMs: options.idempotencyTtlMs ?? DEFAULTS.idempotencyTtlMs,
      capacity: { ...UNBOUNDED, ...definedOf(options.capacity ?? {}) },
    },
    rules: { allowHttpWebhooks: options.allowHttpWebhooks ?? false, duplicateRechargeWebhooks: options.duplicateRechargeWebhooks ?? false },
  });
  const { events } = domain;
  const parts = subscribers(domain, options, onError);
  const holds = answerHolds();
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  // A webhook to the server's own inbox (`/__inbox/<accountId>`, made a request to the in-process
  // origin) is handed to this server's core, the same front door, instead of the network: it
  // arrives whatever the port, under node, msw or createIntake alone, with no certificate question.
  let core: (request: Request) => Promise<Response> = () => Promise.reject(new Error("The server is not ready."));
  const outgoing = (request: Request) => (request.url.startsWith(`${IN_PROCESS_ORIGIN}/`) ? core(mounted(request, base)) : send(request));
  // A webhook goes out only once the state that caused it is saved: a crash never leaves a receiver
  // told of a message the restarted server does not have.
  const fetchHeld = async (request: Request) => {
    await holds.held();
    return outgoing(request);
  };
  // Drawn before the seed's secrets, so a deterministic run's keys stay what they were.
  const adminToken = options.adminToken ?? `adm_${ids.token(32)}`;
  const redact = redactorOf(configuredSecrets(domain.store, [adminToken, ...(options.bot?.secrets ?? [])]));
  const engine = createEngine({ domain, fetch: fetchHeld, onError, sequential: deterministic !== undefined, redact }, options);
  // What a reset rewinds a virtual clock to: where the seed starts (`clockStart`), not the time a
  // data file held, since a reset goes back to the seed, not to the file.
  const clockStart = clock.now();
  startFrom(domain, options);
  engine.start();

  let dashboardFiles: DashboardFiles | undefined;
  const adminDeps: AdminDeps = {
    domain,
    engine,
    inbox: parts.inbox,
    journal: parts.journal,
    faults: parts.faults,
    initialSeed: options.seed,
    clockStart,
    openEvents: ({ accountId, after }) => eventStream(parts.feed, { ...parts.streamLimits, accountId, after }),
  };
  const door = createFrontDoor({
    domain,
    api: { operations: apiOperations, validator: apiValidator },
    admin: {
      document: adminDocument,
      operation: (operationId) => bindAdmin(operationId, adminDeps),
      validator: adminValidator,
      token: adminToken,
    },
    inbox: parts.inbox,
    dashboardFiles: () => dashboardFiles,
    rateLimiter: parts.rateLimiter,
    faults: parts.faults,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    trustForwardedProto: options.trustForwardedProto ?? false,
    base,
    // Deterministic runs number them like every other id, so transcripts match byte for byte; the
    // admin API and the dashboard count apart, so a test's set-up does not move its /v1 ids.
    requestId: deterministic ? (area) => ids.id(area === "api" ? "req_" : `req_${area}_`) : serialIds("req_", ids),
    hold: holds.held,
    onError,
  });
  const fetch = async (request: Request) => toFetchResponse(await door.handle(fromFetchRequest(request)));
  core = fetch;

  const admin = createAdminClient({ adminUrl: `${IN_PROCESS_ORIGIN}${base}/__admin`, token: adminToken, fetch });
  const takeSnapshot = () => snapshot(domain);
  const intake: Intake = {
    fetch,
    admin,
    clock,
    adminToken,
    events,
    snapshot: takeSnapshot,
    subscribe: (subscriber) => parts.feed.subscribe(subscriber),
    close: () => {
      parts.feed.close();
      parts.stop();
      return engine.close();
    },
  };
  return attachInternals(intake, {
    handle: door.handle,
    failed: door.failed,
    clock,
    events,
    snapshot: takeSnapshot,
    idState: () => ids.state(),
    holdAnswers: holds.add,
    revert(saved) {
      loadSnapshot(domain, saved, "rollback");
      // Nothing of what runs lands in the state put back.
      engine.suspend();
      if (clock.mode === "virtual") (clock as VirtualClock).set(Date.parse(saved.clock.now));
    },
    resume: () => engine.resume(),
    reportError: onError,
    serveDashboard: (files) => void (dashboardFiles = files),
  });
}

/** `basePath` checked: "" or a path of its own, with no slash at its end. */
function basePathOf(basePath: string | undefined): string {
  if (basePath === undefined || basePath === "") return "";
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath))
    throw new Error(
      `basePath is a path such as /s/team-a: segments of letters, digits, ".", "_", "~" or "-", each after a slash, none at the end (got ${JSON.stringify(basePath)}).`,
    );
  return basePath;
}

/** A request to the core in process (a webhook to its own inbox), under the base the core is mounted at. */
function mounted(request: Request, base: string): Request {
  if (base === "") return request;
  const url = new URL(request.url);
  url.pathname = `${base}${url.pathname}`;
  return new Request(url, request);
}

/** An admin operation with what it works with. */
function bindAdmin(operationId: string, deps: AdminDeps): AdminOperation {
  const operation = adminOperations[operationId as keyof typeof adminOperations] as (
    call: Parameters<AdminOperation>[0],
    deps: AdminDeps,
  ) => ReturnType<AdminOperation>;
  return (call) => operation(call, deps);
}

/** Every part reports through this one: an onError that throws (tests often rethrow) must not stop an answer, a save or the scheduler's bookkeeping. */
function safeReporter(report: ((error: unknown) => void) | undefined): (error: unknown) => void {
  const reporter = report ?? ((error: unknown) => console.error("intake: unexpected error", error));
  return (error) => {
    try {
      reporter(error);
    } catch (thrown) {
      console.error("intake: onError threw", thrown, "while reporting", error);
    }
  };
}

/**
 * The parts that keep what happened (the journal, the live feed, the webhook inbox) or start
 * afresh on a reset (the rate limiter, the fault rules, the inbox).
 */
function subscribers(domain: Domain, options: IntakeOptions, onError: (error: unknown) => void) {
  const { events, store, ids } = domain;
  const journal = new Journal(
    options.journalSize ?? DEFAULTS.journalSize,
    (value) => store.account.find("apiKey", "", value) !== undefined,
  );
  const rateLimiter = createRateLimiter(options.rateLimit ?? (options.deterministic ? 0 : DEFAULTS.rateLimit), options.rateLimitWindowMs);
  const faults = new Faults(options.faults ?? [], ids, bodyChecker("setFaults", "Fault rules"), options.dropsConnections ?? true);
  const feed = new EventFeed({ replay: options.liveEvents?.replay }, onError);
  const inbox = new Inbox(domain);
  const streamLimits = checkedLimits({ ...STREAM_DEFAULTS, ...definedOf(options.liveEvents ?? {}) });
  const stops = [
    journal.follow(events),
    feedLiveEvents(events, feed, store, journal),
    inbox.follow(),
    events.on(["state.replaced"], ({ cause }) => {
      if (cause !== "reset") return;
      rateLimiter.reset();
      faults.reset();
    }),
  ];
  return { journal, rateLimiter, faults, feed, inbox, streamLimits, stop: () => stops.forEach((stop) => stop()) };
}

/** The starting state: a snapshot (what a data file holds), else the seed (which a reset goes back to: checked either way). */
function startFrom(domain: Domain, options: IntakeOptions): void {
  if (options.seed) bodyChecker("applySeed", "Seed")(options.seed);
  if (options.snapshot) {
    // The clock first: the stored jobs' times are on it.
    if (domain.clock.mode === "virtual") (domain.clock as VirtualClock).set(Date.parse(options.snapshot.clock.now));
    loadSnapshot(domain, options.snapshot, "load");
  } else if (options.seed) {
    applySeed(domain, options.seed);
  }
}

function makeClock(options: IntakeOptions, deterministic: boolean): Clock {
  if (typeof options.clock === "object") return options.clock;
  if (options.clock === "virtual" || deterministic) {
    const start =
      options.clockStart === undefined
        ? VIRTUAL_EPOCH
        : typeof options.clockStart === "number"
          ? options.clockStart
          : Date.parse(options.clockStart);
    if (!Number.isFinite(start)) throw new Error(`clockStart ${String(options.clockStart)} is not a date.`);
    return virtualClock(start);
  }
  return realClock();
}

/** The options given, without those left undefined (so defaults fill them). */
function definedOf<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
